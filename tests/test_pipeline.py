"""The DVC pipeline itself, run as a user runs it: `dvc repro` on a tiny slice of the real corpus."""

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import yaml
from gensim.models import KeyedVectors
from typer.testing import CliRunner

from sentemb import senteval
from sentemb.cli import app
from sentemb.profile import apply_profile, read_profile

ROOT = Path(__file__).resolve().parents[1]


QUICK = ROOT / "profiles" / "quick.yaml"
GIT_IDENTITY = {"GIT_AUTHOR_NAME": "sentemb tests", "GIT_AUTHOR_EMAIL": "tests@sentemb.invalid",
                "GIT_COMMITTER_NAME": "sentemb tests", "GIT_COMMITTER_EMAIL": "tests@sentemb.invalid"}


def _project(tmp_path: Path, shared: Path, quick: bool = True, root: Path = ROOT, **overrides) -> Path:
    """A fresh git+DVC project with the pipeline of ``root`` (this repository, or a tree of another revision: the
    benchmark benchmarks/pipeline_overhead.py), reading the shared mirror; its params.yaml is ``root``'s with the
    quick profile (profiles/quick.yaml) applied, unless ``quick`` is false."""
    proj = tmp_path / "proj"
    proj.mkdir()
    for item in ("dvc.yaml", "pipelines", "stages", "src", "reference", "profiles"):
        src = root / item
        if src.is_dir():  # as a fresh clone has them: without Python's or numba's caches
            shutil.copytree(src, proj / item, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, proj / item)
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["download"].update(mirror=str(shared), use_network=False)
    if quick:
        params = apply_profile(params, read_profile(QUICK))
    for section, values in overrides.items():
        params[section].update(values)
    (proj / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    for cmd in (["git", "init", "-q"], [sys.executable, "-m", "dvc", "init", "-q"]):
        subprocess.run(cmd, cwd=proj, check=True)
    return proj


def _dvc(proj: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dvc", *args], cwd=proj, capture_output=True, text=True, check=check,
                          env=os.environ | GIT_IDENTITY)


LOCKS = ("dvc.lock", *sorted(p.relative_to(ROOT).with_name("dvc.lock").as_posix()
                          for p in (ROOT / "pipelines").glob("*/dvc.yaml")))  # one lock a dvc.yaml


def _locks(proj: Path) -> bytes:
    """Every lock file of the pipeline (the root's, then those of pipelines/*/), one after the other."""
    return b"".join((proj / lock).read_bytes() for lock in LOCKS)


def _stale(proj: Path, *targets: str) -> set[str]:
    """The stages `dvc status` lists as changed, by name: `pipelines/weighting/dvc.yaml:nws@glove` is `nws@glove`
    (names are unique across the dvc.yaml files)."""
    return {name.rsplit(":", 1)[-1] for name in json.loads(_dvc(proj, "status", "--json", *targets).stdout)}


def _keys(obj) -> list[str]:
    """Every key of a nested JSON object."""
    if isinstance(obj, dict):
        return [k for key, value in obj.items() for k in (key, *_keys(value))]
    if isinstance(obj, list):
        return [k for value in obj for k in _keys(value)]
    return []


def _lock_diff(before: bytes, after: bytes) -> str:
    """The first differing lines of two snapshots of the lock files, for an assertion message."""
    import difflib

    return "\n".join(list(difflib.unified_diff(before.decode().splitlines(), after.decode().splitlines(),
                                                lineterm="", n=8))[:60])


@pytest.mark.slow
def test_quick_profile_end_to_end_as_the_readme_runs_it(tmp_path, shared):
    """README's quick look, `dvc exp run $(sentemb profile quick)`, on a fresh project: every stage runs."""
    proj = _project(tmp_path, shared, quick=False)
    subprocess.run(["git", "add", "-A"], cwd=proj, check=True)
    subprocess.run(["git", "commit", "-qm", "a fresh project"], cwd=proj, check=True, env=os.environ | GIT_IDENTITY)
    py = shlex.quote(sys.executable)
    res = subprocess.run(["bash", "-c", f"{py} -m dvc exp run $({py} -m sentemb.cli profile quick)"], cwd=proj,
                         capture_output=True, text=True, env=os.environ | GIT_IDENTITY)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert yaml.safe_load((proj / "params.yaml").read_text())["split"]["max_documents"] == 4  # the profile applied
    corpus = json.loads((proj / "metrics/corpus.json").read_text())
    assert corpus["documents"] == 8 and corpus["sentences"] > 1000 and 0.9 < corpus["token_coverage"] <= 1
    vectors = ("glove", "word2vec-sg", "word2vec-cbow")
    weighted = [f"{v}-{w}" for v in vectors for w in ("isf", "isf-log", "sif", "sif-pc", "nws")]
    paraphrastic = ["para-avg", "para-proj", "para-dan", "para-lstm", "para-lstmavg", "para-gran"]
    controls = [f"untrained-{k}" for k in (1, 2, 3, 4, 5, "frequent", "idf")]
    amounts = [f"siamese_cbow-lrsum{k}" for k in (10, 30, 200, 1000)]
    for model in (*vectors, "siamese_cbow", *weighted, "paragram", *paraphrastic, *controls, *amounts):
        m = json.loads((proj / f"metrics/{model}.json").read_text())
        own_vectors = model in (*vectors, "siamese_cbow", "paragram", *controls, *amounts)
        assert set(m) == {"STS12", "STS16", "STS12-15", "NWS-18", "all", "pairs_without_known_word"} | (
            {"word_similarity"} if own_vectors else set()) | ({"oov"} if model in ("siamese_cbow", "word2vec-cbow")
                                                              else set())
        if own_vectors:
            assert set(m["word_similarity"]) == {"SimLex-999", "WordSim-353"}
        if "oov" in m:  # both treatments of unknown words
            assert set(m["oov"]) == {"drop", "random"} and m["oov"]["drop"]["STS12-15"] == m["STS12-15"]["pearson"]
        assert m["NWS-18"]["datasets"] == 4 and m["all"]["datasets"] == 10
        assert m["STS12"]["pairs"] == 3108 and m["STS16"]["pairs"] == 1186
        assert -100 <= m["STS12"]["pearson"] <= 100 and m["STS12-15"]["datasets"] == 5
        rows = (proj / f"metrics/{model}.datasets.csv").read_text().splitlines()
        assert rows[0] == "group,dataset,set,pairs,pearson,spearman,no_known_word" and len(rows) == 11
        assert len((proj / f"results/{model}/pair_scores.tsv").read_text().splitlines()) == 3108 + 1186 + 1
    curve = (proj / "metrics/train/glove.csv").read_text().splitlines()
    assert curve[0] == "epoch,cost,SimLex-999,WordSim-353" and len(curve) == 2  # one epoch in this slice
    log = (proj / "metrics/train/siamese_cbow.csv").read_text().splitlines()
    assert log[0] == "step,epoch,sentences,loss,lr" and len(log) > 2
    table = (proj / "reports/kenter2016_table1.md").read_text()
    assert "| STS12 | MSRpar |" in table and "19 sets in both" not in table  # only 5 of Kenter's sets evaluated here
    for section in ("## Williams' test", "## Unknown words", "## Controls", "## Training amount",
                    "## In-batch negatives", "## Claims of Kenter et al."):
        assert section in table, section
    info = json.loads((proj / "models/siamese_cbow-inbatch/config.json").read_text())["info"]["training"]
    assert info["config"]["negatives"] == "batch" and info["fit"] == "torch"  # the profile's AdaGrad: torch's fit
    assert "Siamese CBOW beats averaged word2vec CBOW vectors" in table and "over 5 datasets" in table
    curve = (proj / "metrics/kenter_training_amount.csv").read_text().splitlines()
    assert curve[0] == "model,optimizer,lr_sum,STS12-15" and len(curve) == 7
    last = curve[-1].split(",")
    assert curve[1].startswith("untrained-1,none,0.0,") and last[:2] == ["siamese_cbow-lrsum1000", "sgd"]
    assert float(last[2]) == pytest.approx(1000.0, rel=1e-6)  # the summed rate the optimizer really stepped with
    nws = (proj / "reports/bollegala2018_tables.md").read_text()
    assert "| STS12 | SMTnews |" in nws and "the paper's 4 sets" in nws and "| glove |" in nws
    assert "## Claims of Bollegala et al." in nws and "NWS over GloVe beats SMOOTH over GloVe" in nws
    for v in vectors:
        norms = json.loads((proj / f"metrics/{v}-nws.norms.json").read_text())
        assert norms["Warriner valence"]["words"] > 100 and -1 <= norms["MRC concreteness"]["pearson"] <= 1
        weights = (proj / f"models/{v}-nws/weights.tsv").read_text().splitlines()
        assert weights[0] == "word\tweight\tcount" and len(weights) == corpus["vocabulary"] + 1
    pairs = json.loads((proj / "metrics/pairs.json").read_text())
    assert set(pairs["sources"]) == {"twitter-url", "msrp", "turkcorpus"} and pairs["ppdb_lexical_pairs"] == 300
    assert all(s["positives"] == 300 for s in pairs["sources"].values()) and pairs["total"]["kept"] > 500
    assert pairs["sources"]["msrp"]["evaluation_overlap"] > 0  # STS 2012 MSRpar is drawn from MSRP
    for model in paraphrastic:
        log = (proj / f"metrics/train/{model}.csv").read_text().splitlines()
        assert log[0] == "step,epoch,pairs_seen,loss,STS16,GRAN-22,STS12-15" and len(log) == 3
    assert (proj / "metrics/train/paragram.csv").read_text().splitlines()[0] == (
        "step,epoch,pairs_seen,loss,SimLex-999,WordSim-353")
    wieting = (proj / "reports/wieting2017_tables.md").read_text()
    assert "| LSTMAVG | `para-lstmavg` | dropout, scrambling |" in wieting and "Only 5 of the sets" in wieting
    assert "## Claims of Wieting et al. 2016 and Wieting & Gimpel 2017" in wieting and "GRAN beats AVG" in wieting
    split = json.loads((proj / "metrics/supervised-data.json").read_text())
    assert split["sts"]["train"] == {"pairs": 4541, "sets": 19} and split["sick"]["test"] == {"pairs": 4927, "sets": 1}
    assert split["test_sentences_in_training_pairs"] == 0
    for name in (f"{m}-{s}" for m in ("avg", "lstmavg", "gran") for s in ("random", "initialised", "universal")):
        got = json.loads((proj / f"metrics/supervised/{name}.json").read_text())
        assert got["sts"]["train"] == got["sick"]["test_pairs"] == 150 and -100 <= got["sick"]["test"] <= 100
        assert len((proj / f"results/supervised/{name}/sts_test.tsv").read_text().splitlines()) == 151
        assert (proj / f"metrics/train/supervised/{name}-sick.csv").read_text().startswith("step,epoch,loss,dev,test")
    supervised = (proj / "reports/wieting2017_supervised.md").read_text()
    assert "| GRAN | universal | dropout, scrambling, universal |" in supervised and "## Table 5 layout" in supervised
    assert "initialising from and regularising to the transfer model beats random initialisation" in supervised
    # Table 8's random row and the Williams test's r B are the same number (both from the full-precision predictions)
    random_sts = next(line.split(" | ")[3] for line in supervised.splitlines()
                      if line.startswith("| GRAN | random | dropout, scrambling |"))
    williams_b = next(line.split(" | ")[6] for line in supervised.splitlines()
                      if line.startswith("| GRAN | universal | random | STS |"))
    assert random_sts == williams_b
    summary = json.loads((proj / "metrics/summary.json").read_text())
    assert set(summary) == {*vectors, "siamese_cbow", *weighted, "paragram", *paraphrastic}
    # the slice's models used as a researcher would: sentemb embed / nearest / nearest-words / export, SentEval
    text = tmp_path / "sentences.txt"
    text.write_text("a man is playing a guitar .\nthe dog runs in the park .\nzzzzqx\n", encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["embed", str(proj / "models/para-gran"), str(text), "-o", str(tmp_path / "e.npy")])
    assert res.exit_code == 0 and np.load(tmp_path / "e.npy").shape == (3, 16), res.output
    res = runner.invoke(app, ["nearest", str(proj / "models/siamese_cbow"), "a man is playing a guitar .",
                              "--corpus", str(text), "-k", "2"])
    assert res.exit_code == 0 and res.stdout.splitlines()[0].startswith("1.0000\t1\t"), res.output
    res = runner.invoke(app, ["nearest-words", str(proj / "models/word2vec-cbow"), "the", "-k", "3"])
    assert res.exit_code == 0 and len(res.stdout.splitlines()) == 3, res.output
    res = runner.invoke(app, ["export", str(proj / "models/glove-nws"), str(tmp_path / "nws.txt")])
    assert res.exit_code == 0 and "baked in" in res.stdout, res.output
    assert len(KeyedVectors.load_word2vec_format(str(tmp_path / "nws.txt"))) == corpus["vocabulary"]
    params = {"sentemb_model": str(proj / "models/para-lstmavg")}
    senteval.prepare(params, [])
    assert senteval.batcher(params, [["a", "man"], []]).shape == (2, 16)
    assert _dvc(proj, "status").stdout.strip() == "Data and pipelines are up to date."
    # the one DVC metrics file: two means per evaluated model, the test r of every supervised run
    headline = json.loads((proj / "metrics/headline.json").read_text())
    assert set(headline) == set(summary) | {f"supervised/{m}-{s}" for m in ("avg", "lstmavg", "gran")
                                            for s in ("random", "initialised", "universal")}
    assert set(headline["siamese_cbow"]) == {"STS12-15", "all"} and set(headline["supervised/gran-random"]) == {
        "sts", "sick"}
    shown = _dvc(proj, "metrics", "show", "--json").stdout
    assert next(iter(json.loads(shown).values()))["data"].keys() == {"metrics/headline.json"}
    # clock readings live outside the hashed outputs
    for name in ("glove", "word2vec-sg", "siamese_cbow", "glove-nws", "para-gran", "supervised/gran-random"):
        assert json.loads((proj / f"logs/timings/{name}.json").read_text()), name
    for model in ("glove", "word2vec-sg", "siamese_cbow", "glove-nws", "para-gran"):
        assert not any(k.endswith(("seconds", "_second")) for k in _keys(json.loads(
            (proj / f"models/{model}/config.json").read_text()))), model
    # determinism: every kind of trainer run again on the same params writes the same bytes (every lock file: every md5)
    lock = _locks(proj)
    trainers = ["split", "vocab", "pairs", "word2vec@sg", "glove", "siamese_cbow", "siamese_cbow_inbatch",
                "pipelines/weighting/dvc.yaml:nws@glove", "paraphrastic@paragram", "paraphrastic@para-lstmavg",
                "paraphrastic@para-gran", "supervised-data", "pipelines/supervised/dvc.yaml:supervise@gran-universal"]
    _dvc(proj, "repro", "--force", "--single-item", *trainers)  # one DVC process: each stage alone, in this order
    assert _locks(proj) == lock, _lock_diff(lock, _locks(proj))
    # a training stage killed mid-run (the whole process group, SIGKILL) leaves no output, is stale, and `dvc repro`
    # brings back the same outputs (from DVC's run cache: its retraining to the same bytes is the forced rerun above)
    kill = subprocess.Popen([sys.executable, "-m", "dvc", "repro", "--force", "--single-item",
                             "paraphrastic@para-lstmavg"], cwd=proj, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ | GIT_IDENTITY)
    deadline = time.monotonic() + 120
    while (proj / "models/para-lstmavg").exists() and time.monotonic() < deadline and kill.poll() is None:
        time.sleep(0.05)  # DVC removes the stage's outputs before it starts the command
    time.sleep(1.0)       # the command is now importing or training
    assert kill.poll() is None, "the stage finished before it could be killed"
    os.killpg(kill.pid, signal.SIGKILL)
    kill.wait()
    assert not (proj / "models/para-lstmavg/config.json").exists()
    assert "paraphrastic@para-lstmavg" in _stale(proj)
    _dvc(proj, "repro")
    assert _locks(proj) == lock
    # data-parallel Siamese CBOW: `-S model.processes=2` runs the stage as 2 Gloo processes under torchrun
    params_before = (proj / "params.yaml").read_text()
    params = yaml.safe_load(params_before)
    params["model"]["processes"] = 2
    (proj / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    res = _dvc(proj, "repro", "--single-item", "siamese_cbow", check=False)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    info = json.loads((proj / "models/siamese_cbow/config.json").read_text())["info"]["training"]
    assert info["device"] == "cpu × 2 processes" and info["tuples"] > 1000
    (proj / "params.yaml").write_text(params_before)
    _dvc(proj, "repro", "--single-item", "siamese_cbow")  # restored from the run cache
    assert _locks(proj) == lock
    # changing the number of negatives touches the Siamese CBOW training stage alone
    params_before = (proj / "params.yaml").read_text()
    params = yaml.safe_load(params_before)
    params["model"]["neg"] = 5
    (proj / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    params["nws"]["lr"] = 0.1
    params["paraphrastic"]["para-gran"]["variant"] = 3  # GRAN-3, by a params switch
    (proj / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    changed = _stale(proj)
    amount_stages = {f"siamese_cbow_amount@{k}" for k in (10, 30, 200, 1000)}  # they read `model` too
    supervise = {f"supervise@{m}-{s}" for m in ("avg", "lstmavg", "gran") for s in ("random", "initialised",
                                                                                  "universal")}
    gran_supervise = {s for s in supervise if s.startswith("supervise@gran-")}  # they build GRAN-3 now
    assert set(changed) == {"siamese_cbow", "siamese_cbow_inbatch", *amount_stages, *(f"nws@{v}" for v in vectors),
                            "paraphrastic@para-gran", "report", *gran_supervise, "report-supervised"}
    (proj / "params.yaml").write_text(params_before)
    assert _dvc(proj, "status").stdout.strip() == "Data and pipelines are up to date."
    # an edit to one family's code makes exactly that family's stages stale (and the report, which names the
    # paraphrastic models from their encoder's arguments)
    salience = {*(f"nws@{v}" for v in vectors), *(f"baseline@{v}-{w}" for v in vectors for w in ("isf", "isf-log",
                "sif", "sif-pc")), *(f"evaluate-salience@{m}" for m in weighted), *(f"norms@{v}" for v in vectors)}
    touched = {
        "src/sentemb/siamese_cbow/encoder.py": {"siamese_cbow", "siamese_cbow_inbatch", *amount_stages,
                                                *(f"control@{c}" for c in controls)},
        "src/sentemb/salience/weighting.py": salience,
        "src/sentemb/paraphrastic/composition.py": {"paraphrastic@paragram", *(f"paraphrastic@{m}" for m in
                                                    paraphrastic), *(f"evaluate-paraphrastic@{m}" for m in
                                                    paraphrastic), "report", *supervise, "report-supervised"},
        "src/sentemb/wordvectors/glove.py": {"glove"},
        "src/sentemb/wordvectors/word2vec.py": {"word2vec@sg", "word2vec@cbow"},
    }
    for path, expected in touched.items():
        original = (proj / path).read_text()
        (proj / path).write_text(original + "\n# an edit\n")
        assert _stale(proj) == expected, path
        (proj / path).write_text(original)


@pytest.mark.slow
def test_your_own_corpus_is_read_from_outside_the_outputs_and_never_deleted(tmp_path, shared, gutenberg_book):
    """split.corpus names a folder of one's own: split reads it as its dependency (no download), an edit makes split
    stale, and no `dvc repro` ever deletes it."""
    mine = tmp_path / "my-books"
    mine.mkdir()
    book = mine / "book.txt"
    book.write_bytes(gutenberg_book[1].encode("utf-8"))
    proj = _project(tmp_path, shared, download={"corpus": []}, split={"corpus": str(mine), "max_documents": None})
    res = _dvc(proj, "repro", "split", check=False)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    stats = json.loads((proj / "data/sentences/stats.json").read_text())
    assert stats["documents"] == 1 and stats["sentences"] > 100
    assert not (proj / "data/raw").exists()  # the download stage did not run: split does not need it
    assert _stale(proj, "split") == set()
    notes = mine / "notes.txt"  # a plain-text file joins the corpus
    notes.write_text("My own first sentence. And my second one.\n", encoding="utf-8")
    assert "split" in _stale(proj, "split")
    for _ in range(2):
        assert _dvc(proj, "repro", "split", check=False).returncode == 0
        assert notes.read_text(encoding="utf-8") == "My own first sentence. And my second one.\n"
        assert book.read_bytes() == gutenberg_book[1].encode("utf-8")
    after = json.loads((proj / "data/sentences/stats.json").read_text())
    assert after["documents"] == 2 and after["sentences"] == stats["sentences"] + 2


@pytest.mark.slow
def test_empty_corpus_stops_the_split_stage_with_a_clear_error(tmp_path, shared):
    proj = _project(tmp_path, shared)
    (proj / "data/raw/corpus").mkdir(parents=True)
    (proj / "data/raw/corpus/empty.txt").write_text("\n\n  \n")
    res = subprocess.run([sys.executable, "stages/split.py"], cwd=proj, capture_output=True, text=True)
    assert res.returncode == 1
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("error: empty corpus: no sentence in data/raw/corpus/empty.txt")
    assert not (proj / "data/sentences/sentences.txt").exists()


def _stages(proj: Path, *calls: tuple[str, ...]) -> list[subprocess.CompletedProcess]:
    """Run each stage script (its arguments) as a new process, two at a time (the machine's cores), in order."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda args: subprocess.run([sys.executable, *args], cwd=proj, capture_output=True,
                                                         text=True), calls))


def test_stage_errors_name_the_model_or_key(tmp_path, shared):
    proj = _project(tmp_path, shared)
    usage, nws = _stages(proj, ("stages/siamese_cbow.py",), ("stages/nws.py", "skip_thought"))
    assert usage.returncode == 2 and usage.stderr.strip() == "error: usage: python stages/siamese_cbow.py NAME"
    assert nws.returncode == 1
    assert nws.stderr.strip().startswith("error: unknown model 'skip_thought': Neural Word Salience models are named "
                                         "VECTORS-nws")
    params = yaml.safe_load((proj / "params.yaml").read_text())
    params["model"]["neg"] = 0
    params["model"]["optimiser"] = "sgd"
    (proj / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    scbow, fasttext, glove, tfidf, missing, transformer = _stages(
        proj, ("stages/siamese_cbow.py", "siamese_cbow"), ("stages/word2vec.py", "fasttext"),
        ("stages/word2vec.py", "glove"), ("stages/baseline.py", "glove", "tfidf"),
        ("stages/evaluate.py", "nonexistent"), ("stages/paraphrastic.py", "para-transformer"))
    assert scbow.returncode == 1 and "Traceback" not in scbow.stderr
    assert "model.neg: Input should be greater than 0 (got 0)" in scbow.stderr
    assert "model.optimiser: Extra inputs are not permitted" in scbow.stderr
    assert fasttext.returncode == 1
    assert "unknown word-vector model 'fasttext'; pretrain defines: word2vec-sg" in fasttext.stderr
    assert glove.returncode == 1 and "pretrain.glove.method: Input should be 'word2vec' (got 'glove')" in glove.stderr
    assert tfidf.returncode == 1 and "unknown weighting 'tfidf'" in tfidf.stderr
    assert missing.returncode == 1 and "models/nonexistent/config.json: missing model config" in missing.stderr
    assert transformer.returncode == 1 and ("unknown paraphrastic model 'para-transformer'; paraphrastic defines: "
                                            "paragram, para-avg") in transformer.stderr
    params["paraphrastic"]["para-gran"].update(encoder="transformer", scramble=1.5)
    (proj / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    gran, bert, pretrained, pairs = _stages(
        proj, ("stages/paraphrastic.py", "para-gran"), ("stages/supervise.py", "bert", "random"),
        ("stages/supervise.py", "gran", "pretrained"), ("stages/pairs.py",))  # pairs: nothing downloaded here
    assert gran.returncode == 1 and "Traceback" not in gran.stderr
    assert "paraphrastic.para-gran.encoder: Input should be 'avg', 'proj'" in gran.stderr
    assert "paraphrastic.para-gran.scramble: Input should be less than or equal to 1 (got 1.5)" in gran.stderr
    assert bert.returncode == 1
    assert "unknown supervised model 'bert'; supervised.models defines: avg, lstmavg, gran" in bert.stderr
    assert pretrained.returncode == 1
    assert "unknown setting 'pretrained' (random, initialised, universal)" in pretrained.stderr
    assert pairs.returncode == 1 and pairs.stderr.strip().splitlines()[-1].startswith("error: ")


def test_every_paraphrastic_setting_is_in_params_yaml():
    """`dvc exp run -S paraphrastic.NAME.KEY=V` can only override a key that params.yaml has (Hydra refuses new
    ones), so each model lists every setting its encoder reads."""
    sys.path.insert(0, str(ROOT / "stages"))
    from sentemb.paraphrastic.composition import ENCODER_ARGS

    from _paraphrastic import Paraphrastic

    params = yaml.safe_load((ROOT / "params.yaml").read_text())["paraphrastic"]
    encoder_keys = {k for keys in ENCODER_ARGS.values() for k in keys}
    for name, block in params.items():
        needed = set(Paraphrastic.model_fields) - encoder_keys | set(ENCODER_ARGS[block["encoder"]])
        assert needed <= set(block), f"paraphrastic.{name} lacks {sorted(needed - set(block))}"
