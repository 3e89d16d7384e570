"""How far two revisions' paraphrastic training runs drift apart: the per-step loss of the same settings, seed and
batches under this checkout's `src/` and under another revision's, step by step.

Usage (after `dvc repro pairs`):
    git archive REV src | tar -x -C /tmp/REV
    python benchmarks/paraphrastic_rounding.py --other /tmp/REV/src [--models para-lstm para-lstmavg] [--steps 132]

For each model of `params.yaml` `paraphrastic` it trains ``--steps`` mini-batches of the real training pairs (random
N(0, 0.3²) 300-d word vectors, the model's own settings) once per revision, in a fresh process each, and prints the
largest |Δ loss| and the first step where it passes 1e-5 and 1e-4. The other revision must share this checkout's
package layout and the trainer's signature (the child process runs this script's code over its package). Two revisions
that differ only in float rounding agree to the printed precision (1e-6) until the training amplifies a difference. One
torch thread by default; ``--threads 2`` with ``--other src`` compares a revision with itself on two threads (equal at
every step since ``sentemb.core.runtime.threads.settle_sqrt``; before it, about one run in six parted from the first
step).
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch
import yaml
from paraphrastic_speed import build, read_id_pairs  # this folder's script; sentemb comes from PYTHONPATH's revision

from sentemb.paraphrastic.training import train_paraphrastic


def _losses(src: Path, model: str, steps: int, threads: int) -> list[float]:
    """The per-step losses of ``model`` under the revision whose package is ``src``, in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "log.csv"
        env = os.environ | {"PYTHONPATH": str(src.resolve()), "OMP_NUM_THREADS": str(threads)}
        subprocess.run([sys.executable, __file__, "--train", model, str(steps), str(out)], env=env, check=True,
                       stderr=subprocess.DEVNULL)
        return [float(r["loss"]) for r in csv.DictReader(out.open())]


def _train(model: str, steps: int, out: str) -> None:
    """The child process: ``steps`` mini-batches of ``model``'s settings, one checkpoint (and log row) a step."""
    pairs, index = read_id_pairs(Path("data/pairs/train.tsv"))
    p = yaml.safe_load(Path("params.yaml").read_text())["paraphrastic"][model]
    vectors = np.random.default_rng(0).standard_normal((len(index), 300)).astype(np.float32) * 0.3
    torch.manual_seed(p["seed"])
    encoder, config = build(p, vectors, evals_per_epoch=steps)
    train_paraphrastic(encoder, pairs[: p["batch_size"] * steps], config, lambda e: {config.select: 0.0},
                       log_path=out)


def main() -> None:
    if sys.argv[1:2] == ["--train"]:
        return _train(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    ap = argparse.ArgumentParser()
    ap.add_argument("--other", type=Path, required=True, help="the other revision's src/ folder")
    ap.add_argument("--models", nargs="+", default=["para-lstm", "para-lstmavg", "para-gran"])
    ap.add_argument("--steps", type=int, default=132)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    print("| model | steps | max abs Δ loss | first step > 1e-5 | first step > 1e-4 |")
    print("|---|---:|---:|---:|---:|")
    for model in args.models:
        ours, theirs = (_losses(src, model, args.steps, args.threads) for src in (Path("src"), args.other))
        delta = [abs(a - b) for a, b in zip(ours, theirs, strict=True)]
        first = [next((i + 1 for i, d in enumerate(delta) if d > limit), "—") for limit in (1e-5, 1e-4)]
        print(f"| {model} | {len(delta)} | {max(delta):.1e} | {first[0]} | {first[1]} |", flush=True)


if __name__ == "__main__":
    main()
