"""GloVe's cell loop on the corpus's own co-occurrences, three ways in one run: this checkout's stratified schedule
(DSGD) on one thread and on ``--threads`` threads, and another revision's lock-free loop (``glove.c``'s Hogwild
threads) on as many, one epoch each from ``glove.c``'s initialisation, alternating, ``--rounds`` times.

Usage (after ``dvc repro vocab``; the full corpus needs about 6 GB of memory):
    python benchmarks/glove_speed.py --lock-free REV [--rounds 2] [--threads 2] [--dim 300]

Prints each epoch's cells/s, seconds and mean cost, and the ratios that matter: the schedule's cells/s on T threads
over one thread's, and the lock-free loop's wall time over the schedule's. ``REV`` is a revision whose
``src/sentemb/wordvectors/glove.py`` holds the lock-free ``_fit_cells`` (the last one before the schedule), read
with ``git show`` into a scratch module (its imports resolve to this checkout's package). Measures, asserts nothing.
"""

import argparse
import importlib.util
import itertools
import subprocess
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.wordvectors.cooccurrence import cooccurrence_matrix
from sentemb.wordvectors.glove import cell_inputs, cell_parameters
from sentemb.wordvectors.glove_inner import fit_strata, stratify, word_groups


def lock_free_loop(rev: str):
    """The lock-free ``_fit_cells`` of revision ``rev``."""
    source = subprocess.run(["git", "show", f"{rev}:src/sentemb/wordvectors/glove.py"], capture_output=True,
                            text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / f"glove_{rev.replace('/', '_')}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module._fit_cells


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("data"))
    ap.add_argument("--lock-free", required=True, help="a revision with the lock-free loop (_fit_cells)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--x-max", type=float, default=100.0, help="f(X)'s x_max (params.yaml pretrain.glove)")
    ap.add_argument("--alpha", type=float, default=0.75, help="f(X)'s alpha (params.yaml pretrain.glove)")
    args = ap.parse_args()
    lock_free = lock_free_loop(args.lock_free)
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
                f"strata, {threads} threads": schedule(order, bounds, threads),
                f"lock-free, {threads} threads": lambda p, o=one: lock_free(rows, cols, log_x, weight, o, *p, 0.05,
                                                                            100.0, threads)}
        if r == 1:
            print(f"segments of the {threads}-thread schedule: {sizes.min():,}-{sizes.max():,} cells "
                  f"(largest over mean {sizes.max() / sizes.mean():.3f})", flush=True)
            small = [a.copy() for a in start]  # compile both loops on 1,000 cells
            fit_strata(rows, cols, log_x, weight, one[:1000], np.array([0, 1000]), 1, *small, 0.05, 100.0)
            lock_free(rows, cols, log_x, weight, one[:1000], *small, 0.05, 100.0, threads)
        for name, run in runs.items():
            params = [a.copy() for a in start]
            t = time.perf_counter()
            cost = run(params)
            dt = time.perf_counter() - t
            seconds.setdefault(name, []).append(dt)
            print(f"round {r}: {name}: {n / dt:,.0f} cells/s ({dt:.1f} s), mean cost {cost / n:.6f}", flush=True)
    best = {name: min(s) for name, s in seconds.items()}
    one, many, free = best.values()
    print(f"\nbest of {args.rounds}: strata on {threads} threads {one / many:.2f}x one thread's cells/s; the lock-free "
          f"loop's wall time {free / many:.2f}x the strata's (strata over lock-free: {many / free:.2f}x)")


if __name__ == "__main__":
    main()
