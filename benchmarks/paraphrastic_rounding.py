"""How far two revisions' paraphrastic training runs drift apart: the per-step loss of the same settings, seed and
batches under this checkout's `src/` and under another revision's, step by step.

Usage (after `dvc repro pairs`):
    git archive REV src | tar -x -C /tmp/REV
    python benchmarks/paraphrastic_rounding.py --other /tmp/REV/src [--models para-lstm para-lstmavg] [--steps 132]

For each model of `params.yaml` `paraphrastic` it trains ``--steps`` mini-batches of the real training pairs (random
N(0, 0.3²) 300-d word vectors, the model's own settings) once per revision, in a fresh process each, and prints the
largest |Δ loss| and the first step where it passes 1e-5 and 1e-4. Two revisions that differ only in float rounding
agree to the printed precision (1e-6) until the training amplifies a difference.
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

RUN = """
import sys, numpy as np, torch, yaml
from sentemb.data.pairs import read_pairs
from sentemb.paraphrastic.composition import ENCODER_ARGS, build_composition
from sentemb.paraphrastic.training import ParaphraseConfig, train_paraphrastic
name, steps, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = read_pairs("data/pairs/train.tsv", ("source", "sentence1", "sentence2"))
index = {}
pairs = [tuple(np.array([index.setdefault(w, len(index)) for w in s.split()], dtype=np.int64) for s in (a, b))
         for _, a, b in rows]
p = yaml.safe_load(open("params.yaml"))["paraphrastic"][name]
vectors = np.random.default_rng(0).standard_normal((len(index), 300)).astype(np.float32) * 0.3
config = ParaphraseConfig(**{k: v for k, v in p.items() if k in ParaphraseConfig.__dataclass_fields__}
                          | {"epochs": 1, "evals_per_epoch": steps, "device": "cpu"})
torch.manual_seed(config.seed)
encoder = build_composition(p["encoder"], vectors, dropout=p["dropout"], word_dropout=p["word_dropout"],
                            sparse=p["sparse_embeddings"], **{k: p[k] for k in ENCODER_ARGS[p["encoder"]]})
train_paraphrastic(encoder, pairs[: p["batch_size"] * steps], config, lambda e: {"none": 0.0}, "none", log_path=out)
"""


def _losses(src: Path, model: str, steps: int, threads: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "log.csv"
        env = os.environ | {"PYTHONPATH": str(src.resolve()), "OMP_NUM_THREADS": str(threads)}
        subprocess.run([sys.executable, "-c", RUN, model, str(steps), str(out)], env=env, check=True,
                       stderr=subprocess.DEVNULL)
        return [float(r["loss"]) for r in csv.DictReader(out.open())]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--other", type=Path, required=True, help="the other revision's src/ folder")
    ap.add_argument("--models", nargs="+", default=["para-lstm", "para-lstmavg", "para-gran"])
    ap.add_argument("--steps", type=int, default=132)
    ap.add_argument("--threads", type=int, default=2)
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
