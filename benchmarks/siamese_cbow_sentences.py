"""What encoding fewer sentences per centre would buy Siamese CBOW's fused step: corpus words/s with the paper's five
sentences per centre (centre, previous, next, two negatives from the corpus) against three (centre and neighbours
only: the cost if the negatives were drawn from sentences the batch already encodes).

Usage:
    python benchmarks/siamese_cbow_sentences.py [--vocabulary 190137] [--dim 300] [--batches 1500] [--threads 2]

The corpus is synthetic, with the full corpus's vocabulary (Zipf-distributed word ids, so that frequent rows are
shared as in text, and 5-39 tokens a sentence): the fused step's speed depends on the rows it touches, not on what
they mean. Both settings run the same centres, alternating twice. Three sentences per centre trains a different
loss (no negatives): this measures the cost of the passes over the token rows, not a sampler.
"""

import argparse
import time

import numpy as np

from sentemb.siamese_cbow.fused import FusedSGD


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocabulary", type=int, default=190_137)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--sentences", type=int, default=2_000_000)
    ap.add_argument("--batch-size", type=int, default=100)
    ap.add_argument("--batches", type=int, default=1500)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    lengths = rng.integers(5, 40, args.sentences)
    starts = np.concatenate([[0], np.cumsum(lengths)])
    tokens = (np.minimum(rng.zipf(1.1, starts[-1]), args.vocabulary) - 1).astype(np.int32)
    step = FusedSGD((rng.standard_normal((args.vocabulary, args.dim)) * 0.1).astype(np.float32), args.threads)

    def run(negatives: int, batches: int) -> float:
        draw = np.random.default_rng(1)
        words, t0 = 0, time.perf_counter()
        for _ in range(batches):
            c = draw.integers(1, args.sentences - 1, args.batch_size)
            idx = np.concatenate([c, c - 1, c + 1] + [draw.integers(0, args.sentences, args.batch_size)
                                                      for _ in range(negatives)])
            words += int(lengths[c].sum())
            step(tokens, starts[idx], lengths[idx], args.batch_size, 0.01)
        return words / (time.perf_counter() - t0)

    run(2, 50)  # compile before the clock
    print(f"{args.vocabulary:,} × {args.dim} rows, {args.threads} threads, {args.batches} batches of "
          f"{args.batch_size} centres")
    for _ in range(2):
        for negatives in (2, 0):
            print(f"{3 + negatives} sentences per centre: {run(negatives, args.batches):,.0f} corpus words/s",
                  flush=True)


if __name__ == "__main__":
    main()
