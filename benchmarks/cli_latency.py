"""How long `sentemb similarity MODEL S1 S2` makes a user wait, per kind of model, beside a bare interpreter.

Usage (after `dvc repro`, on the run's models; or on models derived from one word-averaging model):
    python benchmarks/cli_latency.py models/word2vec-cbow models/glove-nws models/para-gran
    python benchmarks/cli_latency.py --derive /tmp/latency models/word2vec-cbow
    python benchmarks/cli_latency.py --derive /tmp/latency models/word2vec-cbow --python /other/venv/bin/python

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
"""

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

SENTENCES = ("a man plays guitar", "someone plays an instrument")


def derive(directory: Path, base: Path) -> list[Path]:
    """A copy of the word-averaging model ``base`` and a weighted and a GRAN model over it, in ``directory``."""
    from derived_models import base_model, untrained_paraphrastic

    from sentemb.salience.model import save_weighted_average_model

    directory.mkdir(parents=True, exist_ok=True)
    words_dir = directory / "words"
    if not words_dir.exists():
        shutil.copytree(base, words_dir)
    vectors, text = base_model(words_dir)
    words = list(vectors.words)
    sif = 1e-3 / (1e-3 + vectors.counts / vectors.counts.sum())
    save_weighted_average_model(directory / "weighted", "weighted", words_dir, words, sif, text, "sif", "none", info={})
    untrained_paraphrastic(directory / "gran", "gran", words_dir, vectors, text)
    return [words_dir, directory / "weighted", directory / "gran"]


def timed(cmd: list[str]) -> float:
    """Wall seconds of one child process; exits with its error if it fails."""
    start = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if res.returncode:
        sys.exit(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stderr[-2000:]}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", type=Path, help="model directories (with --derive: one word average)")
    ap.add_argument("--derive", type=Path, metavar="DIR", help="derive a weighted and a GRAN model into DIR")
    ap.add_argument("--python", nargs="+", default=[sys.executable], help="interpreters to compare")
    ap.add_argument("--rounds", type=int, default=7, help="timed rounds after the first")
    args = ap.parse_args()
    models = derive(args.derive, args.models[0]) if args.derive else args.models
    commands = {"python -c pass": ["-c", "pass"], "import torch": ["-c", "import torch"]}
    commands |= {f"similarity {m.name}": ["-m", "sentemb.cli", "similarity", str(m), *SENTENCES] for m in models}
    times: dict[tuple[str, str], list[float]] = {}
    for py in args.python:  # warm-up: file caches, each interpreter's bytecode
        for cmd in commands.values():
            timed([py, *cmd])
    for _ in range(args.rounds):
        for py in args.python:
            for label, cmd in commands.items():
                times.setdefault((py, label), []).append(timed([py, *cmd]))
    print(f"median of {args.rounds} rounds after a warm-up, wall seconds; sentences {SENTENCES}\n")
    print("| interpreter | command | median | fastest | slowest |\n|---|---|---:|---:|---:|")
    for (py, label), runs in times.items():
        print(f"| {py} | {label} | {statistics.median(runs):.2f} | {min(runs):.2f} | {max(runs):.2f} |")


if __name__ == "__main__":
    main()
