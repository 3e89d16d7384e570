"""Safe to share: loading a model directory from someone else runs no code and reads no file outside its folder of
models; whatever is wrong with a model or an input is one line naming the file (and line or key); a stage stopped by
Ctrl-C, SIGTERM or a kill leaves nothing behind. Each item runs the real loaders, CLI and pipeline."""

import os
import pickle
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from conftest import dvc
from helpers import toy_models

import numpy as np
import pytest
import torch
import yaml
from safetensors.numpy import load_file, save_file
from typer.testing import CliRunner

from sentemb.cli import app
from sentemb.core.atomic import MARK
from sentemb.core.data.documents import iter_documents
from sentemb.core.errors import SentembError

ROOT = Path(__file__).resolve().parents[1]
UP_TO_DATE = "Data and pipelines are up to date."


class Payload:
    """Unpickling this creates the file ``path``: the proof that a loader ran code from a model directory."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return open, (self.path, "w")


def _edit_json(path: Path, edit) -> None:
    import json

    config = json.loads(path.read_text())
    edit(config)
    path.write_text(json.dumps(config))


def _pickled_array_at(name: str) -> callable:
    def tamper(m: Path, marker: Path) -> Path:
        np.save(m / name, np.array([Payload(marker)], dtype=object), allow_pickle=True)
        return (m / name).parent

    return tamper


def _pickle_as_npy(m: Path, marker: Path) -> Path:
    (m / "avg/vectors.npy").write_bytes(pickle.dumps(Payload(marker)))
    return m / "avg"


def _old_gensim_format(m: Path, marker: Path) -> Path:
    """The format before safetensors: gensim's pickled vectors.kv, named by a "loader" key."""
    (m / "avg/vectors.npy").unlink()
    (m / "avg/vectors.kv").write_bytes(pickle.dumps(Payload(marker)))
    _edit_json(m / "avg/config.json", lambda c: c.update(loader="sentemb.models"))
    return m / "avg"


def _old_torch_format(m: Path, marker: Path) -> Path:
    (m / "gran/encoder.safetensors").unlink()
    torch.save({"payload": Payload(marker)}, m / "gran/encoder.pt")
    return m / "gran"


def _torch_pickle_as_safetensors(m: Path, marker: Path) -> Path:
    torch.save({"payload": Payload(marker)}, m / "gran/encoder.safetensors")
    return m / "gran"


def _redirect(model: str, reference) -> callable:
    """``model``'s config names as its base vectors a copy of ``avg`` outside the folder of models, whose
    vectors.npy is a pickle."""

    def tamper(m: Path, marker: Path) -> Path:
        elsewhere = m.parent / "elsewhere"
        elsewhere.mkdir(exist_ok=True)
        (elsewhere / "avg").mkdir()
        for f in (m / "avg").iterdir():
            (elsewhere / "avg" / f.name).write_bytes(f.read_bytes())
        (elsewhere / "avg/vectors.npy").write_bytes(pickle.dumps(Payload(marker)))
        _edit_json(m / model / "config.json", lambda c: c.update(vectors=reference(elsewhere / "avg")))
        return m / model

    return tamper


