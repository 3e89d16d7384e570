"""GloVe's cell loop (``_fit_cells``, ``glove.c``'s per-cell AdaGrad) of this checkout against another revision's, on
the corpus's own co-occurrences: one command that prints both sides.

Usage (after ``dvc repro vocab``; the full corpus needs about 6 GB of memory):
    python benchmarks/glove_speed.py --against REV [--rounds 1] [--cells-one-thread 5000000]

It counts the co-occurrences as the ``glove`` stage does (window 10; about 75 s on the full corpus), then
1. on one thread, runs both loops over the same first ``--cells-one-thread`` cells of one shuffled order from
   ``glove.c``'s initialisation, prints each one's cells/s and checks that they wrote the same bytes (one thread is
   deterministic; a change that only schedules memory traffic must give the same floats);
2. on ``--threads`` threads (default 2, the stage's), one full shuffled epoch each, alternating, ``--rounds`` times,
   and prints each epoch's cells/s, seconds and mean cost (the lock-free threads' race makes the costs differ in the
   last digits).

The other revision's ``src/sentemb/wordvectors/glove.py`` is read with ``git show REV:...`` into a scratch module
(its imports resolve to this checkout's package, so REV must have the same package layout: ``src/sentemb/core``;
the loop itself is self-contained). Measures, asserts nothing.
"""

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.wordvectors.cooccurrence import cooccurrence_matrix
from sentemb.wordvectors.glove import _fit_cells, cell_inputs, cell_parameters


def _other_loop(rev: str):
    """``_fit_cells`` of revision ``rev`` (a git revision of this repository)."""
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
    ap.add_argument("--against", required=True, help="a git revision with this package layout (src/sentemb/core)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cells-one-thread", type=int, default=5_000_000)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--x-max", type=float, default=100.0, help="f(X)'s x_max (params.yaml pretrain.glove)")
    ap.add_argument("--alpha", type=float, default=0.75, help="f(X)'s alpha (params.yaml pretrain.glove)")
    args = ap.parse_args()
    loops = {args.against: _other_loop(args.against), "this checkout": _fit_cells}
    corpus = TokenCorpus.load(args.data / "corpus")
    vocab_size = len(Vocabulary.load(args.data / "vocab.tsv"))
    t = time.perf_counter()
    coo = cooccurrence_matrix(corpus, vocab_size, window=10).tocoo()
    print(f"{coo.nnz:,} co-occurrence cells, {vocab_size:,} words, counted in {time.perf_counter() - t:.0f} s",
          flush=True)
    rows, cols, log_x, weight = cell_inputs(coo.row, coo.col, coo.data, args.x_max, args.alpha)
    del coo
    start = cell_parameters(vocab_size, args.dim, 1)

    def fresh() -> list[np.ndarray]:
        return [a.copy() for a in start]

    n = len(rows)
    rng = np.random.default_rng(1)
    order = rng.permutation(n).astype(np.int32)[: args.cells_one_thread]
    numba.set_num_threads(1)
    results = {}
    for name, loop in loops.items():
        loop(rows, cols, log_x, weight, order[:1000], *fresh(), 0.05, 100.0, 1)  # compile
        params = fresh()
        t = time.perf_counter()
        cost = loop(rows, cols, log_x, weight, order, *params, 0.05, 100.0, 1)
        print(f"1 thread, {len(order):,} cells: {name}: {len(order) / (time.perf_counter() - t):,.0f} cells/s, "
              f"summed cost {cost!r}", flush=True)
        results[name] = (cost, params)
    (c0, p0), (c1, p1) = results.values()
    same = c0 == c1 and all(np.array_equal(a, b) for a, b in zip(p0, p1, strict=True))
    print(f"the same bytes on one thread: {same}", flush=True)
    del results, p0, p1
    numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))
    threads = numba.get_num_threads()
    for r in range(1, args.rounds + 1):
        order = rng.permutation(n).astype(np.int32)
        for name, loop in loops.items():
            params = fresh()
            t = time.perf_counter()
            cost = loop(rows, cols, log_x, weight, order, *params, 0.05, 100.0, threads)
            dt = time.perf_counter() - t
            print(f"round {r}, {threads} threads, one epoch of {n:,} cells: {name}: {n / dt:,.0f} cells/s "
                  f"({dt:.0f} s), mean cost {cost / n:.6f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
