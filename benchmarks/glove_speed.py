"""GloVe's cell loop on the corpus's own co-occurrences, two ways in one run: the stratified schedule (DSGD) on one
thread and on ``--threads`` threads, one epoch each from ``glove.c``'s initialisation, alternating, ``--rounds``
times.

Usage (after ``dvc repro vocab``; the full corpus needs about 6 GB of memory):
    python benchmarks/glove_speed.py [--rounds 2] [--threads 2] [--dim 300]

Prints each epoch's cells/s, seconds and mean cost, and the ratio that matters: the schedule's cells/s on T threads
over one thread's. Measures, asserts nothing.
"""

import argparse
import itertools
import time
from pathlib import Path

import numba
import numpy as np

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.wordvectors.cooccurrence import cooccurrence_matrix
from sentemb.wordvectors.glove import cell_inputs, cell_parameters
from sentemb.wordvectors.glove_inner import fit_strata, stratify, word_groups


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("data"))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--x-max", type=float, default=100.0, help="f(X)'s x_max (params.yaml pretrain.glove)")
    ap.add_argument("--alpha", type=float, default=0.75, help="f(X)'s alpha (params.yaml pretrain.glove)")
    args = ap.parse_args()
    corpus = TokenCorpus.load(args.data / "corpus")
    vocab_size = len(Vocabulary.load(args.data / "vocab.tsv"))
    t = time.perf_counter()
    coo = cooccurrence_matrix(corpus, vocab_size, window=10).tocoo()
    print(f"{coo.nnz:,} co-occurrence cells, {vocab_size:,} words, counted in {time.perf_counter() - t:.0f} s",
          flush=True)
    rows, cols, log_x, weight = cell_inputs(coo.row, coo.col, coo.data, args.x_max, args.alpha)
    group = word_groups(np.bincount(rows, minlength=vocab_size), args.threads)
    del coo
    start = cell_parameters(vocab_size, args.dim, 1)
    n, threads = len(rows), args.threads
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    rng = np.random.default_rng(1)

    def schedule(order, bounds, t):
        def run(params):
            return fit_strata(rows, cols, log_x, weight, order, bounds, t, *params, 0.05, 100.0)
        return run

    seconds: dict[str, list[float]] = {}
    for r in range(1, args.rounds + 1):
        one = rng.permutation(np.arange(n, dtype=np.int32))
        order, bounds = stratify(rows, cols, group, threads)
        for a, b in itertools.pairwise(bounds.tolist()):
            rng.shuffle(order[a:b])
        sizes = np.diff(bounds)
        runs = {"strata, 1 thread": schedule(one, np.array([0, n]), 1),
                f"strata, {threads} threads": schedule(order, bounds, threads)}
        if r == 1:
            print(f"segments of the {threads}-thread schedule: {sizes.min():,}-{sizes.max():,} cells "
                  f"(largest over mean {sizes.max() / sizes.mean():.3f})", flush=True)
            small = [a.copy() for a in start]  # compile the loop on 1,000 cells
            fit_strata(rows, cols, log_x, weight, one[:1000], np.array([0, 1000]), 1, *small, 0.05, 100.0)
        for name, run in runs.items():
            params = [a.copy() for a in start]
            t = time.perf_counter()
            cost = run(params)
            dt = time.perf_counter() - t
            seconds.setdefault(name, []).append(dt)
            print(f"round {r}: {name}: {n / dt:,.0f} cells/s ({dt:.1f} s), mean cost {cost / n:.6f}", flush=True)
    best = {name: min(s) for name, s in seconds.items()}
    one, many = best.values()
    print(f"\nbest of {args.rounds}: strata on {threads} threads {one / many:.2f}x one thread's cells/s")


if __name__ == "__main__":
    main()
