"""GloVe's co-occurrence counts (``cooccur.c``) and its shuffled cell file (``shuffle.c``), in bounded memory.

Counting (Pennington et al. 2014, §3; ``cooccur.c`` with ``symmetric=1``, ``distance_weighting=1``): for every pair
of tokens of one sentence at distance d ≤ window, X[a, b] and X[b, a] each gain 1/d. The counts are kept as exact
integers in units of 1/L, L = lcm(1, …, window) (every increment 1/d is the integer L/d), so that chunks of the corpus
and runs spilled to disk add up to the same bits in any order; X leaves as float32 (X·L)/L.

In bounded memory (:func:`cooccurrence_cells` with ``memory_bytes``), as ``cooccur -memory`` and
``shuffle -memory`` do: the corpus is counted a chunk of sentences at a time; when the running total outgrows its
share of the budget it is written to disk as a sorted run and counting starts afresh; the runs are then merged a
block of rows at a time and each non-zero cell is sent to one of B files ("buckets") drawn at random. The fit visits
the buckets in a random order and each bucket's cells in a random order (:class:`CooccurrenceCells`): a two-level
shuffle, as ``shuffle.c``'s shuffled chunks. When everything fits, there is one block in memory and the fit draws a
full permutation of the cells every epoch.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from tqdm.auto import tqdm

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.errors import SentembError

CELL = np.dtype([("row", "<i4"), ("col", "<i4"), ("x", "<f4")])
"""One non-zero cell of X as the bucket files hold it: word i, context word j, X_ij (12 bytes)."""

FIT_BYTES_PER_CELL = 40
"""What the fit holds per cell of the block it visits: the bucket's record (12), then i and j (int32), log X_ij and
f(X_ij) (float64) and the visiting order (int32)."""

_COUNT_BYTES_PER_CELL = 12  # int32 column index + int64 count in a CSR matrix
_MERGE_BYTES_PER_CELL = 48  # a row block of the merge at its peak, per cell of the summed runs: the sum and the one
# before it (12 + 12), its coordinates (16) beside the records (12), the bucket draws and their order (8 + 8); measured
# by tracemalloc: 37 bytes on the run's corpus (a one-off study: 0.77 of this), 39-40 on the small data of
# tests/test_glove.py; the rest a margin
_CHUNK_BYTES_PER_PAIR = 80  # one (centre, context) pair while a chunk is counted: ids, counts, CSR, transpose, sum


def count_scale(window: int) -> int:
    """L = lcm(1, …, window): the counts are integers in units of 1/L (``window`` 10: 2,520)."""
    return math.lcm(*range(1, window + 1))


def _check(corpus: TokenCorpus, window: int) -> tuple[np.ndarray, int]:
    if window < 1:
        raise SentembError(f"glove window must be at least 1 (got {window})")
    offsets = np.asarray(corpus.offsets)
    if int(offsets[-1]) == 0:
        raise SentembError("glove: the corpus has no in-vocabulary token")
    return offsets, int(offsets[-1])


def _chunks(offsets: np.ndarray, n_tokens: int, chunk_tokens: int) -> list[tuple[int, int]]:
    """Sentence ranges [s0, s1) of about ``chunk_tokens`` tokens each, cut at sentence starts."""
    bounds = np.unique(np.searchsorted(offsets, np.arange(0, n_tokens, max(1, chunk_tokens)), side="right") - 1)
    bounds = np.append(bounds, len(offsets) - 1)
    return [(s0, s1) for s0, s1 in itertools.pairwise(bounds.tolist()) if offsets[s1] > offsets[s0]]


def _chunk_counts(corpus: TokenCorpus, s0: int, s1: int, vocab_size: int, window: int, scale: int) -> sp.csr_matrix:
    """The counts of sentences [s0, s1), int64 in units of 1/``scale``, symmetric, shape (V, V)."""
    a, b = int(corpus.offsets[s0]), int(corpus.offsets[s1])
    ids = np.asarray(corpus.token_ids[a:b], dtype=np.int32)
    sentence = corpus.sentence_index(s0, s1)
    rows, cols, vals = [], [], []
    for d in range(1, window + 1):
        same = sentence[d:] == sentence[:-d]
        rows.append(ids[d:][same])  # the centre word
        cols.append(ids[:-d][same])  # its left context at distance d
        vals.append(np.full(int(same.sum()), scale // d, dtype=np.int64))
    del sentence
    r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    del rows, cols, vals
    left = sp.coo_matrix((v, (r, c)), shape=(vocab_size, vocab_size)).tocsr()
    del r, c, v
    return left + left.T.tocsr()


def _to_float(counts: sp.csr_matrix, scale: int) -> np.ndarray:
    return (counts.data / scale).astype(np.float32)


def cooccurrence_matrix(
    corpus: TokenCorpus, vocab_size: int, window: int, chunk_tokens: int = 10_000_000, progress: bool = False
) -> sp.csr_matrix:
    """X in memory: symmetric, distance-weighted word-word co-occurrence counts (GloVe §3, ``cooccur.c``).

    Windows do not cross sentence boundaries. The chunking changes nothing in the result (exact integer counts).

    Args:
        corpus: token ids with sentence offsets.
        vocab_size: V; every id must be in [0, V).
        window: the largest distance counted (the NWS paper's GloVe used 10).
        chunk_tokens: about how many tokens are counted at once (memory ≈ 80 bytes × window × chunk_tokens).

    Returns:
        float32 CSR matrix, shape (V, V), symmetric, canonical (sorted, no duplicates).

    Raises:
        SentembError: ``window`` < 1, or a corpus with no token.
    """
    offsets, n_tokens = _check(corpus, window)
    scale = count_scale(window)
    total = sp.csr_matrix((vocab_size, vocab_size), dtype=np.int64)
    for s0, s1 in tqdm(_chunks(offsets, n_tokens, chunk_tokens), desc="co-occurrence", unit="chunk",
                       disable=not progress):
        total = total + _chunk_counts(corpus, s0, s1, vocab_size, window, scale)
    total.sum_duplicates()
    return sp.csr_matrix((_to_float(total, scale), total.indices, total.indptr), shape=total.shape)


@dataclass
class CooccurrenceCells:
    """X's non-zero cells in blocks that the fit visits one at a time.

    Either one block in memory (``matrix``, a scipy sparse matrix whose COO order is the block's) or ``len(buckets)``
    files of :data:`CELL` records on disk, a random partition of the cells (each cell's bucket drawn uniformly), each
    small enough for the fit's budget.

    Attributes:
        vocab_size: V.
        n_cells: the number of non-zero cells.
        runs: how many sorted runs the counting spilled to disk (0: it fitted in memory).
    """

    vocab_size: int
    n_cells: int
    matrix: sp.spmatrix | None = None
    buckets: list[Path] = field(default_factory=list)
    runs: int = 0

    @property
    def n_blocks(self) -> int:
        return 1 if self.matrix is not None else len(self.buckets)

    def block(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Block ``k``: ``(rows, cols, x)``, int32, int32, float32, each shape (cells of the block,), contiguous."""
        if self.matrix is not None:
            coo = self.matrix.tocoo()
            return (coo.row.astype(np.int32, copy=False), coo.col.astype(np.int32, copy=False),
                    coo.data.astype(np.float32, copy=False))
        cells = np.fromfile(self.buckets[k], dtype=CELL)
        return (np.ascontiguousarray(cells["row"]), np.ascontiguousarray(cells["col"]),
                np.ascontiguousarray(cells["x"]))

    def cells_per_row(self) -> np.ndarray:
        """The non-zero cells of each word's row of X: int64, shape (V,) (a pass over the blocks on disk)."""
        if self.matrix is not None:
            return np.bincount(self.matrix.tocoo().row, minlength=self.vocab_size).astype(np.int64)
        counts = np.zeros(self.vocab_size, dtype=np.int64)
        for path in self.buckets:
            counts += np.bincount(np.fromfile(path, dtype=CELL)["row"], minlength=self.vocab_size)
        return counts

    def to_matrix(self) -> sp.csr_matrix:
        """All cells as one float32 CSR matrix (V, V), canonical: for tests and small corpora."""
        if self.matrix is not None:
            return sp.csr_matrix(self.matrix)
        blocks = [self.block(k) for k in range(self.n_blocks)]
        rows, cols, x = (np.concatenate(parts) for parts in zip(*blocks, strict=True))
        out = sp.csr_matrix((x, (rows, cols)), shape=(self.vocab_size, self.vocab_size))
        out.sum_duplicates()
        return out


def _save_run(total: sp.csr_matrix, folder: Path, k: int) -> Path:
    total.sum_duplicates()  # canonical: sorted column indices, no duplicates
    run = folder / f"run-{k:04d}"
    run.mkdir()
    for name in ("indptr", "indices", "data"):
        np.save(run / f"{name}.npy", getattr(total, name))
    return run


def _open_run(run: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return tuple(np.load(run / f"{name}.npy", mmap_mode="r") for name in ("indptr", "indices", "data"))


def _row_blocks(runs: list[tuple[np.ndarray, ...]], vocab_size: int, capacity: int) -> Iterator[tuple[int, int]]:
    """Row ranges [r0, r1) whose cells, summed over the runs, number at most ``capacity`` (at least one row)."""
    per_row = np.zeros(vocab_size, dtype=np.int64)
    for indptr, _, _ in runs:
        per_row += np.diff(np.asarray(indptr))
    ends = np.cumsum(per_row)
    r0 = 0
    while r0 < vocab_size:
        before = ends[r0 - 1] if r0 else 0
        r1 = max(r0 + 1, int(np.searchsorted(ends, before + capacity, side="right")))
        yield r0, min(r1, vocab_size)
        r0 = r1


def _rows_of(run: tuple[np.ndarray, ...], r0: int, r1: int, vocab_size: int) -> sp.csr_matrix:
    indptr, indices, data = run
    a, b = int(indptr[r0]), int(indptr[r1])
    return sp.csr_matrix((np.asarray(data[a:b]), np.asarray(indices[a:b]), np.asarray(indptr[r0 : r1 + 1]) - a),
                         shape=(r1 - r0, vocab_size))


def cooccurrence_cells(
    corpus: TokenCorpus,
    vocab_size: int,
    window: int,
    *,
    memory_bytes: int,
    block_cells: int,
    scratch: Path,
    seed: int,
    progress: bool = False,
) -> CooccurrenceCells:
    """X's non-zero cells counted within ``memory_bytes`` and cut into blocks of at most ``block_cells`` cells.

    The counts equal :func:`cooccurrence_matrix`'s bit for bit whatever the budget (exact integer sums). When the
    running total and a chunk fit the budget and the cells fit one block, nothing touches the disk.

    Args:
        corpus, vocab_size, window: as :func:`cooccurrence_matrix`.
        memory_bytes: the most the counting's arrays may take: a chunk of sentences while it is counted (≈ 80 bytes
            × window × its tokens) beside the running total (12 bytes a cell), spilled at a quarter of the budget.
        block_cells: the most cells a block may hold (the fit's budget over :data:`FIT_BYTES_PER_CELL`).
        scratch: an existing folder for the runs and buckets; the caller removes it.
        seed: the seed of the bucket draws.

    Returns:
        the cells, in memory or in bucket files under ``scratch``.

    Raises:
        SentembError: as :func:`cooccurrence_matrix`; a budget too small to count one sentence at a time.
    """
    offsets, n_tokens = _check(corpus, window)
    scale = count_scale(window)
    chunk_tokens = memory_bytes // (2 * _CHUNK_BYTES_PER_PAIR * window)
    longest = int(np.diff(offsets).max())
    if chunk_tokens < max(1, longest):
        raise SentembError(f"glove: a memory budget of {memory_bytes:,} bytes cannot count the longest sentence "
                           f"({longest} tokens, about {2 * _CHUNK_BYTES_PER_PAIR * window * longest:,} bytes)")
    spill_at = memory_bytes // 4
    runs: list[Path] = []
    total = sp.csr_matrix((vocab_size, vocab_size), dtype=np.int64)
    chunks = _chunks(offsets, n_tokens, chunk_tokens)
    for s0, s1 in tqdm(chunks, desc="co-occurrence", unit="chunk", disable=not progress):
        total = total + _chunk_counts(corpus, s0, s1, vocab_size, window, scale)
        if total.nnz * _COUNT_BYTES_PER_CELL > spill_at:
            runs.append(_save_run(total, scratch, len(runs)))
            total = sp.csr_matrix((vocab_size, vocab_size), dtype=np.int64)
    if not runs:
        total.sum_duplicates()
        if total.nnz <= block_cells:
            matrix = sp.csr_matrix((_to_float(total, scale), total.indices, total.indptr), shape=total.shape)
            return CooccurrenceCells(vocab_size, total.nnz, matrix=matrix)
    if total.nnz:
        runs.append(_save_run(total, scratch, len(runs)))
    del total
    return _merge_into_buckets(runs, vocab_size, scale, memory_bytes, block_cells, scratch, seed, progress)


def _merge_into_buckets(runs: list[Path], vocab_size: int, scale: int, memory_bytes: int, block_cells: int,
                        scratch: Path, seed: int, progress: bool) -> CooccurrenceCells:
    """Sum the runs a block of rows at a time and deal the cells out to random buckets (``shuffle.c``'s role)."""
    opened = [_open_run(run) for run in runs]
    most_cells = sum(len(indices) for _, indices, _ in opened)  # an upper bound: the runs overlap
    n_buckets = max(1, math.ceil(most_cells / block_cells))
    buckets = [scratch / f"bucket-{b:04d}.cells" for b in range(n_buckets)]
    rng = np.random.default_rng(seed)
    n_cells = 0
    capacity = max(1, memory_bytes // _MERGE_BYTES_PER_CELL)
    with contextlib.ExitStack() as stack:
        files = [stack.enter_context(open(path, "wb")) for path in buckets]
        blocks = list(_row_blocks(opened, vocab_size, capacity))
        for r0, r1 in tqdm(blocks, desc="co-occurrence merge", unit="block", disable=not progress):
            part = _rows_of(opened[0], r0, r1, vocab_size)
            for run in opened[1:]:
                part = part + _rows_of(run, r0, r1, vocab_size)
            part = part.tocoo()
            cells = np.empty(part.nnz, dtype=CELL)
            cells["row"] = part.row
            cells["row"] += r0
            cells["col"] = part.col
            np.divide(part.data, scale, out=cells["x"], casting="unsafe")  # float64 quotient rounded to float32
            n_cells += part.nnz
            del part
            draw = rng.integers(n_buckets, size=len(cells))
            order = np.argsort(draw, kind="stable")
            starts = np.searchsorted(draw[order], np.arange(n_buckets + 1))
            del draw
            for b in range(n_buckets):
                cells[order[starts[b] : starts[b + 1]]].tofile(files[b])
    for run in runs:
        for name in ("indptr", "indices", "data"):
            (run / f"{name}.npy").unlink()
        run.rmdir()
    return CooccurrenceCells(vocab_size, n_cells, buckets=buckets, runs=len(runs))
