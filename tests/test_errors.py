"""Bad input gives one line naming the file and line, or the option, and never a traceback or a silent result
(issue 13, item 6): every benchmark reader, the CLI and the stage params."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from sentemb.core.data.benchmarks import read_pit2015, read_sick, read_sts_pairs, read_stsb
from sentemb.core.errors import SentembError

ROOT = Path(__file__).resolve().parents[1]
SICK_HEADER = "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"


def _sts(tmp_path: Path, inputs: bytes, gold: bytes):
    (tmp_path / "in.txt").write_bytes(inputs)
    (tmp_path / "gs.txt").write_bytes(gold)
    return read_sts_pairs(tmp_path / "in.txt", tmp_path / "gs.txt", "STS12", "MSRpar")


def _sick(tmp_path: Path, score: str):
    (tmp_path / "sick.txt").write_text(SICK_HEADER + f"1\ta man\ta woman\t{score}\tNEUTRAL\n", encoding="utf-8")
    return read_sick(tmp_path / "sick.txt")


def _stsb(tmp_path: Path, score: str):
    (tmp_path / "sts-dev.csv").write_text(f"main-captions\tMSRvid\t2012test\t0001\t{score}\ta man\ta woman\n",
                                          encoding="utf-8")
    return read_stsb(tmp_path / "sts-dev.csv", "dev")


def _pit(tmp_path: Path, score: str):
    (tmp_path / "test.data").write_text("4\tTopic\ta man\ta woman\t(1, 4)\ttags\ttags\n", encoding="utf-8")
    (tmp_path / "test.label").write_text(f"false\t{score}\n", encoding="utf-8")
    return read_pit2015(tmp_path / "test.data", tmp_path / "test.label")


READERS = {
    "STS input not UTF-8": (lambda t: _sts(t, b"a man\ta caf\xe9\n", b"3.0\n"), r"in\.txt:1: not UTF-8"),
    "STS gold not UTF-8 on line 2": (lambda t: _sts(t, b"a\tb\nc\td\n", b"3.0\n\xff\n"), r"gs\.txt:2: not UTF-8"),
    "STS empty files": (lambda t: _sts(t, b"", b""), r"no scored sentence pair \(STS12 MSRpar\)"),
    "STS only unscored pairs": (lambda t: _sts(t, b"a\tb\n", b"\n"), r"no scored sentence pair"),
    "STS gold nan": (lambda t: _sts(t, b"a\tb\n", b"nan\n"), r"gs\.txt:1: gold score nan outside the STS scale"),
    "STS gold -7e9": (lambda t: _sts(t, b"a\tb\n", b"-7e9\n"), r"gs\.txt:1: gold score -7000000000\.0 outside the "
                                                                r"STS scale \[0, 5\]"),
    "STS gold inf": (lambda t: _sts(t, b"a\tb\n", b"inf\n"), r"gs\.txt:1: gold score inf outside"),
    "SICK score 0.5": (lambda t: _sick(t, "0.5"), r"sick\.txt:2: gold score 0\.5 outside the SICK-R scale \[1, 5\]"),
    "SICK score nan": (lambda t: _sick(t, "nan"), r"sick\.txt:2: gold score nan outside"),
    "STS-B score 5.5": (lambda t: _stsb(t, "5.5"), r"sts-dev\.csv:1: gold score 5\.5 outside the STS-B scale"),
    "PIT score 3": (lambda t: _pit(t, "3"), r"test\.label:1: gold score 3\.0 outside the PIT-2015 scale \[0, 1\]"),
}


@pytest.mark.parametrize("case", list(READERS))
def test_benchmark_readers_refuse_bad_files_naming_file_and_line(tmp_path, case):
    read, message = READERS[case]
    with pytest.raises(SentembError, match=message):
        read(tmp_path)


def test_every_real_gold_score_is_inside_its_scale(shared, tmp_path):
    """The range checks pass on all the official files (they would refuse a corrupt copy, not the real data)."""
    from sentemb.core.data.benchmarks import BENCHMARKS, load_benchmarks

    sets = load_benchmarks(_raw_layout(shared, tmp_path), BENCHMARKS)
    assert sum(len(s) for s in sets) == 21_322


def _raw_layout(shared: Path, tmp_path: Path) -> Path:
    """The download stage's data/raw layout over the mirror, by symbolic links (nothing copied)."""
    raw = tmp_path / "layout"
    raw.mkdir()
    for name in ("sts", "sick", "stsbenchmark", "pit2015"):
        (raw / name).symlink_to(shared / name, target_is_directory=True)
    return raw


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sentemb.cli", *args], capture_output=True, input=stdin,
                          cwd=ROOT)


@pytest.fixture(scope="module")
def toy_model(tmp_path_factory) -> Path:
    from helpers import TEXT

    from sentemb.core.data.vocab import Vocabulary
    from sentemb.core.models.word_averaging import save_word_averaging_model
    from sentemb.core.models.word_vectors import WordVectors

    d = tmp_path_factory.mktemp("model") / "toy"
    save_word_averaging_model(d, "toy", WordVectors(Vocabulary(["a", "man"], [2, 1]), np.eye(2, dtype=np.float32)),
                              TEXT, info={})
    return d


