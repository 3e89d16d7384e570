"""GloVe (Pennington, Socher & Manning 2014): co-occurrence counting and the weighted least-squares fit.

No maintained Python package trains GloVe, so this is our own, following the reference C implementation
(``cooccur.c`` and ``glove.c`` of https://github.com/stanfordnlp/GloVe):

- :func:`cooccurrence_matrix` counts X_ij over a symmetric window inside each sentence, each co-occurrence weighted
  by 1/distance (``cooccur.c``, ``distance_weighting=1``, ``symmetric=1``). The corpus is processed in chunks of
  sentences, each chunk reduced to a scipy CSR matrix before it is added to the total, so memory is bounded by the
  chunk size plus the final matrix.
- :func:`train_glove` minimises J = Σ_{X_ij>0} f(X_ij) (w_i·w̃_j + b_i + b̃_j − log X_ij)² (GloVe §3, Eq. 8) with
  f(x) = min(1, (x/x_max)^α) (Eq. 9), by ``glove.c``'s AdaGrad (η inside the accumulated square, no η for the
  biases, gradient clipping), vectorised over shuffled mini-batches of non-zero cells with the gradients written
  out in closed form. Initialisation and the saved vectors follow ``glove.c``: weights uniform in
  [−0.5, 0.5]/dim, AdaGrad accumulators starting at 1, and the output vectors w + w̃ (``model=2``).
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
import torch
from tqdm.auto import tqdm

from sentemb.data.corpus import TokenCorpus
from sentemb.errors import SentembError

log = logging.getLogger(__name__)


def cooccurrence_matrix(
    corpus: TokenCorpus, vocab_size: int, window: int = 10, chunk_tokens: int = 10_000_000, progress: bool = False
) -> sp.csr_matrix:
    """Symmetric, distance-weighted word-word co-occurrence counts (GloVe §3, ``cooccur.c``).

    For every pair of tokens in the same sentence at distance d ≤ ``window``, X[a, b] and X[b, a] each gain 1/d.
    Windows do not cross sentence boundaries.

    Args:
        corpus: token ids with sentence offsets.
        vocab_size: V; every id must be in [0, V).
        window: the largest distance counted (the NWS paper's GloVe used 10).
        chunk_tokens: about how many tokens are counted at once (memory ≈ 12 bytes × window × chunk_tokens).

    Returns:
        float32 CSR matrix, shape (V, V), symmetric, with summed duplicates.

    Raises:
        SentembError: ``window`` < 1, or an empty corpus.
    """
    if window < 1:
        raise SentembError(f"glove window must be at least 1 (got {window})")
    offsets = np.asarray(corpus.offsets)
    n_tokens = int(offsets[-1])
    if n_tokens == 0:
        raise SentembError("glove: the corpus has no in-vocabulary token")
    # Chunk boundaries at sentence starts, about chunk_tokens apart.
    bounds = np.unique(np.searchsorted(offsets, np.arange(0, n_tokens, chunk_tokens), side="right") - 1)
    bounds = np.append(bounds, len(offsets) - 1)
    total = sp.csr_matrix((vocab_size, vocab_size), dtype=np.float32)
    pieces = itertools.pairwise(bounds.tolist())
    for s0, s1 in tqdm(list(pieces), desc="co-occurrence", unit="chunk", disable=not progress):
        a, b = int(offsets[s0]), int(offsets[s1])
        if b == a:
            continue
        ids = np.asarray(corpus.token_ids[a:b], dtype=np.int32)
        sentence = corpus.sentence_index(s0, s1)
        rows, cols, vals = [], [], []
        for d in range(1, window + 1):
            same = sentence[d:] == sentence[:-d]
            rows.append(ids[d:][same])  # the centre word
            cols.append(ids[:-d][same])  # its left context at distance d
            vals.append(np.full(int(same.sum()), 1.0 / d, dtype=np.float32))
        r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
        left = sp.coo_matrix((v, (r, c)), shape=(vocab_size, vocab_size)).tocsr()
        total = total + left + left.T.tocsr()
    total.sum_duplicates()
    return total


def glove_weight(x: torch.Tensor, x_max: float, alpha: float) -> torch.Tensor:
    """f(x) = (x / x_max)^α for x < x_max, else 1 (GloVe Eq. 9)."""
    return torch.clamp(x / x_max, max=1.0).pow(alpha)


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
    cooccurrence: sp.spmatrix,
    dim: int = 300,
    *,
    x_max: float = 100.0,
    alpha: float = 0.75,
    lr: float = 0.05,
    grad_clip: float = 100.0,
    epochs: int = 15,
    batch_size: int = 5000,
    shuffle: bool = True,
    seed: int = 1,
    device: str | torch.device = "cpu",
    progress: bool = False,
    on_epoch: Callable[[int, float, np.ndarray], None] | None = None,
) -> tuple[np.ndarray, dict]:
    """Fit GloVe vectors to a co-occurrence matrix by AdaGrad exactly as ``glove.c`` (GloVe §3 and §4.2).

    Per non-zero cell (i, j), with diff = w_i·w̃_j + b_i + b̃_j − log X_ij and fdiff = f(X_ij)·diff
    (src/glove.c lines 191-194): u = clip(fdiff·w̃_j, ±grad_clip)·η, w_i −= u/√G_i, G_i += u² (and the same for w̃_j
    with w_i; lines 206-224); b_i −= fdiff/√G_b,i, G_b,i += fdiff² (no η, no clipping; lines 227-231); every
    accumulator starts at 1. The cells are processed in mini-batches; within a batch every accumulator evolves as
    in the sequential loop (:func:`_adagrad_step`) and the gradients use the parameters of the batch's start,
    the staleness that ``glove.c``'s lock-free threads also have (``benchmarks/glove_vs_glove_c.py`` measures the
    result against ``glove.c`` itself).

    Args:
        cooccurrence: (V, V) non-negative counts, as from :func:`cooccurrence_matrix`.
        dim: vector size.
        x_max, alpha: the weighting function f (Eq. 9); the paper's 100 and 3/4.
        lr: η, the AdaGrad learning rate (``glove.c -eta``, default 0.05).
        grad_clip: the bound on each word-vector gradient component (``glove.c -grad-clip``, default 100).
        epochs: passes over the non-zero cells (the paper: 50 below 300 d, 100 otherwise).
        batch_size: non-zero cells per vectorised update.
        shuffle: visit the cells in a new random order each epoch (``False``: in the matrix's COO order every
            epoch, as ``glove.c`` reads its once-shuffled file).
        seed: seeds the initialisation and the shuffles.
        device: torch device for the fit.
        on_epoch: called as ``on_epoch(epoch, mean_cost, vectors)`` after every epoch (1-based; vectors float32
            (V, dim) = w + w̃).

    Returns:
        ``(vectors, stats)``: float32 (V, dim) = w + w̃ (``glove.c -model 2``), and a dict with the mean cost per
        epoch (``losses``, J / number of cells, as ``glove.c`` prints it), wall and CPU seconds of the fit (the
        ``on_epoch`` calls excluded) and cells per second.

    Raises:
        SentembError: a matrix that is not square, has negative entries, or is empty; a bad hyperparameter; a cost
            that is no longer finite.
    """
    for key, value in {"dim": dim, "x_max": x_max, "alpha": alpha, "lr": lr, "grad_clip": grad_clip,
                       "epochs": epochs, "batch_size": batch_size}.items():
        if not value > 0:
            raise SentembError(f"glove {key} must be positive (got {value})")
    coo = sp.coo_matrix(cooccurrence)
    if coo.shape[0] != coo.shape[1]:
        raise SentembError(f"glove: co-occurrence matrix must be square (got {coo.shape})")
    if coo.nnz == 0:
        raise SentembError("glove: the co-occurrence matrix is empty")
    if coo.data.min() <= 0:
        raise SentembError("glove: co-occurrence counts must be positive")
    vocab_size, device = coo.shape[0], torch.device(device)
    rows = torch.from_numpy(coo.row.astype(np.int64)).to(device)
    cols = torch.from_numpy(coo.col.astype(np.int64)).to(device)
    x = torch.from_numpy(coo.data.astype(np.float32)).to(device)
    log_x, weight = x.log(), glove_weight(x, x_max, alpha)
    del x
    params = {k: v.to(device) for k, v in glove_initial_parameters(vocab_size, dim, seed).items()}
    w, w_ctx, b, b_ctx = params["w"], params["w_ctx"], params["b"], params["b_ctx"]
    gw, gw_ctx = torch.ones_like(w), torch.ones_like(w_ctx)  # AdaGrad accumulators, 1 as in glove.c
    gb, gb_ctx = torch.ones_like(b), torch.ones_like(b_ctx)
    gen = torch.Generator(device="cpu").manual_seed(seed)
    n = rows.numel()
    losses: list[float] = []
    t0, cpu0 = time.perf_counter(), time.process_time()
    for epoch in range(1, epochs + 1):
        order = torch.randperm(n, generator=gen).to(device) if shuffle else torch.arange(n, device=device)
        cost = torch.zeros((), dtype=torch.float64, device=device)
        batches = range(0, n, batch_size)
        for start in tqdm(batches, desc=f"glove epoch {epoch}/{epochs}", unit="batch", disable=not progress,
                          mininterval=2.0):
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
        mean_cost = float(cost) / n
        if not np.isfinite(mean_cost):
            raise SentembError(f"glove: the cost diverged in epoch {epoch} (lower lr, now {lr})")
        losses.append(mean_cost)
        log.info("glove epoch %d/%d: mean cost %.6f", epoch, epochs, mean_cost)
        if on_epoch is not None:
            wall_before, cpu_before = time.perf_counter(), time.process_time()
            on_epoch(epoch, mean_cost, (w + w_ctx).cpu().numpy())
            t0 += time.perf_counter() - wall_before  # the callback's time is not the fit's
            cpu0 += time.process_time() - cpu_before
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    vectors = (w + w_ctx).cpu().numpy().astype(np.float32)
    stats = {"losses": [round(v, 6) for v in losses], "cells": n, "wall_seconds": round(wall, 1),
             "cpu_seconds": round(cpu, 1), "cells_per_second": round(n * epochs / wall),
             "cells_per_cpu_second": round(n * epochs / cpu), "device": str(device)}
    return vectors, stats
