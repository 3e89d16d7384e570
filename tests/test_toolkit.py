"""Using a trained model: `sentemb embed`, `nearest`, `nearest-words`, `export` and the SentEval batcher."""

from pathlib import Path

import numpy as np
import pytest
import torch
from gensim.models import KeyedVectors
from typer.testing import CliRunner

from sentemb import senteval
from sentemb.cli import app
from sentemb.errors import SentembError
from sentemb.models import keyed_vectors, load_model, save_word_averaging_model
from sentemb.paraphrastic.composition import build_composition
from sentemb.paraphrastic.model import save_paraphrastic_model
from sentemb.salience.model import save_weighted_average_model
from sentemb.text import TextConfig

WORDS = ["a", "man", "plays", "guitar", "woman", "sings", "dog", "runs"]
VECTORS = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 0.2], [0, 0.1, 1], [1, 0, 1], [0.5, 0, 1]],
                   dtype=np.float32)
CORPUS = ["a man plays guitar", "a woman sings", "zebra", "", "a dog runs", "the man plays"]


@pytest.fixture
def models(tmp_path):
    counts = np.arange(len(WORDS), 0, -1)
    save_word_averaging_model(tmp_path / "avg", "avg", keyed_vectors(WORDS, counts, VECTORS), TextConfig())
    weights = np.linspace(0.5, 2.0, len(WORDS))
    save_weighted_average_model(tmp_path / "nws", "nws", tmp_path / "avg", WORDS, weights, counts, TextConfig(),
                                "nws")
    save_weighted_average_model(tmp_path / "sif-pc", "sif-pc", tmp_path / "avg", WORDS, weights, counts,
                                TextConfig(), "sif", component_fit="per_set")
    torch.manual_seed(0)
    enc = build_composition("gran", VECTORS[[1, 2, 3]] + 0.5)
    save_paraphrastic_model(tmp_path / "gran", "gran", enc, ["man", "plays", "guitar"], "gran", {},
                            tmp_path / "avg", TextConfig())
    (tmp_path / "corpus.txt").write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
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


def test_embed_errors_are_one_line(models):
    cases = [
        (("embed", models / "missing", models / "corpus.txt"), "missing model config"),
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
    with pytest.raises(SentembError, match="component_fit 'corpus'"):
        senteval.prepare({"sentemb_model": str(models / "sif-pc")}, [])
    with pytest.raises(SentembError, match="missing model config"):
        senteval.prepare({"sentemb_model": str(models / "none")}, [])


def test_profile_prints_the_quick_profile_as_set_param_arguments(tmp_path, monkeypatch):
    """`dvc exp run $(sentemb profile quick)`: `-S key=value` pairs that parse back to the profile's values, every key
    one params.yaml has (DVC refuses new keys)."""
    import yaml

    from sentemb.profile import read_profile

    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(root)
    runner = CliRunner()
    res = runner.invoke(app, ["profile", "quick"])
    assert res.exit_code == 0, res.output
    args = res.stdout.split()
    assert args[0::2] == ["-S"] * (len(args) // 2) and "download.corpus=[gutenberg-01,enwiki-01]" in args
    parsed = {k: yaml.safe_load(v) for k, v in (a.split("=", 1) for a in args[1::2])}
    assert parsed == read_profile("quick") and parsed["supervised.training.max_pairs"] == 150
    for text, message in [("split.max_docs: 4\n", "split.max_docs: params.yaml has no such key"),
                          ("nosuch.key: 1\n", "nosuch.key: params.yaml has no section 'nosuch'"),
                          ("text.tokenizer: a b\n", "text.tokenizer: 'a b' cannot be passed as `-S"),
                          ("- a list\n", "expected a mapping of dotted params keys")]:
        (tmp_path / "bad.yaml").write_text(text)
        res = runner.invoke(app, ["profile", str(tmp_path / "bad.yaml")])
        assert res.exit_code == 1 and message in res.stderr, (text, res.output)
    res = runner.invoke(app, ["profile", "nope"])
    assert res.exit_code == 1 and "profiles/nope.yaml: no such profile (profiles: quick)" in res.stderr


def test_evaluate_command_names_its_own_option_for_an_unknown_benchmark(tmp_path):
    res = CliRunner().invoke(app, ["evaluate", str(tmp_path / "any-model"), "--benchmark", "STS99"])
    assert res.exit_code == 1
    assert res.stderr.strip() == ("error: --benchmark: unknown benchmark 'STS99' (expected one of STS12, STS13, STS14, "
                                  "STS15, STS16, SICK-R, STS-B, PIT-2015)")
