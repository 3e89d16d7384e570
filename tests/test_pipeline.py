"""The DVC pipeline itself, run as a user runs it: README's smoke look (`dvc exp run` with the smoke profile) on a
fresh project, once for the whole suite (the ``smoke`` fixture of conftest.py), then one test per thing it must do."""

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from xml.etree import ElementTree

from conftest import GIT_IDENTITY, dvc, make_project

import numpy as np
import pytest
import yaml
from gensim.models import KeyedVectors
from sentence_transformers import SentenceTransformer
from typer.testing import CliRunner

from sentemb import senteval
from sentemb.cli import app
from sentemb.core.models import load_model

ROOT = Path(__file__).resolve().parents[1]
OWN_VECTORS = ("word2vec-sg", "word2vec-cbow", "glove")  # pretrain's models: each trained and evaluated
VECTORS = ("glove", "word2vec-cbow")  # the vectors the smoke profile weights (NWS, ISF, SIF)
WEIGHTINGS = ("isf", "sif", "sif-pc-corpus", "usif")  # the smoke profile's
WEIGHTED = [f"{v}-{w}" for v in VECTORS for w in (*WEIGHTINGS, "nws")]
PARAPHRASTIC = ["para-avg", "para-proj", "para-dan", "para-lstm", "para-lstmavg", "para-gran"]
CONTROLS = ["untrained-1", "untrained-2", "untrained-frequent", "untrained-idf"]
AMOUNTS = ["siamese_cbow-lrsum1000"]
SCBOW_RUNS = ["siamese_cbow", "siamese_cbow-inbatch", *AMOUNTS, "siamese_cbow-neg1", "siamese_cbow-dim100",
              "siamese_cbow-seed2"]  # the smoke profile's: each kind of run, one of them under another seed
SUPERVISED = [f"{m}-{s}" for m in ("avg", "gran") for s in ("random", "initialised", "universal")]
SUPERVISED_SEEDS = [f"{m}-{s}-2" for m in ("avg", "gran") for s in ("random", "universal")]  # supervise-seed@
UP_TO_DATE = "Data and pipelines are up to date."


def _lock(proj: Path) -> bytes:
    return (proj / "dvc.lock").read_bytes()


def _stale(proj: Path, *targets: str) -> set[str]:
    """The stages `dvc status` lists as changed."""
    return set(json.loads(dvc(proj, "status", "--json", *targets).stdout))


def _lock_diff(before: bytes, after: bytes) -> str:
    """The first differing lines of two snapshots of the lock file, for an assertion message."""
    import difflib

    return "\n".join(list(difflib.unified_diff(before.decode().splitlines(), after.decode().splitlines(),
                                                lineterm="", n=8))[:60])


def _keys(obj) -> list[str]:
    """Every key of a nested JSON object."""
    if isinstance(obj, dict):
        return [k for key, value in obj.items() for k in (key, *_keys(value))]
    if isinstance(obj, list):
        return [k for value in obj for k in _keys(value)]
    return []


def _read(proj: Path, path: str):
    text = (proj / path).read_text(encoding="utf-8")
    return json.loads(text) if path.endswith(".json") else text


@pytest.mark.slow
def test_every_model_is_trained_and_evaluated(smoke):
    assert yaml.safe_load((smoke / "params.yaml").read_text())["split"]["max_documents"] == 4  # the profile applied
    ran = set(yaml.safe_load((smoke / "dvc.lock").read_text(encoding="utf-8"))["stages"])
    assert {s.split("@")[0] for s in dvc(ROOT, "stage", "list", "--name-only").stdout.split()} == {
        s.split("@")[0] for s in ran}  # every stage (group) of dvc.yaml ran
    assert {"siamese_cbow@siamese_cbow-inbatch", "control@untrained-frequent", "control@untrained-idf",
            "supervise@gran-universal"} <= ran
    corpus = _read(smoke, "metrics/corpus.json")
    assert corpus["documents"] == 8 and corpus["sentences"] > 1000 and 0.9 < corpus["token_coverage"] <= 1
    own = (*OWN_VECTORS, "siamese_cbow", "paragram", *CONTROLS, *AMOUNTS)
    for model in (*OWN_VECTORS, "siamese_cbow", *WEIGHTED, "paragram", *PARAPHRASTIC, *CONTROLS, *AMOUNTS):
        m = _read(smoke, f"metrics/models/{model}.json")
        assert set(m) == {"STS12", "STS16", "STS12-15", "NWS-18", "all", "pairs_without_known_word"} | (
            {"word_similarity"} if model in own else set()) | ({"oov"} if model in ("siamese_cbow", "word2vec-cbow")
                                                              else set())
        if model in own:
            assert set(m["word_similarity"]) == {"SimLex-999", "WordSim-353"}
        if "oov" in m:  # both treatments of unknown words
            assert set(m["oov"]) == {"drop", "random"} and m["oov"]["drop"]["STS12-15"] == m["STS12-15"]["pearson"]
        assert m["NWS-18"]["datasets"] == 4 and m["all"]["datasets"] == 10
        assert m["STS12"]["pairs"] == 3108 and m["STS16"]["pairs"] == 1186
        assert -100 <= m["STS12"]["pearson"] <= 100 and m["STS12-15"]["datasets"] == 5
        rows = _read(smoke, f"metrics/models/{model}.datasets.csv").splitlines()
        assert rows[0] == "group,dataset,set,pairs,pearson,spearman,no_known_word" and len(rows) == 11
        assert len(_read(smoke, f"results/{model}/pair_scores.tsv").splitlines()) == 3108 + 1186 + 1
        assert _read(smoke, f"results/{model}/model.json") == _read(smoke, f"models/{model}/config.json")
    for v in VECTORS:
        norms = _read(smoke, f"metrics/norms/{v}-nws.json")
        assert norms["Warriner valence"]["words"] > 100 and -1 <= norms["MRC concreteness"]["pearson"] <= 1
        weights = np.load(smoke / f"models/{v}-nws/weights.npy", allow_pickle=False)
        assert weights.dtype == np.float32 and weights.shape == (corpus["vocabulary"],)
    pairs = _read(smoke, "metrics/pairs.json")
    assert set(pairs["sources"]) == {"twitter-url", "msrp", "turkcorpus"} and pairs["ppdb_lexical_pairs"] == 300
    assert all(s["positives"] == 300 for s in pairs["sources"].values()) and pairs["total"]["kept"] > 500
    assert pairs["sources"]["msrp"]["evaluation_overlap"] > 0  # STS 2012 MSRpar is drawn from MSRP
    split = _read(smoke, "metrics/supervised-data.json")
    assert split["sts"]["train"] == {"pairs": 4541, "sets": 19} and split["sick"]["test"] == {"pairs": 4927, "sets": 1}
    assert split["test_sentences_in_training_pairs"] == 0
    for name in SUPERVISED:
        got = _read(smoke, f"metrics/supervised/{name}.json")
        assert got["sts"]["train"] == got["sick"]["test_pairs"] == 150 and -100 <= got["sick"]["test"] <= 100
        assert len(_read(smoke, f"results/supervised/{name}/sts_test.tsv").splitlines()) == 151


