"""How much of its memory budget the ``glove`` stage's arrays take, phase by phase, on the run's own corpus.

Usage (after ``dvc repro vocab``):
    python benchmarks/glove_memory.py [--sentences 400000] [--budget-mib 300] [--dim 20]

The budget is what :func:`sentemb.wordvectors.glove.fit_glove` gives the arrays (``memory_gib`` less the runtime's
share); a small one on the first ``--sentences`` sentences forces the paths a full corpus takes at ``memory_gib: 4``:
counting in chunks, spilling runs, merging them into shuffled buckets, fitting block by block. Then it counts again
with room for one block exactly the size of the cells and fits that (the in-memory path). tracemalloc sees every NumPy
and SciPy buffer: the anonymous memory the budget is for (not the interpreter and libraries, ``RUNTIME_BYTES``, nor
the pages of memory-mapped files, which the kernel reclaims). One epoch, one thread, after a warm-up that compiles the
loop. Prints each phase's peak as a fraction of what it may take. Memory figures do not depend on the machine's load.
``tests/test_glove.py::test_counting_and_the_fit_stay_within_their_memory_budget`` holds the same bounds on small data.
"""

import argparse
import tempfile
import tracemalloc
from pathlib import Path

import torch
import yaml

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.wordvectors import cooccurrence
from sentemb.wordvectors.config import GloveConfig
from sentemb.wordvectors.glove import parameter_bytes, train_glove


def traced(peaks: dict, phase: str, run):
    """``run()``, recording in ``peaks[phase]`` the most bytes of arrays it held beyond those alive before it."""
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    out = run()
    peaks[phase] = tracemalloc.get_traced_memory()[1] - base
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=Path("data/corpus"))
    ap.add_argument("--vocab", type=Path, default=Path("data/vocab.tsv"))
    ap.add_argument("--sentences", type=int, default=400_000, help="the first N sentences of the corpus")
    ap.add_argument("--budget-mib", type=float, default=300, help="the arrays' budget (memory_gib less the runtime)")
    ap.add_argument("--dim", type=int, default=20, help="the vectors' dimension (the bytes a cell do not depend on it)")
    args = ap.parse_args()
    whole = TokenCorpus.load(args.corpus)
    n = min(args.sentences, whole.n_sentences)
    end = int(whole.offsets[n])
    corpus = TokenCorpus(whole.token_ids[:end], whole.offsets[: n + 1], whole.document_ids[:n])
    vocab_size = len(Vocabulary.load(args.vocab))
    section = yaml.safe_load(Path("params.yaml").read_text(encoding="utf-8"))["pretrain"]["glove"]
    config = GloveConfig.model_validate(section | {"vector_size": args.dim, "epochs": 1, "threads": 1})
    budget = int(args.budget_mib * 2**20)
    fixed = parameter_bytes(vocab_size, config.vector_size, config.precision)
    block_cells = (budget - fixed) // cooccurrence.FIT_BYTES_PER_CELL
    if block_cells <= 0:
        raise SystemExit(f"--budget-mib {args.budget_mib} does not hold the parameters ({fixed / 2**20:.0f} MiB)")
    print(f"{n:,} sentences, {end:,} tokens, V {vocab_size:,}, window {config.window}, {config.vector_size} d "
          f"{config.precision}; budget {budget / 2**20:.0f} MiB, of which parameters {fixed / 2**20:.0f} MiB\n")
    peaks: dict[str, int] = {}
    cpu = torch.device("cpu")
    merge = cooccurrence._merge_into_buckets

    def traced_merge(*a, **k):
        peaks["counting"] = tracemalloc.get_traced_memory()[1] - start  # the chunks and spills, up to the merge
        return traced(peaks, "merge", lambda: merge(*a, **k))

    cooccurrence._merge_into_buckets = traced_merge
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    with tempfile.TemporaryDirectory() as scratch:
        cells = traced(peaks, "all", lambda: cooccurrence.cooccurrence_cells(
            corpus, vocab_size, config.window, memory_bytes=budget, block_cells=block_cells, scratch=Path(scratch),
            seed=config.seed))
        train_glove(cells, config, cpu)  # a first epoch compiles the loop (the runtime's memory, not the budget's)
        traced(peaks, "fit", lambda: train_glove(cells, config, cpu))
        largest = max(len(cells.block(k)[0]) for k in range(cells.n_blocks))
        print(f"{cells.n_cells:,} cells: {cells.runs} runs spilled, {cells.n_blocks} blocks of at most "
              f"{block_cells:,} budgeted")
    rows = [("counting: chunks and spilled runs", peaks.get("counting", peaks["all"]), budget),
            ("merging the runs into shuffled buckets", peaks.get("merge", 0), budget),
            (f"fit, {cells.n_blocks} blocks (largest {largest:,} cells)", peaks["fit"],
             fixed + block_cells * cooccurrence.FIT_BYTES_PER_CELL)]
    with tempfile.TemporaryDirectory() as scratch:
        one = cooccurrence.cooccurrence_cells(corpus, vocab_size, config.window, memory_bytes=2**40,
                                              block_cells=cells.n_cells, scratch=Path(scratch), seed=config.seed)
        matrix = one.matrix.data.nbytes + one.matrix.indices.nbytes + one.matrix.indptr.nbytes
        traced(peaks, "one block", lambda: train_glove(one, config, cpu))
        rows.append((f"fit, one block in memory ({one.n_cells:,} cells, its matrix included)",
                     matrix + peaks["one block"], fixed + one.n_cells * cooccurrence.FIT_BYTES_PER_CELL))
    print("\n| phase | peak of arrays | may take | fraction |\n|---|---:|---:|---:|")
    for phase, peak, bound in rows:
        print(f"| {phase} | {peak / 2**20:,.0f} MiB | {bound / 2**20:,.0f} MiB | {peak / bound:.2f} |")



if __name__ == "__main__":
    main()
