"""Using a trained model (sentemb.inference): `sentemb embed`, `nearest`, `nearest-words`, `export`,
`evaluate --pairs` and the SentEval batcher."""

from pathlib import Path

from helpers import TOY_VECTORS, TOY_WORDS, toy_models

import numpy as np
import pytest
from gensim.models import KeyedVectors
from typer.testing import CliRunner

from sentemb import senteval
from sentemb.cli import app
from sentemb.core.errors import SentembError
from sentemb.core.models import load_model

WORDS, VECTORS = TOY_WORDS, np.array(TOY_VECTORS, dtype=np.float32)
CORPUS = ["a man plays guitar", "a woman sings", "zebra", "", "a dog runs", "the man plays"]


@pytest.fixture
def models(tmp_path):
    (toy_models(tmp_path) / "corpus.txt").write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
    return tmp_path


def _run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


@pytest.mark.parametrize("model", ["avg", "nws", "gran"])
def test_embed_streams_batches_into_the_models_own_embeddings(models, model):
    out = models / f"{model}.npy"
    res = _run("embed", models / model, models / "corpus.txt", "-o", out, "--batch-size", "4")  # 6 lines: 2 batches
    assert res.exit_code == 0, res.output
    assert f"6 sentences → {out}" in res.stdout
    emb = np.load(out)
    assert emb.shape == (6, 3) and emb.dtype == np.float32
    np.testing.assert_allclose(emb, load_model(models / model).encode(CORPUS), rtol=1e-6, atol=1e-7)
    assert not emb[2].any() and not emb[3].any()  # no known word / empty line → zeros
    # standard input, and the default output name
    res = _run("embed", models / model, "-", "-o", models / "stdin.npy", input="\n".join(CORPUS) + "\n")
    assert res.exit_code == 0 and np.array_equal(np.load(models / "stdin.npy"), emb)
    assert _run("embed", models / model, models / "corpus.txt").exit_code == 0
    assert np.array_equal(np.load(models / "corpus.npy"), emb)


def test_batches_are_bounded_by_sentences_and_by_padded_words():
    from sentemb.inference.files import in_batches

    lines = ["a b", "a", "a b c d e f g h", "a", "a b", "x " * 40 + "y", "a"]
    batches = list(in_batches(lines, 3, padded_tokens=16))
    assert [len(b) for b in batches] == [2, 2, 1, 1, 1] and [x for b in batches for x in b] == lines
    assert all(len(b) * max(x.count(" ") + 1 for x in b) <= 16 or len(b) == 1 for b in batches)
    assert [len(b) for b in in_batches(lines, 3)] == [3, 3, 1]  # the default budget: the count alone here