@pytest.mark.slow
def test_training_logs_and_learning_curves(smoke):
    curve = _read(smoke, "metrics/train/glove.csv").splitlines()
    assert curve[0] == "epoch,cost,SimLex-999,WordSim-353" and len(curve) == 2  # one epoch in this slice
    log = _read(smoke, "metrics/train/siamese_cbow.csv").splitlines()
    assert log[0] == "step,epoch,sentences,loss,lr" and len(log) > 2
    info = _read(smoke, "models/siamese_cbow-inbatch/config.json")["info"]["training"]
    assert info["config"]["negatives"] == "batch" and info["fit"] == "torch"  # the profile's AdaGrad: torch's fit
    for model in PARAPHRASTIC:
        log = _read(smoke, f"metrics/train/{model}.csv").splitlines()
        assert log[0] == "step,epoch,pairs_seen,loss,STS16,GRAN-22,STS12-15" and len(log) == 3
    assert _read(smoke, "metrics/train/paragram.csv").splitlines()[0] == (
        "step,epoch,pairs_seen,loss,SimLex-999,WordSim-353")
    for name in SUPERVISED:
        assert _read(smoke, f"metrics/train/supervised/{name}-sick.csv").startswith("step,epoch,loss,dev,test")


@pytest.mark.slow
def test_a_report_per_paper_with_its_claims(smoke):
    kenter = _read(smoke, "reports/kenter2016.md")
    assert "| STS12 | MSRpar |" in kenter and "19 sets in both" not in kenter  # only 5 of Kenter's sets evaluated
    for section in ("## Williams' test", "## Unknown words", "## Controls", "## Training amount",
                    "## In-batch negatives", "## Negatives and dimensions", "## Claims of Kenter et al."):
        assert section in kenter, section
    assert "Siamese CBOW beats averaged word2vec CBOW vectors" in kenter and "over 5 datasets" in kenter
    assert "(Table 1, paper: 46.93 vs 43.13 over its 19 sets other than 2013 SMT)" in kenter  # from reference/
    curve = _read(smoke, "reports/kenter2016_training_amount.csv").splitlines()
    assert curve[0] == "model,optimizer,lr_sum,STS12-15" and len(curve) == 4  # untrained, Σ lr 67, Σ lr 1000
    last = curve[-1].split(",")
    assert curve[1].startswith("untrained-1,none,0.0,") and last[:2] == ["siamese_cbow-lrsum1000", "sgd"]
    assert float(last[2]) == pytest.approx(1000.0, rel=1e-6)  # the summed rate the optimizer really stepped with
    nws = _read(smoke, "reports/bollegala2018.md")
    assert "| STS12 | SMTnews |" in nws and "the paper's 4 sets" in nws and "| glove |" in nws
    assert "## Claims of Bollegala et al." in nws
    assert "NWS over GloVe beats SMOOTH over GloVe (Table 1, paper: 57.5 vs 55.1)" in nws
    assert "with MRC concreteness (Table 3, paper: r = 0.26)" in nws
    assert "NWS over GloVe beats NWS over CBOW (Table 2, paper: 57.53 vs 55.93 over the 18 sets)" in nws
    paragram = _read(smoke, "reports/wieting2016.md")
    assert "| LSTM | `para-lstm` | word dropout, scrambling | MIX |" in paragram and "Only 5 of the sets" in paragram
    assert "Paragram-phrase AVG beats the LSTM in transfer (§4.1, paper:" in paragram
    wieting = _read(smoke, "reports/wieting2017.md")
    assert "| LSTMAVG | `para-lstmavg` | dropout, scrambling |" in wieting and "Only 5 of the sets" in wieting
    assert ("GRAN beats AVG in transfer (Tables 1-3, paper: GRAN (dropout, scrambling) 68.9 vs AVG (none) 68.4, "
            "test mode)") in wieting
    assert "| GRAN | universal | dropout, scrambling, universal |" in wieting and "### Table 5 layout" in wieting
    for paper, text in (("kenter2016", kenter), ("bollegala2018", nws), ("wieting2016", paragram),
                        ("wieting2017", wieting)):  # figures as SVG files beside the report, linked from it
        links = re.findall(r"!\[[^]]+\]\((figures/[^)]+)\)", text)
        assert links and {f"figures/{paper}/{p.name}" for p in (smoke / "reports/figures" / paper).iterdir()} == set(
            links), paper
        for link in links:
            svg = ElementTree.parse(smoke / "reports" / link).getroot()  # an image that loads nothing else
            assert svg.tag == "{http://www.w3.org/2000/svg}svg", link
            assert not [e.tag for e in svg.iter() if e.tag.endswith(("}image", "}script"))], link
    assert "initialising from and regularising to the transfer model beats random initialisation" in wieting
    # Table 8's random row is the mean over the run's seeds, the Williams test's r B its seed-1 run (both from the
    # full-precision predictions in reports/inputs)
    from sentemb.reporting.wieting2017 import test_r
    from sentemb.reporting.workspace import Workspace

    ws = Workspace(smoke)
    runs = ws.supervised_seeds("gran-random")
    random_sts = next(line.split(" | ")[3] for line in wieting.splitlines()
                      if line.startswith("| GRAN | random | dropout, scrambling |"))
    williams_b = next(line.split(" | ")[6] for line in wieting.splitlines()
                      if line.startswith("| GRAN | universal | random | STS |"))
    assert runs == ["gran-random", "gran-random-seed2"]
    assert float(random_sts) == pytest.approx(np.mean([test_r(ws, r, "sts") for r in runs]), abs=0.005)
    assert float(williams_b) == pytest.approx(test_r(ws, "gran-random", "sts"), abs=0.005)