def _truncate(name: str) -> callable:
    def tamper(m: Path, marker: Path) -> Path:
        data = (m / name).read_bytes()
        (m / name).write_bytes(data[: len(data) // 2])
        return (m / name).parent

    return tamper


def _foreign_safetensors(m: Path, marker: Path) -> Path:
    (m / "gran/encoder.safetensors").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    return m / "gran"


def _float64_safetensors(m: Path, marker: Path) -> Path:
    path = m / "gran/encoder.safetensors"
    save_file({k: v.astype(np.float64) for k, v in load_file(path).items()}, path)
    return m / "gran"


def _config(model: str, edit) -> callable:
    def tamper(m: Path, marker: Path) -> Path:
        _edit_json(m / model / "config.json", edit)
        return m / model

    return tamper


def _drop_last_line(name: str) -> callable:
    def tamper(m: Path, marker: Path) -> Path:
        lines = (m / name).read_text().splitlines(keepends=True)
        (m / name).write_text("".join(lines[:-1]))
        return (m / name).parent

    return tamper


def _extra_trained_word(m: Path, marker: Path) -> Path:
    with open(m / "gran/words.txt", "a", encoding="utf-8") as fh:
        fh.write("dog\n")
    return m / "gran"


def _old_weights_format(m: Path, marker: Path) -> Path:
    """The format before weights.npy: word, weight, count lines, and no vocabulary_crc32 in the config."""
    (m / "nws/weights.npy").unlink()
    (m / "nws/weights.tsv").write_text("word\tweight\tcount\na\t0.5\t8\n")
    _edit_json(m / "nws/config.json", lambda c: c.pop("vocabulary_crc32"))
    return m / "nws"


def _weights(edit) -> callable:
    def tamper(m: Path, marker: Path) -> Path:
        path = m / "nws/weights.npy"
        np.save(path, edit(np.load(path, allow_pickle=False)), allow_pickle=False)
        return m / "nws"

    return tamper


def _append(name: str, text: str) -> callable:
    def tamper(m: Path, marker: Path) -> Path:
        with open(m / name, "a", encoding="utf-8") as fh:
            fh.write(text)
        return m / "gran" if name.startswith("gran") else (m / name).parent

    return tamper


def _link_out(base: str) -> callable:
    """``base`` (the GRAN model's vectors) replaced by a link to a copy outside the folder of models whose vectors.npy
    is a pickle."""

    def tamper(m: Path, marker: Path) -> Path:
        elsewhere = m.parent / "elsewhere"
        elsewhere.mkdir(exist_ok=True)
        (m / base).rename(elsewhere / base)
        (elsewhere / base / "vectors.npy").write_bytes(pickle.dumps(Payload(marker)))
        (m / base).symlink_to((elsewhere / base).resolve(), target_is_directory=True)
        return m / "gran"

    return tamper


MODELS = {
    # code in a file: the payload must not run
    "object array in vectors.npy": (_pickled_array_at("avg/vectors.npy"),
                                    "avg/vectors.npy: not a .npy array of float32 word vectors"),
    "pickle named vectors.npy": (_pickle_as_npy, "avg/vectors.npy: not a .npy array of float32 word vectors"),
    "old gensim vectors.kv": (_old_gensim_format, "avg: a model saved by an older sentemb (a pickled vectors.kv"),
    "old torch encoder.pt": (_old_torch_format, "gran: a model saved by an older sentemb"),
    "torch pickle named encoder.safetensors": (_torch_pickle_as_safetensors,
                                               "gran/encoder.safetensors: not a safetensors file"),
    # a path out of the folder of models
    "vectors: an absolute path": (_redirect("gran", str), "gran/config.json: vectors: expected '../NAME'"),
    "vectors: ../../elsewhere/avg": (_redirect("gran", lambda p: "../../elsewhere/avg"),
                                     "gran/config.json: vectors: expected '../NAME'"),
    "weighted vectors: an absolute path": (_redirect("nws", str), "nws/config.json: vectors: expected '../NAME'"),
    # broken files
    "truncated encoder.safetensors": (_truncate("gran/encoder.safetensors"),
                                      "gran/encoder.safetensors: not a safetensors file"),
    "foreign encoder.safetensors": (_foreign_safetensors, "gran/encoder.safetensors: not a safetensors file"),
    "float64 encoder.safetensors": (_float64_safetensors, "gran/encoder.safetensors: not a safetensors file of the "
                                    "encoder's parameters (embedding.weight is float64, not float32)"),
    "truncated vectors.npy": (_truncate("avg/vectors.npy"), "avg/vectors.npy: not a .npy array"),
    "missing key": (_config("gran", lambda c: c.pop("composition")),
                    "gran/config.json: composition: Field required"),
    "wrong type": (_config("avg", lambda c: c["text"].update(lowercase="perhaps")),
                   "avg/config.json: text.lowercase: Input should be a valid boolean"),
    "another encoder's parameters": (_config("gran", lambda c: c["composition"].update(encoder="lstmavg")),
                                     "gran/encoder.safetensors: does not fit encoder 'lstmavg'"),
    "vocabulary shorter than the array": (_drop_last_line("avg/vocab.tsv"),
                                          "avg/vectors.npy: 8 vectors for the 7 words of"),
    "more trained words than rows": (_extra_trained_word,
                                     "gran/encoder.safetensors: embedding.weight of shape (3, 3), expected (4, 3)"),
    "weight not a number": (_weights(lambda w: np.where(np.arange(len(w)) == 2, np.nan, w).astype(np.float32)),
                            "nws/weights.npy: weight 2 ('plays') is not a finite number"),
    "a weight short": (_weights(lambda w: w[:-1]), "nws/weights.npy: float32 of shape (7,), expected float32 of "
                       "shape (8,)"),
    "float64 weights": (_weights(lambda w: w.astype(np.float64)), "nws/weights.npy: float64 of shape (8,)"),
    "old weights.tsv": (_old_weights_format, "nws: a weighted model saved by an older sentemb (weights.tsv"),
    "object array in weights.npy": (_pickled_array_at("nws/weights.npy"), "nws/weights.npy: not a .npy array"),
    # a word list with a word twice: it would shift every later row
    "a trained word twice": (_append("gran/words.txt", "man\n"),
                             "gran/words.txt:4: duplicate word 'man' (first on line 1)"),
    "a vocabulary word twice": (_append("avg/vocab.tsv", "man\t1\n"),
                                "avg/vocab.tsv:9: duplicate word 'man' (first on line 2)"),
    "type: a list": (_config("avg", lambda c: c.update(type=["word_average"])),
                     "avg/config.json: type: expected one of"),
    "the base vectors: a link out of the folder": (_link_out("avg"), "avg: a link to "),
}


@pytest.mark.parametrize("case", list(MODELS))
def test_a_bad_model_directory_runs_no_code_and_is_one_line(tmp_path, case):
    tamper, message = MODELS[case]
    models = toy_models(tmp_path / "models")
    marker = tmp_path / "payload-ran"
    model = tamper(models, marker)
    res = CliRunner().invoke(app, ["similarity", str(model), "a man plays", "a dog runs"])
    assert not marker.exists(), "loading the model ran the payload"
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    assert len(res.stderr.strip().splitlines()) == 1 and res.stderr.startswith("error: "), res.stderr
    assert message in res.stderr, res.stderr


def test_no_load_path_unpickles():
    """What the loaders may call: no pickle reader anywhere in the package, the stages or the profiles."""
    pattern = re.compile(r"KeyedVectors\.load|pickle\.loads?\(|allow_pickle=True|torch\.load\(|joblib\.load")
    files = [p for folder in ("src", "stages", "profiles") for p in (ROOT / folder).rglob("*.py")]
    hits = [f"{p.relative_to(ROOT)}:{n}" for p in files
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert hits == []


def _pairs(tmp_path: Path, text: str) -> Path:
    (tmp_path / "mine.tsv").write_text(text, encoding="utf-8")
    return tmp_path / "mine.tsv"


PAIRS = {
    "score above --scale": ("s1\ts2\tscore\na man\ta man\t4\na dog\ta man\t1\n", ["--scale", "0", "1"],
                            "mine.tsv:2: gold score 4 outside the scale [0, 1]"),
    "two fields": ("a man\ta man\t4\na dog\ta man\n", [],
                   "mine.tsv:2: expected sentence1<TAB>sentence2<TAB>gold, found 2 tab-separated fields"),
    "a word for a score": ("a man\ta man\t4\na dog\ta man\thigh\n", [],
                           "mine.tsv:2: gold score 'high' is not a number"),
    "one score for all": ("a man\ta man\t3\na dog\ta man\t3\n", [], "mine.tsv: every gold score is 3"),
    "inverted --scale": ("a man\ta man\t4\na dog\ta man\t1\n", ["--scale", "5", "0"],
                         "--scale: expected LOW < HIGH, got 5 0"),
    "an infinite score": ("a man\ta man\t4\na dog\ta man\tinf\n", [],
                          "mine.tsv:2: gold score 'inf' is not a finite number"),
}


@pytest.mark.parametrize("case", list(PAIRS))
def test_your_own_pairs_are_checked_naming_the_line(tmp_path, case):
    text, options, message = PAIRS[case]
    models = toy_models(tmp_path / "models")
    res = CliRunner().invoke(app, ["evaluate", str(models / "avg"), "--pairs", str(_pairs(tmp_path, text)), *options])
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    assert len(res.stderr.strip().splitlines()) == 1 and res.stderr.startswith("error: "), res.stderr
    assert message in res.stderr, res.stderr


BOM = "\ufeff"


def test_a_byte_order_mark_is_not_text_in_any_file_a_user_gives(tmp_path):
    """Pairs, sentences, an own corpus and a vocabulary saved with a UTF-8 byte-order mark (as Windows editors and
    spreadsheets save them) read as without it: the same scores, rows and words."""
    from sentemb.core.data.benchmarks import read_pairs_tsv
    from sentemb.core.data.vocab import Vocabulary
    from sentemb.inference.files import read_lines

    models = toy_models(tmp_path / "models")
    pairs = "a man plays\ta man\t4\na dog\tguitar\t1\nman plays guitar\tplays\t2.5\n"
    for name, text in (("plain", pairs), ("bom", BOM + pairs)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "mine.tsv").write_text(text, encoding="utf-8")
    plain, marked = read_pairs_tsv(tmp_path / "plain/mine.tsv"), read_pairs_tsv(tmp_path / "bom/mine.tsv")
    assert marked.sentences1 == plain.sentences1 and list(marked.gold) == list(plain.gold)
    results = [CliRunner().invoke(app, ["evaluate", str(models / "gran"), "--pairs", str(tmp_path / n / "mine.tsv")])
               for n in ("plain", "bom")]
    assert results[0].exit_code == 0 and results[0].stdout == results[1].stdout
    (tmp_path / "lines.txt").write_text(BOM + "man plays\nguitar\n", encoding="utf-8")
    assert list(read_lines(tmp_path / "lines.txt")) == ["man plays", "guitar"]
    (tmp_path / "book.txt").write_text(BOM + "Call me Ishmael.\n\nSome years ago.\n", encoding="utf-8")
    assert next(iter_documents(tmp_path / "book.txt")).paragraphs[0].startswith("Call")
    (tmp_path / "vocab.tsv").write_text(BOM + "the\t9\nman\t3\n", encoding="utf-8")
    assert Vocabulary.load(tmp_path / "vocab.tsv").words == ["the", "man"]


def test_a_linked_folder_of_your_own_corpus_is_read(tmp_path):
    """A symbolically linked sub-folder of an own corpus is read as a folder (a link back up, once), not skipped."""
    from sentemb.core.data.documents import corpus_files

    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/b.txt").write_text("Another book.\n", encoding="utf-8")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("A book.\n", encoding="utf-8")
    (corpus / "more").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (corpus / "loop").symlink_to(corpus, target_is_directory=True)
    assert [p.relative_to(corpus).as_posix() for p in corpus_files(corpus)] == ["a.txt", "more/b.txt"]


def _cli(*args: str, limits: str = "", hide: str = "") -> subprocess.CompletedProcess:
    """``sentemb ARGS`` in a fresh process, under ``prlimit`` limits (e.g. ``--fsize=4096``) and with the named
    module made unimportable (as where the extra is not installed)."""
    code = (f"import sys; sys.modules[{hide!r}] = None; " if hide else "") + \
        "from sentemb.cli import main; sys.argv = ['sentemb', *sys.argv[1:]]; main()"
    command = [*(["prlimit", limits] if limits else []), sys.executable, "-c",
               ("import sys; " if not hide else "") + code, *args]
    return subprocess.run(command, capture_output=True, text=True)


def test_a_write_that_fails_is_one_line_naming_the_path_and_leaves_nothing(tmp_path):
    """No space (a file size limit: the kernel's EFBIG, as ENOSPC fails a write), a forbidden folder: `embed -o` and
    `export` print one line naming what they could not write, and leave no partial file."""
    models = toy_models(tmp_path / "models")
    (tmp_path / "lines.txt").write_text("a man plays guitar\n" * 2000, encoding="utf-8")
    cases = [
        (("embed", str(models / "gran"), str(tmp_path / "lines.txt"), "-o", str(tmp_path / "out/e.npy")),
         "--fsize=4096", f"error: {tmp_path / 'out/e.npy'}: cannot write it: File too large"),
        (("export", str(models / "avg"), str(tmp_path / "out/avg.txt")), "--fsize=64",
         f"error: {tmp_path / 'out/avg.txt'}: cannot write it: File too large"),
        (("embed", str(models / "avg"), str(tmp_path / "lines.txt"), "-o", "/sys/sentemb/e.npy"), "",
         "error: /sys/sentemb/e.npy: cannot write it: "),
        (("export", str(models / "avg"), "/sys/sentemb/avg.txt"), "", "error: /sys/sentemb/avg.txt: cannot write it: "),
    ]
    for args, limits, message in cases:
        res = _cli(*args, limits=limits)
        assert res.returncode == 1 and res.stderr.startswith(message), (args, res.stderr)
        assert len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_an_export_without_its_extra_says_what_to_install(tmp_path):
    models = toy_models(tmp_path / "models")
    for fmt, module in (("model2vec", "tokenizers"), ("sentence-transformers", "sentence_transformers")):
        res = _cli("export", "--format", fmt, str(models / "avg"), str(tmp_path / fmt), hide=module)
        assert res.returncode == 1 and res.stderr == f"error: --format {fmt} needs {module}: pip install -e '.[st]'\n"
        assert not (tmp_path / fmt).exists()


def test_latin1_text_is_refused_with_its_line_number(tmp_path):
    (tmp_path / "book.txt").write_bytes("First line.\nSecond line.\nCaf\xe9 au lait.\n".encode("latin-1"))
    with pytest.raises(SentembError, match=r"book\.txt:3: not UTF-8 text .*iconv -f latin1 -t utf-8"):
        list(iter_documents(tmp_path / "book.txt"))


def test_embed_says_how_many_rows_are_zeros(tmp_path):
    models = toy_models(tmp_path / "models")
    (tmp_path / "lines.txt").write_text("a man plays\n\nzebra\na dog\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["embed", str(models / "avg"), str(tmp_path / "lines.txt"), "-o",
                                   str(tmp_path / "e.npy")])
    assert res.exit_code == 0, res.output
    assert "warning: 2 of the 4 lines (blank ones included) have no word the model knows" in res.stderr
    assert np.flatnonzero(~np.load(tmp_path / "e.npy").any(axis=1)).tolist() == [1, 2]


# --- stopping a stage of the pipeline (the smoke look's project) -------------------------------------------------

def _leftovers(proj: Path) -> list[Path]:
    return [p for folder in ("data", "models", "results", "metrics", "reports", "logs")
            for p in (proj / folder).rglob(f"*{MARK}*")]


@pytest.mark.slow
@pytest.mark.parametrize("sig, word, code", [(signal.SIGINT, "interrupted", 130), (signal.SIGTERM, "terminated", 143)])
def test_ctrl_c_or_sigterm_stops_a_stage_in_one_line_and_changes_nothing(smoke_copy, sig, word, code):
    """The signal to the stage's whole process group (Ctrl-C in a terminal) while it trains: one line, the shell's
    exit status, the outputs as they were (nothing replaced, no temporary left).

    The smoke profile trains LSTMAVG for 8 batches (a fraction of a second on a fast machine), so the stage runs here
    with 200 epochs, and the signal goes once its first checkpoint is logged: it lands in training, never after the
    stage has finished. params.yaml is put back before ``dvc status``."""
    params = smoke_copy / "params.yaml"
    text = params.read_text()
    longer = yaml.safe_load(text)
    longer["paraphrastic"]["para-lstmavg"]["epochs"] = 200
    params.write_text(yaml.safe_dump(longer, sort_keys=False))
    proc = subprocess.Popen([sys.executable, "stages/paraphrastic.py", "para-lstmavg"], cwd=smoke_copy,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stderr), daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    while not any("checkpoint" in line for line in lines) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the stage ended before the signal: " + "".join(lines)
    os.killpg(proc.pid, sig)
    proc.wait(timeout=60)
    reader.join(timeout=10)
    err = "".join(lines)
    params.write_text(text)
    assert proc.returncode == code and "Traceback" not in err, err
    assert [line for line in err.splitlines() if line.strip()][-1] == word, err  # after any progress bar
    assert _leftovers(smoke_copy) == []
    assert dvc(smoke_copy, "status").stdout.strip() == UP_TO_DATE


KILL_AT_SAVE = '''
import os
import signal

_replace = os.replace


def _replace_or_die(src, dst, *args, **kwargs):
    if "{mark}" in os.fspath(src):  # sentemb's atomic save, at the moment of the rename
        os.kill(os.getpid(), signal.SIGKILL)
    return _replace(src, dst, *args, **kwargs)


os.replace = _replace_or_die
'''


@pytest.mark.slow
def test_a_kill_at_the_moment_of_saving_leaves_nothing_once_the_stage_reruns(smoke_copy, tmp_path):
    """SIGKILL between writing a temporary and renaming it (a Python start-up hook in the stage's process): the
    temporary is invisible to git, and the next `dvc repro` removes it and gives the same outputs."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(KILL_AT_SAVE.format(mark=MARK))
    lock = (smoke_copy / "dvc.lock").read_bytes()
    env = os.environ | {"PYTHONPATH": str(hook)}
    killed = subprocess.run([sys.executable, "-m", "dvc", "repro", "--force", "--single-item", "evaluate@glove"],
                            cwd=smoke_copy, env=env, capture_output=True, text=True)
    assert killed.returncode != 0
    left = _leftovers(smoke_copy)
    assert len(left) == 1 and left[0].parent == smoke_copy / "metrics/models", left
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=smoke_copy,
                            capture_output=True, text=True, check=True).stdout
    assert MARK not in status, status
    assert dvc(smoke_copy, "repro").returncode == 0
    assert _leftovers(smoke_copy) == [] and (smoke_copy / "dvc.lock").read_bytes() == lock
    assert dvc(smoke_copy, "status").stdout.strip() == UP_TO_DATE


@pytest.mark.slow
@pytest.mark.parametrize("shell", ["/bin/sh", "/bin/bash"])
def test_a_terminated_dvc_repro_stops_its_stage_which_leaves_nothing(smoke_copy, shell):
    """SIGTERM to the `dvc repro` process alone (not its group) while a stage trains: DVC exits, and the stage, told
    by the kernel that its parent died or by its watcher that the shell's parent did (sentemb.core.runtime.lifetime),
    stops within seconds, leaves no temporary and writes nothing; `dvc repro` then brings back the same outputs.
    DVC runs the command in ``$SHELL -c``: dash (/bin/sh here) stays between DVC and the stage, bash does not."""
    import psutil

    if not Path(shell).exists():
        pytest.skip(f"no {shell}")
    lock = (smoke_copy / "dvc.lock").read_bytes()
    stage = "paraphrastic@para-lstmavg"
    proc = subprocess.Popen([sys.executable, "-m", "dvc", "repro", "--force", "--single-item", stage], cwd=smoke_copy,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "SHELL": shell})
    deadline, found = time.monotonic() + 120, []
    while not found and time.monotonic() < deadline and proc.poll() is None:
        found = [c for c in psutil.Process(proc.pid).children(recursive=True)
                 if "stages/paraphrastic.py" in " ".join(c.cmdline())]
        time.sleep(0.05)
    assert found, "the stage did not start"
    time.sleep(3.0)  # the stage is importing or training
    stage_procs = [c for c in psutil.Process(proc.pid).children(recursive=True)
                   if "stages/paraphrastic.py" in " ".join(c.cmdline())]  # the shell and the stage, or the stage
    assert stage_procs, "the stage finished before dvc could be stopped"
    os.kill(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)
    _, alive = psutil.wait_procs(stage_procs, timeout=10)
    assert not alive, f"the stage outlived dvc: {[' '.join(p.cmdline()) for p in alive]}"
    assert _leftovers(smoke_copy) == [] and not (smoke_copy / "models/para-lstmavg").exists()
    dvc(smoke_copy, "repro")
    assert (smoke_copy / "dvc.lock").read_bytes() == lock