def test_embed_errors_are_one_line(models):
    cases = [
        (("embed", models / "missing", models / "corpus.txt"), "missing: missing model directory"),
        (("embed", models / "avg", models / "nothing.txt"), "nothing.txt: missing input file"),
        (("embed", models / "avg", models), "is a directory"),
        (("embed", models / "avg", "-"), "name the output with -o/--output"),
        (("embed", models / "sif-pc", models / "corpus.txt"), "fitted on the sentences of each call"),
    ]
    (models / "empty.txt").write_text("")
    (models / "latin1.txt").write_bytes("a man\ncaf\xe9\n".encode("latin-1"))
    cases += [(("embed", models / "avg", models / "empty.txt"), "the input is empty"),
              (("embed", models / "avg", models / "latin1.txt"), "latin1.txt:2: not valid UTF-8")]
    for args, message in cases:
        res = _run(*args)
        assert res.exit_code == 1 and message in res.output and "Traceback" not in res.output, (args, res.output)
        lines = [line for line in res.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    assert not (models / "empty.npy").exists() and not (models / "latin1.npy").exists()  # nothing half-written


def test_nearest_sentences_by_cosine(models):
    res = _run("nearest", models / "avg", "a man plays guitar", "--corpus", models / "corpus.txt", "-k", "3")
    assert res.exit_code == 0, res.output
    rows = [line.split("\t") for line in res.stdout.strip().splitlines()]
    assert rows[0][:2] == ["1.0000", "1"] and len(rows) == 3
    assert "3" not in [r[1] for r in rows] and "4" not in [r[1] for r in rows]  # zero embeddings never returned
    assert [float(r[0]) for r in rows] == sorted((float(r[0]) for r in rows), reverse=True)
    res = _run("nearest", models / "avg", "zebra", "--corpus", models / "corpus.txt")
    assert res.exit_code == 1 and "has no word the model knows" in res.output
    res = _run("nearest", models / "avg", "a man", "--corpus", models / "corpus.txt", "-k", "0")
    assert res.exit_code != 0


def test_nearest_words_and_export(models, tmp_path):
    res = _run("nearest-words", models / "avg", "man", "-k", "2")
    assert res.exit_code == 0 and res.stdout.splitlines()[0].split("\t")[1] == "woman"
    res = _run("nearest-words", models / "avg", "zebra")
    assert res.exit_code == 1 and "'zebra' is not in the model's vocabulary of 8 words" in res.output
    # word2vec text and binary, read back by gensim; a weighted model's vectors carry their weights
    for model, binary in (("avg", False), ("nws", True), ("gran", False)):
        out = tmp_path / f"{model}.w2v"
        res = _run("export", models / model, out, *(["--binary"] if binary else []))
        assert res.exit_code == 0, res.output
        kv = KeyedVectors.load_word2vec_format(str(out), binary=binary)
        assert sorted(kv.index_to_key) == sorted(WORDS)
        m = load_model(models / model)
        if model == "nws":
            assert "baked in" in res.stdout
            sentence = ["a", "man", "plays"]
            np.testing.assert_allclose(kv[sentence].mean(0), m.encode([" ".join(sentence)])[0], rtol=1e-5)
        elif model == "gran":
            assert "input vectors" in res.stdout
            np.testing.assert_allclose(kv["guitar"], VECTORS[3] + 0.5, rtol=1e-6)  # the trained row
            np.testing.assert_allclose(kv["dog"], VECTORS[6], rtol=1e-6)  # a row from the base vectors
        else:
            np.testing.assert_allclose(kv[WORDS], VECTORS, rtol=1e-6)
    res = _run("export", models / "sif-pc", tmp_path / "x.txt")
    assert res.exit_code == 1 and "common component" in res.output and not (tmp_path / "x.txt").exists()


class _DotDict(dict):
    """SentEval's params object: a dict with attribute access."""

    __getattr__ = dict.get
    __setattr__ = dict.__setitem__


@pytest.mark.parametrize("params_type", [dict, _DotDict])
def test_senteval_prepare_and_batcher_follow_its_contract(models, params_type):
    params = params_type(task_path="unused", usepytorch=False, kfold=10, sentemb_model=str(models / "gran"))
    samples = [s.split() for s in CORPUS]
    assert senteval.prepare(params, samples) is None
    batch = [["a", "man", "plays", "guitar"], [], ["zebra"], ["the", "man", "plays"]]
    emb = senteval.batcher(params, batch)
    assert isinstance(emb, np.ndarray) and emb.shape == (4, 3) and emb.dtype == np.float32
    np.testing.assert_allclose(emb, load_model(models / "gran").encode(["a man plays guitar", "", "zebra",
                                                                         "the man plays"]), rtol=1e-6)
    assert not emb[1].any() and not emb[2].any()


def test_senteval_errors(models):
    with pytest.raises(SentembError, match="set 'sentemb_model' to a model directory"):
        senteval.prepare({}, [])
    with pytest.raises(SentembError, match="call prepare"):
        senteval.batcher({}, [["a"]])
    with pytest.raises(SentembError, match="sif-pc-corpus"):
        senteval.prepare({"sentemb_model": str(models / "sif-pc")}, [])
    with pytest.raises(SentembError, match="none: missing model directory"):
        senteval.prepare({"sentemb_model": str(models / "none")}, [])


def test_profile_prints_set_param_arguments_that_parse_back_to_the_profile(tmp_path):
    """`dvc exp run $(python profiles/profile.py NAME)`: `-S key=value` pairs that parse back to the profile's values,
    every key one params.yaml has (DVC refuses new keys), and `-S ~key` for each removal."""
    import subprocess
    import sys

    import yaml

    root = Path(__file__).resolve().parents[1]

    def profile(name: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "profiles/profile.py", name], cwd=root, capture_output=True, text=True)

    for name in ("smoke", "quick", "gpu"):
        res = profile(name)
        assert res.returncode == 0, res.stderr
        args = res.stdout.split()
        assert args[0::2] == ["-S"] * (len(args) // 2)
        parsed = {k: yaml.safe_load(v) for k, v in (a.split("=", 1) if "=" in a else (a, "null")
                                                     for a in args[1::2])}
        assert parsed == yaml.safe_load((root / f"profiles/{name}.yaml").read_text()), name
    assert "download.corpus=[gutenberg-01,enwiki-01]" in profile("smoke").stdout.split()
    removals = [k for k in yaml.safe_load((root / "profiles/quick.yaml").read_text()) if k.startswith("~")]
    assert removals and set(removals) <= set(profile("quick").stdout.split())  # `-S ~key`, Hydra's deletion
    for text, message in [("split.max_docs: 4\n", "split.max_docs: params.yaml has no such key"),
                          ("nosuch.key: 1\n", "nosuch.key: params.yaml has no section 'nosuch'"),
                          ("text.tokenizer: a b\n", "text.tokenizer: 'a b' cannot be passed as `-S"),
                          ("~paraphrastic.para-nope:\n", "paraphrastic.para-nope: params.yaml has no such key"),
                          ("~split.jobs: 2\n", "~split.jobs: a removal takes no value (got 2)"),
                          ("- a list\n", "expected a mapping of dotted params keys")]:
        (tmp_path / "bad.yaml").write_text(text)
        res = profile(str(tmp_path / "bad.yaml"))
        assert res.returncode == 1 and message in res.stderr and "Traceback" not in res.stderr, (text, res.stderr)
    res = profile("nope")
    assert res.returncode == 1 and "profiles/nope.yaml: no such profile (profiles: gpu, quick, smoke)" in res.stderr


def test_evaluate_command_names_its_own_option_for_an_unknown_benchmark(tmp_path):
    res = CliRunner().invoke(app, ["evaluate", str(tmp_path / "any-model"), "--benchmark", "STS99"])
    assert res.exit_code == 1
    assert res.stderr.strip() == ("error: --benchmark: unknown benchmark 'STS99' (expected one of STS12, STS13, STS14, "
                                  "STS15, STS16, SICK-R, STS-B, PIT-2015)")


def test_evaluate_your_own_pairs(models):
    """`sentemb evaluate MODEL --pairs FILE`: a header line skipped, the scale inferred (or given and checked), the
    same correlations as the official sets get."""
    (models / "mine.tsv").write_text("sentence1\tsentence2\tscore\na man plays guitar\ta man plays guitar\t5\n"
                                     "a man plays\ta woman sings\t1.5\na dog runs\ta man plays guitar\t0\n"
                                     "a woman sings\ta woman\t3.2\n", encoding="utf-8")
    res = _run("evaluate", models / "nws", "--pairs", models / "mine.tsv")
    assert res.exit_code == 0, res.output
    assert f"{models / 'mine.tsv'}: 4 pairs, gold scale [0, 5] (the range of the scores" in res.stderr
    header, row = res.stdout.splitlines()
    assert header.split() == ["group", "dataset", "set", "pairs", "pearson", "spearman", "no_known_word"]
    model = load_model(models / "nws")
    emb = model.encode(["a man plays guitar", "a man plays", "a dog runs", "a woman sings"])
    other = model.encode(["a man plays guitar", "a woman sings", "a man plays guitar", "a woman"])
    cos = (emb * other).sum(1) / np.linalg.norm(emb, axis=1) / np.linalg.norm(other, axis=1)
    from scipy.stats import pearsonr

    assert row.split()[:4] == ["pairs", "mine", "pairs.mine", "4"]
    assert float(row.split()[4]) == pytest.approx(100 * pearsonr(cos, [5, 1.5, 0, 3.2])[0], abs=0.006)
    res = _run("evaluate", models / "nws", "--pairs", models / "mine.tsv", "--scale", "0", "5")
    assert res.exit_code == 0 and "gold scale [0, 5] (--scale)" in res.stderr, res.output


_SIMILARITY_IMPORTS = r"""
import json, sys
sys.argv = ["sentemb", "similarity", sys.argv[1], "a man plays guitar", "the man plays"]
from sentemb.cli import main
try:
    main()
except SystemExit as e:
    assert not e.code, e.code
heavy = ("torch", "scipy", "pandas", "gensim", "nltk", "numba", "tqdm")
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


@pytest.mark.parametrize("model", ["avg", "nws", "gran"])
def test_similarity_imports_no_heavy_library(models, model):
    """`sentemb similarity` on a word or weighted average or a recurrent encoder (GRAN, encoded in NumPy) loads none
    of torch, scipy, pandas, gensim, numba or NLTK's package (each costs a user from 0.3 to 2 s a command:
    docs/speed.md, start-up), nor tqdm (0.02-0.05 s with the asyncio it brings; only ``embed`` shows a bar), and
    prints the cosine."""
    import json
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-c", _SIMILARITY_IMPORTS, str(models / model)], capture_output=True,
                         text=True, check=True)
    score, imported = res.stdout.splitlines()
    assert json.loads(imported) == [] and -1 <= float(score) <= 1


def test_the_version_and_python_dash_m():
    import subprocess
    import sys

    from typer.testing import CliRunner

    from sentemb import __version__
    from sentemb.cli import app

    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout == f"sentemb {__version__}\n"
    res = subprocess.run([sys.executable, "-m", "sentemb", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "similarity" in res.stdout