@pytest.mark.slow
def test_each_report_renders_its_claims_ledger(smoke):
    """metrics/claims/PAPER.json: every claim with its record; the p-values adjusted by Holm over the paper's
    testable claims; each verdict consistent with its code; the report's claims list is the ledger, line for line;
    the headline carries each testable claim's code."""
    from sentemb.reporting.claims import VERDICT_CODES, claims_markdown, holm, judge, seeds_agree

    headline = _read(smoke, "metrics/headline.json")
    fields = {"key", "source", "claim", "paper", "evidence", "expects", "effect", "ci95", "p", "test", "seeds",
              "reason", "p_holm", "verdict", "verdict_code", "paper_effect", "paper_effect_in_ci95", "margin",
              "p_equivalence", "p_holm_equivalence", "seed_effects", "seeds_agree"}
    total, seeded = 0, []
    for paper in ("kenter2016", "bollegala2018", "wieting2016", "wieting2017"):
        ledger = _read(smoke, f"metrics/claims/{paper}.json")
        claims = ledger["claims"]
        assert ledger["paper"] == paper and claims and all(set(c) == fields for c in claims), paper
        testable = [c for c in claims if c["p"] is not None]
        family = [(c, f) for c in testable for f in ("p", "p_equivalence") if c[f] is not None]  # a level claim: two
        assert [c[f.replace("p", "p_holm", 1)] for c, f in family] == pytest.approx(holm([c[f] for c, f in family]))
        for c in claims:
            assert c["verdict_code"] == VERDICT_CODES[c["verdict"]], c["key"]
            if c["p"] is not None:
                verdict = judge(c["expects"], c["effect"], c["p_holm"], ledger["alpha"], c["p_holm_equivalence"])
                agree = seeds_agree(verdict, c["expects"], c["effect"], c["seed_effects"], c["margin"])
                assert c["seeds_agree"] == agree and c["verdict"] == (verdict if agree else "inconclusive"), c["key"]
                assert c["seeds"] and all(runs for runs in c["seeds"].values()), c["key"]  # every model's runs
                seeded += [c["key"] for runs in c["seeds"].values() if len(runs) > 1]
                assert c["ci95"] is None or c["ci95"][0] <= c["effect"] <= c["ci95"][1], c["key"]
                assert (c["expects"] == "level") == (c["p_equivalence"] is not None), c["key"]
            if c["paper_effect_in_ci95"] is not None:
                low, high = c["ci95"]
                assert c["paper_effect_in_ci95"] == (low <= c["paper_effect"] <= high), c["key"]
        report = _read(smoke, f"reports/{paper}.md")
        assert [line for line in report.splitlines() if line.startswith("- **")] == claims_markdown(
            claims).splitlines(), paper
        assert headline[f"claims/{paper}"] == {c["key"]: c["verdict_code"] for c in testable}
        total += len(claims)
    assert total >= 55  # the smoke run builds every model a claim needs but SGNS's NWS and the Σ lr curve's first
    # epoch (Table 2's and Table 3's SGNS claims, Figure 2's stability)
    # siamese_cbow and the supervised runs of random and universal have a second seed here: their claims rest on both
    assert {"siamese_cbow-beats-cbow", "avg-universal-beats-random-sts", "gran-beats-avg-supervised-sick"} <= set(
        seeded)


