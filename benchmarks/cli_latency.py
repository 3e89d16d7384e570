"""How long `sentemb similarity MODEL S1 S2` makes a user wait, per kind of model, beside a bare interpreter.

Usage (after `dvc repro`, on the run's models; or on models derived from one word-averaging model):
    python benchmarks/cli_latency.py models/word2vec-cbow models/glove-nws models/para-gran
    python benchmarks/cli_latency.py --derive /tmp/latency models/word2vec-cbow
    python benchmarks/cli_latency.py --derive /tmp/latency models/word2vec-cbow --python /other/venv/bin/python
    python benchmarks/cli_latency.py --evaluate models/glove models/glove-nws --python python ../old/.venv/bin/python

Each round runs ``PYTHON -m sentemb.cli similarity MODEL "a man plays guitar" "someone plays an instrument"`` in a
new interpreter and times it from start to exit (interpreter start, imports, loading the model, tokenising,
encoding, printing), as a user's shell would; the first round of each model also pays for cold file caches and is
left out of the median. ``python -c pass`` and ``import torch`` are timed alike, as the floor and the cost a
recurrent encoder cannot avoid. Several ``--python`` interpreters (each an environment with sentemb installed, e.g.
a clone of another revision) are measured round-robin in the same command, so that their figures compare.

``--derive DIR``: from one word-averaging model, write into DIR a copy of it (``words``), a weighted average over it
(``weighted``: SIF's weights a / (a + p(w)), a = 1e-3, from the vocabulary's counts: the ``weighted_average``
loader's path) and an untrained GRAN over its vectors
(``gran``: the ``paraphrastic`` loader's path, params ``paraphrastic.para-gran``'s composition), and time those:
the load and encode costs of each kind at the full vocabulary's size without a full run.

``--evaluate``: time each model's ``evaluate@`` stage instead, ``PYTHON stages/evaluate.py NAME`` from the checkout
that PYTHON's sentemb is installed from (its own revision of the script), in a scratch folder holding this
workspace's params.yaml and links to its ``data`` and ``models``, so that the workspace's outputs stay as they are.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SENTENCES = ("a man plays guitar", "someone plays an instrument")


def derive(directory: Path, base: Path) -> list[Path]:
    """A copy of the word-averaging model ``base`` and a weighted and a GRAN model over it, in ``directory`` (no
    training: what loading and encoding cost does not depend on the parameters' values). The GRAN is an untrained
    (seed 0) encoder of params.yaml's ``paraphrastic.para-gran`` composition, owning three rows laid over the base's."""
    import numpy as np
    import torch
    import yaml

    from sentemb.core.models.format import read_config
    from sentemb.core.models.word_averaging import load_word_vectors
    from sentemb.core.text.config import text_config
    from sentemb.paraphrastic.composition import build_composition
    from sentemb.paraphrastic.config import Composition
    from sentemb.paraphrastic.model import save_paraphrastic_model
    from sentemb.salience.model import save_weighted_average_model

    directory.mkdir(parents=True, exist_ok=True)
    words_dir = directory / "words"
    if not words_dir.exists():
        shutil.copytree(base, words_dir)
    vectors = load_word_vectors(words_dir)
    text = text_config(read_config(words_dir)["text"], str(words_dir / "config.json"))
    words = list(vectors.words)
    sif = 1e-3 / (1e-3 + vectors.counts / vectors.counts.sum())
    save_weighted_average_model(directory / "weighted", "weighted", words_dir, words, sif, text, "sif", "none", info={})
    section = yaml.safe_load(Path("params.yaml").read_text(encoding="utf-8"))["paraphrastic"]["para-gran"]
    spec = Composition.model_validate({k: section[k] for k in Composition.model_fields if k in section})
    torch.manual_seed(0)
    encoder = build_composition(spec, np.array(vectors.vectors[:3]), sparse=False)
    save_paraphrastic_model(directory / "gran", "gran", encoder, words[:3], spec, words_dir, text, info={})
    return [words_dir, directory / "weighted", directory / "gran"]


def checkout(python: str) -> Path:
    """The repository that ``python``'s sentemb is installed from (``pip install -e``)."""
    out = subprocess.run([python, "-c", "import sentemb; print(sentemb.__file__)"], capture_output=True, text=True)
    root = Path(out.stdout.strip()).parents[2] if out.returncode == 0 else None
    if root is None or not (root / "stages" / "evaluate.py").is_file():
        sys.exit(f"{python}: no sentemb checkout with stages/evaluate.py ({out.stderr.strip()[-200:]})")
    return root


def scratch_workspace(directory: Path) -> Path:
    """A folder with this workspace's params.yaml and links to its data and models, for evaluate stages to write
    their outputs into."""
    for name in ("data", "models"):
        os.symlink(Path(name).resolve(), directory / name)
    shutil.copy("params.yaml", directory / "params.yaml")
    (directory / "metrics" / "models").mkdir(parents=True)
    (directory / "results").mkdir()
    return directory


def timed(cmd: list[str], cwd: Path | None = None) -> float:
    """Wall seconds of one child process; exits with its error if it fails."""
    start = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    wall = time.perf_counter() - start
    if res.returncode:
        sys.exit(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stderr[-2000:]}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", type=Path, help="model directories (with --derive: one word average)")
    ap.add_argument("--derive", type=Path, metavar="DIR", help="derive a weighted and a GRAN model into DIR")
    ap.add_argument("--evaluate", action="store_true", help="time the models' evaluate@ stages")
    ap.add_argument("--python", nargs="+", default=[sys.executable], help="interpreters to compare")
    ap.add_argument("--rounds", type=int, default=7, help="timed rounds after the first")
    args = ap.parse_args()
    models = derive(args.derive, args.models[0]) if args.derive else args.models
    with tempfile.TemporaryDirectory() as scratch:
        commands = {py: {"python -c pass": ["-c", "pass"], "import torch": ["-c", "import torch"]}
                    for py in args.python}
        for py, cmds in commands.items():
            if args.evaluate:
                script = str(checkout(py) / "stages" / "evaluate.py")
                cmds |= {f"evaluate@{m.name}": [script, m.name] for m in models}
            else:
                cmds |= {f"similarity {m.name}": ["-m", "sentemb.cli", "similarity", str(m), *SENTENCES]
                         for m in models}
        cwd = scratch_workspace(Path(scratch)) if args.evaluate else None
        times: dict[tuple[str, str], list[float]] = {}
        for py, cmds in commands.items():  # warm-up: file caches, each interpreter's bytecode
            for cmd in cmds.values():
                timed([py, *cmd], cwd)
        for _ in range(args.rounds):
            for py, cmds in commands.items():
                for label, cmd in cmds.items():
                    times.setdefault((py, label), []).append(timed([py, *cmd], cwd))
    what = "evaluate stages" if args.evaluate else f"sentences {SENTENCES}"
    print(f"median of {args.rounds} rounds after a warm-up, wall seconds; {what}\n")
    print("| interpreter | command | median | fastest | slowest |\n|---|---|---:|---:|---:|")
    for (py, label), runs in times.items():
        print(f"| {py} | {label} | {statistics.median(runs):.2f} | {min(runs):.2f} | {max(runs):.2f} |")


if __name__ == "__main__":
    main()
