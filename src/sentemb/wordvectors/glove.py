"""GloVe (Pennington, Socher & Manning 2014): the weighted least-squares fit, and :func:`fit_glove`, the whole of it
within a memory budget.

No maintained Python package trains GloVe, so this is our own, following the reference C implementation
(``cooccur.c``, ``shuffle.c`` and ``glove.c`` of https://github.com/stanfordnlp/GloVe):

- :mod:`sentemb.wordvectors.cooccurrence` counts X_ij (``cooccur.c``) and, when the budget asks for it, spills the
  counts to disk and deals the cells out to shuffled blocks (``cooccur -memory``, ``shuffle -memory``).
- :func:`train_glove` minimises J = Σ_{X_ij>0} f(X_ij) (w_i·w̃_j + b_i + b̃_j − log X_ij)² (GloVe §3, Eq. 8) with
  f(x) = min(1, (x/x_max)^α) (Eq. 9), by ``glove.c``'s AdaGrad (η inside the accumulated square, no η for the
  biases, gradient clipping): on the CPU ``glove.c``'s per-cell loop compiled with numba
  (:mod:`sentemb.wordvectors.glove_inner`), its threads on a stratified schedule that gives the same bytes every run
  (DSGD, Gemulla et al. 2011), on a GPU vectorised over
  shuffled mini-batches of non-zero cells with the gradients written out in closed form. Initialisation and the
  saved vectors follow ``glove.c``: weights uniform in [−0.5, 0.5]/dim, AdaGrad accumulators starting at 1, and the
  output vectors w + w̃ (``model=2``).
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import torch
from tqdm.auto import tqdm

from sentemb.core.atomic import scratch_folder
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.evaluation.word_similarity import word_similarity, word_similarity_rows
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.runtime.device import resolve_device
from sentemb.core.runtime.threads import numba_threads
from sentemb.wordvectors.config import GloveConfig
from sentemb.wordvectors.cooccurrence import FIT_BYTES_PER_CELL, CooccurrenceCells, cooccurrence_cells
from sentemb.wordvectors.glove_inner import fit_strata, stratify, word_groups

log = logging.getLogger(__name__)


def glove_weight(x: np.ndarray, x_max: float, alpha: float) -> np.ndarray:
    """f(x) = min(1, x / x_max)^α (GloVe Eq. 9), float64 of the same shape as x (one new array: computed in place)."""
    weight = np.array(x, dtype=np.float64)
    np.divide(weight, x_max, out=weight)
    np.minimum(weight, 1.0, out=weight)
    return np.power(weight, alpha, out=weight)


def _exclusive_cumsum_by_row(index: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """For each entry k, the sum of ``values`` over the earlier entries (in batch order) with the same ``index``.

    Args:
        index: int64, shape (B,).
        values: float, shape (B,) or (B, d).

    Returns:
        the same shape as ``values``; 0 for the first occurrence of each index.
    """
    order = torch.argsort(index, stable=True)
    sorted_values = values.index_select(0, order)
    before = sorted_values.cumsum(0) - sorted_values  # over every earlier entry of the sorted batch
    sorted_index = index.index_select(0, order)
    starts = torch.ones_like(sorted_index, dtype=torch.bool)
    starts[1:] = sorted_index[1:] != sorted_index[:-1]
    segment = starts.cumsum(0) - 1
    before = before - before[starts].index_select(0, segment)  # minus what the earlier rows contributed
    return torch.empty_like(values).index_copy_(0, order, before)


def _adagrad_step(param: torch.Tensor, accumulator: torch.Tensor, index: torch.Tensor, scaled_grad: torch.Tensor):
    """``glove.c``'s AdaGrad for the cells of a batch, in batch order (src/glove.c, ``glove_thread``).

    Cell k with row r: θ_r −= u_k / √G_r, then G_r += u_k², where u_k is the clipped gradient times η for the word
    vectors (``temp1``/``temp2``, lines 209-217) and the plain gradient ``fdiff`` for the biases (lines 227-231).
    A row that occurs several times in the batch sees G_r grown by its earlier cells, as in the sequential loop;
    only the gradients are computed from the parameters as they were at the start of the batch.
    """
    squares = scaled_grad.square()
    grown = accumulator.index_select(0, index).add_(_exclusive_cumsum_by_row(index, squares))
    param.index_add_(0, index, scaled_grad.div_(grown.sqrt_()), alpha=-1.0)
    accumulator.index_add_(0, index, squares)


def glove_initial_parameters(vocab_size: int, dim: int, seed: int) -> dict[str, torch.Tensor]:
    """``glove.c``'s initialisation (``initialize_parameters``): every weight and bias uniform in [−0.5, 0.5]/dim.

    Returns:
        ``{"w", "w_ctx"}``: float32 (V, dim); ``{"b", "b_ctx"}``: float32 (V,), drawn in that order from a
        generator seeded with ``seed``.
    """
    gen = torch.Generator(device="cpu").manual_seed(seed)
    shapes = {"w": (vocab_size, dim), "w_ctx": (vocab_size, dim), "b": (vocab_size,), "b_ctx": (vocab_size,)}
    return {name: (torch.rand(*shape, generator=gen) - 0.5) / dim for name, shape in shapes.items()}


def train_glove(
    cooccurrence: sp.spmatrix | CooccurrenceCells,
    config: GloveConfig,
    device: torch.device,
    *,
    shuffle: bool = True,
    progress: bool = False,
    on_epoch: Callable[[int, float, np.ndarray], None] | None = None,
) -> tuple[np.ndarray, dict]:
    """Fit GloVe vectors to a co-occurrence matrix by AdaGrad exactly as ``glove.c`` (GloVe §3 and §4.2).

    Per non-zero cell (i, j), with diff = w_i·w̃_j + b_i + b̃_j − log X_ij and fdiff = f(X_ij)·diff
    (src/glove.c lines 191-194): u = clip(fdiff·w̃_j, ±grad_clip)·η, w_i −= u/√G_i, G_i += u² (and the same for w̃_j
    with w_i; lines 206-224); b_i −= fdiff/√G_b,i, G_b,i += fdiff² (no η, no clipping; lines 227-231); every
    accumulator starts at 1. Two ways to run it (``config.fit``):

    - ``cells`` (CPU): ``glove.c``'s loop itself, one cell after another, compiled with numba (:func:`fit_strata`),
      in ``config.precision`` (glove.c: float64). On ``config.threads`` = T > 1 threads, a stratified schedule
      (DSGD, :mod:`sentemb.wordvectors.glove_inner`): each block of cells is walked in T strata whose T segments
      share no row of w or w̃, one thread a segment, each segment in a seeded random order; the result depends on T
      and the seed alone. One thread visits the cells in one random permutation, as ``glove.c`` on one thread.
    - ``batches`` (any torch device, the GPU path): mini-batches of ``config.batch_size`` cells in float32; within a
      batch every accumulator evolves as in the sequential loop (:func:`_adagrad_step`) and the gradients use the
      parameters of the batch's start.
    - ``auto``: cells on the CPU, batches on CUDA.

    The cells come in blocks (:class:`~sentemb.wordvectors.cooccurrence.CooccurrenceCells`): each epoch visits the
    blocks in a random order and each block's cells in a random order; one block (a matrix in memory) is a full
    permutation of the cells each epoch. ``benchmarks/glove_vs_glove_c.py`` measures either fit against ``glove.c``.

    Args:
        cooccurrence: (V, V) positive counts: a matrix, as from
            :func:`~sentemb.wordvectors.cooccurrence.cooccurrence_matrix`, or its cells in blocks.
        config: the ``pretrain.glove`` section (:class:`~sentemb.wordvectors.config.GloveConfig`): dimension, f's
            x_max and α, η, the gradient clip, epochs (the paper: 50 below 300 d, 100 otherwise), the fit, its
            precision, threads, batch size and seed (initialisation and shuffles).
        device: the torch device of the batch fit.
        shuffle: visit the blocks and their cells in a new random order each epoch (``False``: in stored order every
            epoch, as ``glove.c`` reads its once-shuffled file).
        on_epoch: called as ``on_epoch(epoch, mean_cost, vectors)`` after every epoch (1-based; vectors float32
            (V, dim) = w + w̃).

    Returns:
        ``(vectors, stats)``: float32 (V, dim) = w + w̃ (``glove.c -model 2``), and a dict with the mean cost per
        epoch (``losses``, J / number of cells, as ``glove.c`` prints it), wall and CPU seconds of the fit (the
        ``on_epoch`` calls excluded), cells per second and the number of blocks.

    Raises:
        SentembError: a matrix that is not square, has entries ≤ 0, or is empty; the cell fit asked for on a GPU; a
            cost that is no longer finite.
    """
    fit = config.fit
    if fit == "auto":
        fit = "cells" if device.type == "cpu" else "batches"
    if fit == "cells" and device.type != "cpu":
        raise SentembError(f"glove: the cell fit runs on the CPU (device {device} asks for the batch fit)")
    cells = cooccurrence if isinstance(cooccurrence, CooccurrenceCells) else _in_memory(cooccurrence)
    if cells.n_cells == 0:
        raise SentembError("glove: the co-occurrence matrix is empty")
    if fit == "cells":
        vectors, losses, wall, cpu = _fit_by_cells(cells, config, shuffle, progress, on_epoch)
    else:
        vectors, losses, wall, cpu = _fit_by_batches(cells, config, shuffle, device, progress, on_epoch)
    n, epochs = cells.n_cells, config.epochs
    stats = {"method": fit, "losses": [round(v, 6) for v in losses], "cells": n, "blocks": cells.n_blocks,
             "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
             "cells_per_second": round(n * epochs / wall), "cells_per_cpu_second": round(n * epochs / cpu),
             "device": str(device) if fit == "batches" else f"cpu ({config.threads} threads, {config.precision})"}
    return vectors, stats


def _in_memory(matrix: sp.spmatrix) -> CooccurrenceCells:
    """A matrix as one block, its cells in its COO order (a COO matrix keeps the order it was given), checked: square,
    entries > 0."""
    coo = sp.coo_matrix(matrix)
    if coo.shape[0] != coo.shape[1]:
        raise SentembError(f"glove: co-occurrence matrix must be square (got {coo.shape})")
    if coo.nnz and coo.data.min() <= 0:
        raise SentembError("glove: co-occurrence counts must be positive")
    return CooccurrenceCells(coo.shape[0], coo.nnz, matrix=coo)


def _block_order(cells: CooccurrenceCells, shuffle: bool, draw: Callable[[int], np.ndarray]) -> list[int]:
    return draw(cells.n_blocks).tolist() if shuffle and cells.n_blocks > 1 else list(range(cells.n_blocks))


class _Clock:
    """Wall and CPU seconds of the fit, without the time spent in ``on_epoch``."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def excluding(self, call: Callable[[], None]) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        self.wall += time.perf_counter() - wall
        self.cpu += time.process_time() - cpu

    def elapsed(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def _end_of_epoch(epoch: int, epochs: int, mean_cost: float, lr: float, losses: list[float], clock: _Clock,
                  on_epoch, vectors: Callable[[], np.ndarray]) -> None:
    if not np.isfinite(mean_cost):
        raise SentembError(f"glove: the cost diverged in epoch {epoch} (lower lr, now {lr})")
    losses.append(mean_cost)
    log.info("glove epoch %d/%d: mean cost %.6f", epoch, epochs, mean_cost)
    if on_epoch is not None:
        clock.excluding(lambda: on_epoch(epoch, mean_cost, vectors()))


def cell_inputs(rows: np.ndarray, cols: np.ndarray, x: np.ndarray, x_max: float, alpha: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The cell loop's view of a block of cells (:func:`~sentemb.wordvectors.glove_inner.fit_strata`).

    Args:
        rows, cols, x: i, j and X_ij of each cell, shape (n,).
        x_max, alpha: the weighting f (:func:`glove_weight`).

    Returns:
        ``(rows, cols, log_x, weight)``: int32 i and j, float64 log X_ij and f(X_ij), each shape (n,), contiguous.
    """
    return (np.ascontiguousarray(rows, dtype=np.int32), np.ascontiguousarray(cols, dtype=np.int32),
            np.log(x, dtype=np.float64), glove_weight(x, x_max, alpha))  # no float64 copy of x beside them


def cell_parameters(vocab_size: int, dim: int, seed: int, precision: str = "float64") -> list[np.ndarray]:
    """glove.c's starting point as the cell loop takes it: ``[w, w̃, b, b̃, G_w, G_w̃, G_b, G_b̃]`` in ``precision``
    (glove.c's ``real``: float64), the vectors (V, dim) and biases (V,) of :func:`glove_initial_parameters`, the
    AdaGrad sums at 1 as in glove.c."""
    params = {k: v.numpy().astype(precision) for k, v in glove_initial_parameters(vocab_size, dim, seed).items()}
    w, w_ctx, b, b_ctx = params["w"], params["w_ctx"], params["b"], params["b_ctx"]
    return [w, w_ctx, b, b_ctx, np.ones_like(w), np.ones_like(w_ctx), np.ones_like(b), np.ones_like(b_ctx)]


def parameter_bytes(vocab_size: int, dim: int, precision: str) -> int:
    """Bytes the cell fit holds besides its block of cells: w, w̃, G_w, G_w̃ (V, dim) and the four bias arrays (V,) in
    ``precision``, and the float32 output w + w̃ (V, dim)."""
    return (4 * vocab_size * dim + 4 * vocab_size) * np.dtype(precision).itemsize + 4 * vocab_size * dim


def _fit_by_cells(cells: CooccurrenceCells, config: GloveConfig, shuffle: bool, progress: bool, on_epoch):
    v, threads = cells.vocab_size, config.threads
    w, w_ctx, b, b_ctx, gw, gw_ctx, gb, gb_ctx = cell_parameters(v, config.vector_size, config.seed, config.precision)
    out = np.empty((v, config.vector_size), dtype=np.float32)

    def vectors() -> np.ndarray:
        return np.add(w, w_ctx, out=out, casting="same_kind")

    rng = np.random.default_rng(config.seed)
    epochs, lr = config.epochs, config.lr
    group = word_groups(cells.cells_per_row(), threads) if threads > 1 else None
    kept = cell_inputs(*cells.block(0), config.x_max, config.alpha) if cells.n_blocks == 1 else None
    losses: list[float] = []
    clock = _Clock()
    for epoch in tqdm(range(1, epochs + 1), desc="glove", unit="epoch", disable=not progress):
        cost = 0.0
        for k in _block_order(cells, shuffle, rng.permutation):
            rows, cols, log_x, weight = kept or cell_inputs(*cells.block(k), config.x_max, config.alpha)
            order, bounds = _visiting_order(rows, cols, group, threads, rng if shuffle else None)
            with numba_threads(threads):
                cost += fit_strata(rows, cols, log_x, weight, order, bounds, threads, w, w_ctx, b, b_ctx, gw, gw_ctx,
                                   gb, gb_ctx, lr, config.grad_clip)
            del rows, cols, log_x, weight, order
        _end_of_epoch(epoch, epochs, cost / cells.n_cells, lr, losses, clock, on_epoch, vectors)
    wall, cpu = clock.elapsed()
    return vectors(), losses, wall, cpu


def _visiting_order(rows: np.ndarray, cols: np.ndarray, group: np.ndarray | None, threads: int,
                    rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray]:
    """The order the cell fit visits a block's cells in: its strata's segments (:func:`stratify`), each shuffled by
    ``rng`` in segment order (None: storage order). One thread: the permutation ``rng.permutation(n)`` draws, made in
    int32, as ``glove.c``'s once-shuffled file."""
    n = len(rows)
    if threads == 1:
        order = rng.permutation(np.arange(n, dtype=np.int32)) if rng is not None else np.arange(n, dtype=np.int32)
        return order, np.array([0, n], dtype=np.int64)
    order, bounds = stratify(rows, cols, group, threads)
    if rng is not None:
        for start, end in itertools.pairwise(bounds.tolist()):
            rng.shuffle(order[start:end])
    return order, bounds


def _fit_by_batches(cells: CooccurrenceCells, config: GloveConfig, shuffle: bool, device: torch.device,
                    progress: bool, on_epoch):
    def block(k: int) -> tuple[torch.Tensor, ...]:
        rows, cols, x = cells.block(k)
        weight = glove_weight(x, config.x_max, config.alpha).astype(np.float32)
        return (torch.from_numpy(rows.astype(np.int64)).to(device), torch.from_numpy(cols.astype(np.int64)).to(device),
                torch.from_numpy(x).to(device).log(), torch.from_numpy(weight).to(device))

    epochs, lr, grad_clip, batch_size = config.epochs, config.lr, config.grad_clip, config.batch_size
    seed = config.seed
    params = {k: v.to(device) for k, v in glove_initial_parameters(cells.vocab_size, config.vector_size, seed).items()}
    w, w_ctx, b, b_ctx = params["w"], params["w_ctx"], params["b"], params["b_ctx"]
    gw, gw_ctx = torch.ones_like(w), torch.ones_like(w_ctx)  # AdaGrad accumulators, 1 as in glove.c
    gb, gb_ctx = torch.ones_like(b), torch.ones_like(b_ctx)
    gen = torch.Generator(device="cpu").manual_seed(seed)
    kept = block(0) if cells.n_blocks == 1 else None
    losses: list[float] = []
    clock = _Clock()
    for epoch in range(1, epochs + 1):
        cost = torch.zeros((), dtype=torch.float64, device=device)
        for k in _block_order(cells, shuffle, lambda n: torch.randperm(n, generator=gen)):
            rows, cols, log_x, weight = kept or block(k)
            n = rows.numel()
            order = torch.randperm(n, generator=gen).to(device) if shuffle else torch.arange(n, device=device)
            for start in tqdm(range(0, n, batch_size), desc=f"glove epoch {epoch}/{epochs}", unit="batch",
                              disable=not progress, mininterval=2.0):
                idx = order[start : start + batch_size]
                i, j = rows.index_select(0, idx), cols.index_select(0, idx)
                wi, wj = w.index_select(0, i), w_ctx.index_select(0, j)
                diff = (wi * wj).sum(1).add_(b.index_select(0, i)).add_(b_ctx.index_select(0, j))
                diff -= log_x.index_select(0, idx)
                fdiff = weight.index_select(0, idx).mul_(diff)
                cost += 0.5 * torch.dot(fdiff, diff).double()
                fd = fdiff[:, None]
                _adagrad_step(w, gw, i, wj.mul_(fd).clamp_(-grad_clip, grad_clip).mul_(lr))  # wj becomes u for w_i
                _adagrad_step(w_ctx, gw_ctx, j, wi.mul_(fd).clamp_(-grad_clip, grad_clip).mul_(lr))
                _adagrad_step(b, gb, i, fdiff.clone())
                _adagrad_step(b_ctx, gb_ctx, j, fdiff)
            del rows, cols, log_x, weight, order
        _end_of_epoch(epoch, epochs, float(cost) / cells.n_cells, lr, losses, clock, on_epoch,
                      lambda: (w + w_ctx).cpu().numpy())
    if device.type == "cuda":
        torch.cuda.synchronize()
    wall, cpu = clock.elapsed()
    return (w + w_ctx).cpu().numpy().astype(np.float32), losses, wall, cpu


RUNTIME_BYTES = 512 * 2**20
"""What the glove stage's interpreter and libraries (numpy, scipy, torch, numba) take outside the budgeted arrays."""

MIN_BLOCK_CELLS = 100_000
"""The fewest cells a block of the fit may hold (smaller blocks would mostly cost file reads)."""


def fit_glove(corpus: TokenCorpus, vocab: Vocabulary, config: GloveConfig, progress: bool = True,
              scratch: str | Path | None = None) -> tuple[WordVectors, dict, list[dict]]:
    """GloVe word vectors of the corpus within ``config.memory_gib``: the co-occurrence counts
    (:func:`~sentemb.wordvectors.cooccurrence.cooccurrence_cells`), the fit (:func:`train_glove`) and its learning
    curve.

    The budget, less :data:`RUNTIME_BYTES` for the interpreter and libraries, bounds the counting's arrays and, during
    the fit, the parameters (:func:`parameter_bytes`) plus one block of cells (40 bytes a cell); what does not fit is
    spilled to files in a scratch folder under ``scratch`` (None: the system's temporary folder), removed at the end.

    Returns:
        ``(vectors, stats)`` and the curve: the word vectors in vocabulary order; the fit's statistics with the
        counting's wall seconds (``cooccurrence_seconds``) and the runs it spilled (``spilled_runs``); one row per
        epoch: ``epoch``, mean ``cost`` and the Spearman ρ ×100 on SimLex-999 and WordSim-353
        (:func:`~sentemb.core.evaluation.word_similarity.word_similarity`).

    Raises:
        SentembError: a budget that cannot hold the parameters and some cells; as
            :func:`~sentemb.wordvectors.cooccurrence.cooccurrence_cells` and :func:`train_glove`.
    """
    budget = int(config.memory_gib * 2**30) - RUNTIME_BYTES
    fixed = parameter_bytes(len(vocab), config.vector_size, config.precision)
    block_cells = (budget - fixed) // FIT_BYTES_PER_CELL
    if block_cells < MIN_BLOCK_CELLS:
        need = (fixed + MIN_BLOCK_CELLS * FIT_BYTES_PER_CELL + RUNTIME_BYTES) / 2**30
        raise SentembError(f"glove: memory_gib {config.memory_gib} cannot hold the fit's {config.precision} parameters "
                           f"({len(vocab):,} words × {config.vector_size}: {fixed / 2**30:.2f} GiB) and a block of "
                           f"cells; it needs at least {need:.2f} GiB" +
                           (" (or precision float32)" if config.precision == "float64" else ""))
    rows = word_similarity_rows(vocab.words)  # the same scores as the whole vocabulary's
    curve: list[dict] = []

    def on_epoch(epoch: int, cost: float, vectors: np.ndarray) -> None:
        scored = WordVectors.from_arrays([vocab.words[i] for i in rows], vocab.counts[rows], vectors[rows])
        scores = word_similarity(scored)
        curve.append({"epoch": epoch, "cost": round(cost, 6)} | {k: v["spearman"] for k, v in scores.items()})
        log.info("glove: %s", ", ".join(f"{k} {v}" for k, v in curve[-1].items()))

    with scratch_folder(scratch, "glove-scratch") as folder:
        t0 = time.perf_counter()
        cells = cooccurrence_cells(corpus, len(vocab), config.window, memory_bytes=budget, block_cells=block_cells,
                                   scratch=folder, seed=config.seed, progress=progress)
        count_seconds = time.perf_counter() - t0
        log.info("glove: %s non-zero co-occurrence cells in %.0f s (%d runs spilled, %d blocks)",
                 f"{cells.n_cells:,}", count_seconds, cells.runs, cells.n_blocks)
        vectors, stats = train_glove(cells, config, resolve_device(config.device), progress=progress,
                                     on_epoch=on_epoch)
    counting = {"cooccurrence_seconds": round(count_seconds, 1), "spilled_runs": cells.runs}
    return WordVectors(vocab, vectors), counting | stats, curve