@pytest.mark.slow
def test_the_reports_change_on_a_clone_without_the_cache(smoke_copy):
    """The reports and the headline read only what git holds (metrics/, reports/inputs/, reference/): with the DVC
    cache, models/, results/ and data/ gone, as on a fresh clone, each reruns to the same bytes and the same lock
    entries; reports/inputs/ holds records and per-pair files, no model."""
    import shutil

    lock = yaml.safe_load((smoke_copy / "dvc.lock").read_text(encoding="utf-8"))["stages"]
    reports = ["report-kenter2016", "report-bollegala2018", "report-wieting2016", "report-wieting2017", "headline"]
    outputs = {p: p.read_bytes() for p in (*(smoke_copy / "reports").rglob("*"), *(smoke_copy / "metrics").rglob(
        "*.json")) if p.is_file()}
    for folder in (".dvc/cache", "models", "results", "data"):
        shutil.rmtree(smoke_copy / folder)
    assert sum(p.stat().st_size for p in (smoke_copy / "reports/inputs").rglob("*") if p.is_file()) < 2_000_000
    dvc(smoke_copy, "repro", "--force", "--single-item", *reports)
    assert {p: p.read_bytes() for p in outputs} == outputs
    after = yaml.safe_load((smoke_copy / "dvc.lock").read_text(encoding="utf-8"))["stages"]
    assert {s: after[s] for s in reports} == {s: lock[s] for s in reports}


@pytest.mark.slow
def test_the_harness_table_scores_every_model_under_each_convention(smoke):
    """The harness stages: on the raw text the per-set mean is the evaluation's own figure; SentEval's tokens change
    the text each model reads; the report lists every evaluated model and each teacher beside its static student;
    no output holds a clock reading."""
    import pandas as pd

    frame = pd.concat([pd.read_csv(p) for p in sorted((smoke / "metrics" / "harness").glob("*.csv"))])
    evaluated = {p.name.removesuffix(".json") for p in (smoke / "metrics" / "models").glob("*.json")}
    assert set(frame["model"]) == evaluated and set(frame["year"]) == {"STS12", "STS16"}
    raw = frame[frame["text"] == "raw"].set_index(["model", "year"])
    for (model, year), row in raw.iterrows():
        metric = _read(smoke, f"metrics/models/{model}.json")[year]["pearson"]
        assert abs(row["mean"] - metric) <= 0.005 + 1e-9, (model, year)  # the metric is rounded to 2 decimals
    moses = frame[frame["text"] == "senteval"].set_index(["model", "year"])
    assert (moses["mean"] != raw["mean"]).any() and (raw["no_known_word"] > 0).any()  # the slice's small vocabulary
    report = _read(smoke, "reports/harness.md")
    assert all(f"| `{m}` |" in report for m in evaluated) and "MTEB's main STS score" in report
    teachers = [m for m in evaluated if f"{m}-static" in evaluated]
    assert teachers and all(f"| {m} |" in report for m in teachers)  # each teacher beside its student
    assert not (smoke / "metrics" / "speed").exists()  # no clock reading among the outputs


@pytest.mark.slow
def test_the_headline_is_the_one_metrics_file(smoke):
    """Two means per evaluated model and the test r of every supervised run; nothing wider for `dvc metrics`."""
    headline = _read(smoke, "metrics/headline.json")
    models = {p.stem for p in (smoke / "metrics/models").glob("*.json")} - {"siamese_cbow-seed2"}  # a seed: one row
    papers = ("kenter2016", "bollegala2018", "wieting2016", "wieting2017")
    assert set(headline) == models | {f"supervised/{n}" for n in SUPERVISED} | {f"claims/{p}" for p in papers}
    assert set(headline["glove"]) == {"STS12-15", "all"} and set(headline["supervised/gran-initialised"]) == {
        "sts", "sick"}
    seeds = [_read(smoke, f"metrics/models/{m}.json")["STS12-15"]["pearson"] for m in ("siamese_cbow",
                                                                                      "siamese_cbow-seed2")]
    assert headline["siamese_cbow"] == pytest.approx({"STS12-15": np.mean(seeds), "STS12-15 sd": np.std(seeds, ddof=1),
                                                      "all": headline["siamese_cbow"]["all"],
                                                      "all sd": headline["siamese_cbow"]["all sd"], "seeds": 2},
                                                     abs=1e-4)
    assert set(headline["supervised/gran-random"]) == {"sts", "sick", "sts sd", "sick sd", "seeds"}
    shown = dvc(smoke, "metrics", "show", "--json").stdout
    assert next(iter(json.loads(shown).values()))["data"].keys() == {"metrics/headline.json"}
    assert dvc(smoke, "status").stdout.strip() == UP_TO_DATE