CLI = {
    "embed a file with invalid UTF-8": (lambda m, t: ["embed", str(m), str(_bad(t)), "-o", str(t / "o.npy")],
                                        "bad.txt:2: not valid UTF-8"),
    "embed from stdin with invalid UTF-8": (lambda m, t: ["embed", str(m), "-", "-o", str(t / "o.npy")],
                                            "<stdin>:1: not valid UTF-8"),
    "evaluate --benchmark STS99": (lambda m, t: ["evaluate", str(m), "--benchmark", "STS99"],
                                   "--benchmark: unknown benchmark 'STS99'"),
    "similarity with a missing model": (lambda m, t: ["similarity", str(t / "none"), "a", "b"],
                                        "none: missing model directory"),
}


def _bad(tmp_path: Path) -> Path:
    (tmp_path / "bad.txt").write_bytes(b"a man\n\xff\xfe\n")
    return tmp_path / "bad.txt"


@pytest.mark.parametrize("case", list(CLI))
def test_cli_errors_are_one_line(toy_model, tmp_path, case):
    args, message = CLI[case]
    res = _cli(*args(toy_model, tmp_path), stdin=b"\xff\n")
    err = res.stderr.decode()
    assert res.returncode == 1, err
    assert [ln for ln in err.splitlines() if ln.strip()] == [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err


PARAMS = {
    "model.seed -1": ("model", "seed", -1, "stages/siamese_cbow.py", ["siamese_cbow"],
                      "model.seed: Input should be greater than or equal to 0 (got -1)"),
    "model.seed 2**32": ("model", "seed", 2**32, "stages/siamese_cbow.py", ["siamese_cbow"],
                         "model.seed: Input should be less than or equal to 4294967295"),
    "pretrain.glove.seed -3": ("pretrain.glove", "seed", -3, "stages/glove.py", ["glove"],
                               "pretrain.glove.seed: Input should be greater than or equal to 0"),
    "paraphrastic.para-gran.seed -1": ("paraphrastic.para-gran", "seed", -1, "stages/paraphrastic.py", ["para-gran"],
                                       "paraphrastic.para-gran.seed: Input should be greater than or equal to 0"),
    "supervised.training.seed -1": ("supervised.training", "seed", -1, "stages/supervise.py", ["gran", "random"],
                                    "supervised.training.seed: Input should be greater than or equal to 0"),
    "split.corpus inside models/": ("split", "corpus", "models/mybooks", "stages/split.py", [],
                                    "params.yaml: split.corpus: models/mybooks is inside models/"),
    "split.corpus inside data/": ("split", "corpus", "data/mine", "stages/split.py", [],
                                  "params.yaml: split.corpus: data/mine is inside data/"),
    "split.corpus missing": ("split", "corpus", "no-such-folder", "stages/split.py", [],
                             "no-such-folder: missing corpus folder (the download stage's data/raw/corpus, or a "
                             "folder of"),
    "evaluate.benchmarks STS99": ("evaluate", "benchmarks", ["STS99"], "stages/benchmark_tokens.py", [],
                                  "evaluate.benchmarks.0: Input should be 'STS12'"),
}


@pytest.mark.parametrize("case", list(PARAMS))
def test_stage_params_errors_are_one_line_naming_the_key(tmp_path, case):
    section, key, value, script, args, message = PARAMS[case]
    proj = tmp_path / "proj"
    proj.mkdir()
    for item in ("stages", "params.yaml"):
        src = ROOT / item
        subprocess.run(["cp", "-r", str(src), str(proj / item)], check=True)
    params = yaml.safe_load((proj / "params.yaml").read_text())
    node = params
    for part in section.split("."):
        node = node[part]
    node[key] = value
    (proj / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    res = subprocess.run([sys.executable, script, *args], cwd=proj, capture_output=True, text=True)
    assert res.returncode == 1, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in res.stderr, res.stderr
    assert message in lines[0], lines[0]


def test_timings_leave_the_hashed_statistics(tmp_path, monkeypatch):
    """Clock readings at any depth go to logs/timings/NAME.json; what is left is what a rerun reproduces."""
    sys.path.insert(0, str(ROOT / "stages"))
    from _common import without_timings

    monkeypatch.chdir(tmp_path)
    stats = {"tuples": 10, "wall_seconds": 1.5, "corpus_words_per_second": 9, "cells_per_cpu_second": 3,
             "seconds": 2.0, "selected": {"epoch": 1.0, "seconds": 0.5}, "device": "cpu", "lr_sum": 67.0}
    kept, timings = without_timings(stats, "supervised/toy")
    assert kept == {"tuples": 10, "selected": {"epoch": 1.0}, "device": "cpu", "lr_sum": 67.0}
    assert timings == {"wall_seconds": 1.5, "corpus_words_per_second": 9, "cells_per_cpu_second": 3, "seconds": 2.0,
                       "selected.seconds": 0.5}
    assert json.loads((tmp_path / "logs/timings/supervised/toy.json").read_text()) == timings