@pytest.mark.slow
def test_cli_latency_times_the_evaluate_stages_outside_the_workspace(smoke):
    """``benchmarks/cli_latency.py --evaluate`` times each model's evaluate@ stage, the script of the interpreter's
    own checkout, in a scratch folder: a row per model, and the workspace's outputs untouched."""
    written = smoke / "metrics/models/glove.json"
    before = written.stat().st_mtime_ns
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks/cli_latency.py"), "--evaluate", "models/glove",
                          "models/para-avg", "--rounds", "1"], cwd=smoke, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    rows = [line.split("|")[2].strip() for line in res.stdout.splitlines() if "| evaluate@" in line]
    assert rows == ["evaluate@glove", "evaluate@para-avg"]
    assert written.stat().st_mtime_ns == before
    assert dvc(smoke, "status").stdout.strip() == UP_TO_DATE


@pytest.mark.slow
def test_every_evaluated_model_has_its_card(smoke):
    """cards/NAME.md for each model of metrics/models/, in the Hub's card format: its model-index holds the model's
    scores as metrics/ has them; a model that fits its components per evaluation set says it is not exported."""
    models = {p.stem for p in (smoke / "metrics/models").glob("*.json")}
    assert {p.stem for p in (smoke / "cards").glob("*.md")} == models
    for name in ("glove-sif-pc-corpus", "para-gran", "glove-usif"):
        card = _read(smoke, f"cards/{name}.md")
        front = yaml.safe_load(card.split("---\n")[1])
        scores = _read(smoke, f"metrics/models/{name}.json")
        index = {r["dataset"]["name"]: {m["type"]: m["value"] for m in r["metrics"]}
                 for r in front["model-index"][0]["results"]}
        assert index and index == {k: {"pearson": scores[k]["pearson"], "spearmanr": scores[k]["spearman"]}
                                   for k in index}, name
        assert f'load_model("models/{name}")' in card
        assert ("not exported to sentence-transformers" in card) == name.endswith("usif"), name


@pytest.mark.slow
def test_clock_readings_stay_out_of_the_hashed_outputs(smoke):
    for name in ("glove", "word2vec-sg", "siamese_cbow", "glove-nws", "para-gran", "supervised/gran-random"):
        assert json.loads((smoke / f"logs/timings/{name}.json").read_text()), name
    for model in ("glove", "word2vec-sg", "siamese_cbow", "glove-nws", "para-gran"):
        assert not any(k.endswith(("seconds", "_second")) for k in _keys(_read(smoke, f"models/{model}/config.json")))


@pytest.mark.slow
def test_the_slices_models_in_the_cli_and_senteval(smoke, tmp_path):
    """The slice's models used as a researcher would: sentemb embed / nearest / nearest-words / export, SentEval."""
    corpus = _read(smoke, "metrics/corpus.json")
    text = tmp_path / "sentences.txt"
    text.write_text("a man is playing a guitar .\nthe dog runs in the park .\nzzzzqx\n", encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["embed", str(smoke / "models/para-gran"), str(text), "-o", str(tmp_path / "e.npy")])
    assert res.exit_code == 0 and np.load(tmp_path / "e.npy").shape == (3, 16), res.output
    res = runner.invoke(app, ["nearest", str(smoke / "models/siamese_cbow"), "a man is playing a guitar .",
                              "--corpus", str(text), "-k", "2"])
    assert res.exit_code == 0 and res.stdout.splitlines()[0].startswith("1.0000\t1\t"), res.output
    res = runner.invoke(app, ["nearest-words", str(smoke / "models/word2vec-cbow"), "the", "-k", "3"])
    assert res.exit_code == 0 and len(res.stdout.splitlines()) == 3, res.output
    res = runner.invoke(app, ["export", str(smoke / "models/glove-nws"), str(tmp_path / "nws.txt")])
    assert res.exit_code == 0 and "baked in" in res.stdout, res.output
    assert len(KeyedVectors.load_word2vec_format(str(tmp_path / "nws.txt"))) == corpus["vocabulary"]
    res = runner.invoke(app, ["export", "--format", "model2vec", str(smoke / "models/para-gran-static"),
                              str(tmp_path / "m2v")])  # README's command on the slice's student
    assert res.exit_code == 0, res.output
    static = SentenceTransformer(str(tmp_path / "m2v"), device="cpu")  # StaticEmbedding: no code of ours
    student = load_model(smoke / "models/para-gran-static")
    assert static.encode(["a man is playing a guitar ."]).shape == (1, student.dim)
    params = {"sentemb_model": str(smoke / "models/para-lstmavg")}
    senteval.prepare(params, [])
    assert senteval.batcher(params, [["a", "man"], []]).shape == (2, 16)


@pytest.mark.slow
def test_the_gpu_loan_script_runs_the_stages_commands_as_dvc_does(smoke, tmp_path):
    """``benchmarks/gpu_stages.py run`` on the CPU, as ``prepare --cpu`` runs it, in a copy of the checkout over a
    bundle of the slice's inputs: a stage's command gives the metrics DVC's run of it gave, a plan line's time limit
    stops its command, a line asked to be skipped is recorded so, the NCCL probe's arithmetic (run with Gloo) averages
    the processes' gradients to the whole batch's, and ``table`` sets two summaries side by side."""
    import shutil
    import tarfile

    from helpers import script_module

    gpu_stages = script_module("benchmarks/gpu_stages.py")
    checkout = tmp_path / "checkout"
    for item in ("stages", "src", "benchmarks"):
        shutil.copytree(ROOT / item, checkout / item, ignore=shutil.ignore_patterns("__pycache__"))
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    with tarfile.open(bundle / "data.tar.xz", "w:xz") as tar:
        for path in gpu_stages.DATA:
            tar.add(smoke / path, arcname=path)
    (bundle / "plan.tsv").write_text(
        "evaluate@glove\tpython stages/evaluate.py glove\n"
        "stopped\tsleep 60\t2\n"
        "left-out\tsleep 60\n"
        "nccl\tpython -m torch.distributed.run --standalone --nproc_per_node=2 benchmarks/gpu_stages.py nccl "
        "--backend gloo\n")
    out = tmp_path / "out"
    script = str(checkout / "benchmarks/gpu_stages.py")
    res = subprocess.run([sys.executable, script, "run", str(bundle), "--out", str(out), "--deadline", "300",
                          "--no-site", "--skip", "left-out"], capture_output=True, text=True)  # as prepare --cpu
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    stages = {row["stage"]: row for row in json.loads((out / "summary.json").read_text())["stages"]}
    assert [stages[k]["rc"] for k in ("evaluate@glove", "stopped", "nccl")] == [0, "timeout", 0], stages
    assert stages["stopped"]["wall_seconds"] < 10 and stages["left-out"]["skipped"] == "asked"
    table = subprocess.run([sys.executable, script, "table", str(out), str(out)], capture_output=True, text=True)
    assert re.search(r"^\| evaluate@glove \| [\d.]+ s \| [\d.]+ s \| 1\.00× \|", table.stdout, re.M), table.stdout
    with tarfile.open(out / "results.tar.gz") as tar:
        metrics = json.load(tar.extractfile("metrics/models/glove.json"))
        probe = json.load(tar.extractfile("logs/bench/nccl.json"))
    assert metrics == _read(smoke, "metrics/models/glove.json")
    assert probe["ok"] and probe["world_size"] == 2, probe
    assert probe["max_abs_difference"] <= 1e-6 * probe["gradient_max_abs"], probe


TRAINERS = ["split", "vocab", "pairs", "word2vec", "glove", "siamese_cbow@siamese_cbow",
            "siamese_cbow@siamese_cbow-inbatch", "nws@glove", "paraphrastic@paragram", "paraphrastic@para-lstmavg",
            "paraphrastic@para-gran", "student@para-gran", "supervised-data", "supervise@gran-universal",
            "report-kenter2016", "report-wieting2017"]


@pytest.mark.slow
def test_every_kind_of_trainer_reruns_to_the_same_bytes(smoke_copy):
    lock = _lock(smoke_copy)
    dvc(smoke_copy, "repro", "--force", "--single-item", *TRAINERS)  # one DVC process: each stage alone, in this order
    assert _lock(smoke_copy) == lock, _lock_diff(lock, _lock(smoke_copy))


@pytest.mark.slow
def test_a_killed_stage_leaves_no_output_is_stale_and_comes_back(smoke_copy):
    """A training stage killed mid-run (the whole process group, SIGKILL) leaves no output, is stale, and `dvc repro`
    brings back the same outputs (from DVC's run cache: its retraining to the same bytes is the forced rerun test)."""
    lock = _lock(smoke_copy)
    kill = subprocess.Popen([sys.executable, "-m", "dvc", "repro", "--force", "--single-item",
                             "paraphrastic@para-lstmavg"], cwd=smoke_copy, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while (smoke_copy / "models/para-lstmavg").exists() and time.monotonic() < deadline and kill.poll() is None:
        time.sleep(0.05)  # DVC removes the stage's outputs before it starts the command
    time.sleep(1.0)       # the command is now importing or training
    assert kill.poll() is None, "the stage finished before it could be killed"
    os.killpg(kill.pid, signal.SIGKILL)
    kill.wait()
    assert not (smoke_copy / "models/para-lstmavg/config.json").exists()
    assert "paraphrastic@para-lstmavg" in _stale(smoke_copy)
    dvc(smoke_copy, "repro")
    assert _lock(smoke_copy) == lock


@pytest.mark.slow
def test_data_parallel_siamese_cbow(smoke_copy):
    """`-S model.processes=2` runs the stage as 2 Gloo processes under torchrun."""
    params_before = (smoke_copy / "params.yaml").read_text()
    lock = _lock(smoke_copy)
    params = yaml.safe_load(params_before)
    params["model"]["processes"] = 2
    (smoke_copy / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    try:
        res = dvc(smoke_copy, "repro", "--single-item", "siamese_cbow@siamese_cbow", check=False)
        assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
        info = _read(smoke_copy, "models/siamese_cbow/config.json")["info"]["training"]
        assert info["device"] == "cpu × 2 processes" and info["tuples"] > 1000
    finally:
        (smoke_copy / "params.yaml").write_text(params_before)
        dvc(smoke_copy, "repro", "--single-item", "siamese_cbow@siamese_cbow")  # restored from the run cache
    assert _lock(smoke_copy) == lock


@pytest.mark.slow
def test_a_params_change_stales_exactly_the_stages_that_read_it(smoke_copy):
    """The number of negatives touches the Siamese CBOW training stages alone (the amount curve's read `model` too);
    NWS's rate the NWS stages; GRAN-3 the GRAN model, its supervised stages and the report that names it."""
    params_before = (smoke_copy / "params.yaml").read_text()
    params = yaml.safe_load(params_before)
    params["model"]["neg"] = 5
    params["nws"]["lr"] = 0.1
    params["paraphrastic"]["para-gran"]["variant"] = 3  # GRAN-3, by a params switch
    (smoke_copy / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    try:
        changed = _stale(smoke_copy)
    finally:
        (smoke_copy / "params.yaml").write_text(params_before)
    scbow = {f"siamese_cbow@{m}" for m in SCBOW_RUNS}
    assert changed == {*scbow, *(f"nws@{v}" for v in VECTORS), "paraphrastic@para-gran",
                       *(f"supervise@gran-{s}" for s in ("random", "initialised", "universal")),
                       *(f"supervise-seed@{n}" for n in SUPERVISED_SEEDS if n.startswith("gran"))}
    assert dvc(smoke_copy, "status").stdout.strip() == UP_TO_DATE


@pytest.mark.slow
def test_a_code_change_stales_exactly_its_familys_stages(smoke_copy):
    """Code dependencies by folder: an edit to one family's package makes exactly the stages that run it stale."""
    scbow = {f"siamese_cbow@{m}" for m in SCBOW_RUNS}
    salience = {*(f"nws@{v}" for v in VECTORS), *(f"baseline@{v}-{w}" for v in VECTORS for w in WEIGHTINGS),
                *(f"evaluate-salience@{m}" for m in WEIGHTED if not m.endswith("-nws")),
                *(f"evaluate-nws@{v}" for v in VECTORS), *(f"norms@{v}" for v in VECTORS)}
    touched = {
        "src/sentemb/siamese_cbow/encoder.py": {*scbow, *(f"control@{c}" for c in CONTROLS)},
        "src/sentemb/salience/weighting.py": {*salience, "harness-weighted_average"},
        "src/sentemb/paraphrastic/composition.py": {*(f"{group}@{m}" for m in ("paragram", *PARAPHRASTIC)
                                                      for group in ("paraphrastic", "evaluate-paraphrastic",
                                                                    "student")),
                                                    *(f"supervise@{n}" for n in SUPERVISED),
                                                    *(f"supervise-seed@{n}" for n in SUPERVISED_SEEDS),
                                                    "harness-paraphrastic"},
        "src/sentemb/distillation/static_student.py": {f"student@{m}" for m in ("paragram", *PARAPHRASTIC)},
        "src/sentemb/wordvectors/glove.py": {"word2vec", "glove"},
        "src/sentemb/reporting/inputs.py": {"report-inputs", "report-kenter2016", "report-bollegala2018",
                                            "report-wieting2016", "report-wieting2017", "headline", "report-harness",
                                            "senteval-tokens", "cards",
                                            *(f"harness-{t}" for t in ("word_average", "weighted_average",
                                                                       "paraphrastic"))},
        "src/sentemb/reporting/claims.py": {"report-kenter2016", "report-bollegala2018", "report-wieting2016",
                                            "report-wieting2017", "headline", "report-harness", "senteval-tokens",
                                            "cards",
                                            *(f"harness-{t}" for t in ("word_average", "weighted_average",
                                                                       "paraphrastic"))},
    }
    for path, expected in touched.items():
        original = (smoke_copy / path).read_text()
        (smoke_copy / path).write_text(original + "\n# an edit\n")
        try:
            assert _stale(smoke_copy) == expected, path
        finally:
            (smoke_copy / path).write_text(original)
    assert dvc(smoke_copy, "status").stdout.strip() == UP_TO_DATE


@pytest.mark.slow
def test_your_own_corpus_is_read_from_outside_the_outputs_and_never_deleted(tmp_path, shared, gutenberg_book):
    """split.corpus names a folder of one's own: split reads it as its dependency (no download), an edit makes split
    stale, and no `dvc repro` ever deletes it."""
    mine = tmp_path / "my-books"
    mine.mkdir()
    book = mine / "book.txt"
    book.write_bytes(gutenberg_book[1].encode("utf-8"))
    proj = make_project(tmp_path, shared, download={"corpus": []}, split={"corpus": str(mine), "max_documents": None})
    res = dvc(proj, "repro", "split", check=False)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    stats = json.loads((proj / "data/sentences/stats.json").read_text())
    assert stats["documents"] == 1 and stats["sentences"] > 100
    assert not (proj / "data/raw").exists()  # the download stage did not run: split does not need it
    assert _stale(proj, "split") == set()
    notes = mine / "notes.txt"  # a plain-text file joins the corpus
    notes.write_text("My own first sentence. And my second one.\n", encoding="utf-8")
    assert "split" in _stale(proj, "split")
    for _ in range(2):
        assert dvc(proj, "repro", "split", check=False).returncode == 0
        assert notes.read_text(encoding="utf-8") == "My own first sentence. And my second one.\n"
        assert book.read_bytes() == gutenberg_book[1].encode("utf-8")
    after = json.loads((proj / "data/sentences/stats.json").read_text())
    assert after["documents"] == 2 and after["sentences"] == stats["sentences"] + 2


@pytest.mark.slow
def test_empty_corpus_stops_the_split_stage_with_a_clear_error(tmp_path, shared):
    proj = make_project(tmp_path, shared)
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
    proj = make_project(tmp_path, shared)
    usage, nws = _stages(proj, ("stages/siamese_cbow.py",), ("stages/nws.py", "skip_thought"))
    assert usage.returncode == 2 and usage.stderr.strip() == "error: usage: python stages/siamese_cbow.py NAME"
    usage = _stages(proj, ("stages/word2vec.py",))[0]  # a stage of one name or more, given none
    assert usage.returncode == 2 and usage.stderr.strip() == "error: usage: python stages/word2vec.py NAMES [...]"
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
    assert missing.returncode == 1 and "models/nonexistent: missing model directory" in missing.stderr
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
    assert "unknown model 'bert' or setting 'random' (supervised.models defines: avg, gran" in bert.stderr
    assert pretrained.returncode == 1
    assert "settings: random, initialised, universal, each optionally with -seedS, S ≥ 2)" in pretrained.stderr
    assert pairs.returncode == 1 and pairs.stderr.strip().splitlines()[-1].startswith("error: ")


def _readme_block(containing: str) -> list[str]:
    """The commands of README's code block that holds ``containing``, comments stripped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(b for b in text.split("```")[1::2] if containing in b)
    return [line.split("  #")[0].strip() for line in block.strip().splitlines() if line.strip()]


def test_the_quick_look_builds_every_family_and_reports_only_what_it_built(tmp_path):
    """profiles/quick.yaml narrows the stage groups, not the families: with it applied, DVC's own resolution of
    dvc.yaml lists every paper's trainers, evaluations and report, and each report's params name only models that
    the narrowed pipeline builds."""
    from conftest import apply_profile

    params = apply_profile(yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8")), "quick")
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    (tmp_path / "dvc.yaml").write_bytes((ROOT / "dvc.yaml").read_bytes())
    dvc(tmp_path, "init", "--no-scm")
    stages = set(dvc(tmp_path, "stage", "list", "--name-only").stdout.split())
    full = set(dvc(ROOT, "stage", "list", "--name-only").stdout.split())
    assert stages < full and len(stages) <= len(full) // 2, len(stages)
    built = {s.split("@")[1] for s in stages if s.startswith(("control@", "siamese_cbow@", "paraphrastic@"))}
    built |= {"word2vec-sg", "word2vec-cbow"} if "word2vec" in stages else set()
    built |= {"glove"} & stages
    for family in ("word2vec", "glove", "siamese_cbow@siamese_cbow", "nws@glove", "baseline@glove-sif-pc",
                   "norms@glove", "paraphrastic@para-avg", "paraphrastic@para-gran", "supervise@avg-random",
                   "evaluate-nws@glove", "evaluate-paraphrastic@para-gran", "headline"):
        assert family in stages, family
    assert {f"report-{paper}" for paper in params["report"]} <= stages
    # README runs the quick look up to `headline`: every family and every report is upstream of it
    dot = dvc(tmp_path, "dag", "--dot", "headline").stdout
    upstream = {line.strip().strip(";").strip('"') for line in dot.splitlines() if "->" not in line and '"' in line}
    assert {"word2vec", "glove", "siamese_cbow@siamese_cbow", "nws@glove", "paraphrastic@para-gran",
            "supervise@avg-random", "evaluate-paraphrastic@para-gran"} | {f"report-{p}" for p in params["report"]} \
        <= upstream, upstream
    assert "cards" not in upstream and not any(s.startswith("harness-") for s in upstream)
    kenter, bollegala, wieting2016, wieting2017 = (params["report"][paper] for paper in
                                                   ("kenter2016", "bollegala2018", "wieting2016", "wieting2017"))
    named = {*kenter["models"], *kenter["controls"], *kenter["training_amount"], kenter["in_batch"],
             *bollegala["vectors"], *wieting2016["models"], *wieting2016["baselines"], *wieting2017["models"],
             *wieting2017["baselines"]} - {None}
    assert named <= built, named - built


@pytest.mark.slow
def test_readme_review_commands_fit_a_terminal(smoke_copy):
    """README's example experiment and review commands, run as printed on a copy of the smoke run, committed: each
    review prints at most 120 columns and names the changed param and the metrics that moved."""
    experiment, *review = _readme_block("dvc exp run -S model.neg=5")
    assert experiment == "dvc exp run -S model.neg=5" and review
    env = os.environ | GIT_IDENTITY | {"PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
                                      "COLUMNS": "120"}

    def bash(command: str) -> str:
        res = subprocess.run(["bash", "-c", command], cwd=smoke_copy, env=env, capture_output=True, text=True)
        assert res.returncode == 0, f"{command}: {res.stdout[-2000:]} {res.stderr[-2000:]}"
        return res.stdout

    bash("git add -A && git commit -qm 'the smoke run'")
    head = bash("git rev-parse HEAD").strip()
    try:
        bash(experiment)
        for command in review:
            out = bash(command)
            widest = max(map(len, out.splitlines()))
            assert widest <= 120, f"{command}: {widest} columns\n{out}"
            assert "model.neg" in out and "siamese_cbow.STS12-15" in out, f"{command}:\n{out}"
    finally:
        bash(f"git reset -q --hard {head} && {shlex.quote(sys.executable)} -m dvc checkout -q --force")
    assert dvc(smoke_copy, "status").stdout.strip() == UP_TO_DATE
