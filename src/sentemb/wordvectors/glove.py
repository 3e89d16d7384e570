"""GloVe (Pennington, Socher & Manning 2014): co-occurrence counting and the weighted least-squares fit.

No maintained Python package trains GloVe, so this is our own, following the reference C implementation
(``cooccur.c`` and ``glove.c`` of https://github.com/stanfordnlp/GloVe):

- :func:`cooccurrence_matrix` counts X_ij over a symmetric window inside each sentence, each co-occurrence weighted
  by 1/distance (``cooccur.c``, ``distance_weighting=1``, ``symmetric=1``). The corpus is processed in chunks of
  sentences, each chunk reduced to a scipy CSR matrix before it is added to the total, so memory is bounded by the
  chunk size plus the final matrix.
- :func:`train_glove` minimises J = Σ_{X_ij>0} f(X_ij) (w_i·w̃_j + b_i + b̃_j − log X_ij)² (GloVe §3, Eq. 8) with
  f(x) = min(1, (x/x_max)^α) (Eq. 9), by AdaGrad over shuffled mini-batches of non-zero cells, with the gradients
  written out in closed form. Like ``glove.c`` (which updates cells one by one from many threads, "Hogwild"), a
  row that occurs several times in a batch gets the sum of its updates computed from the same old values.
  Initialisation and the saved vectors follow ``glove.c``: weights uniform in [−0.5, 0.5]/dim, AdaGrad
  accumulators starting at 1, and the output vectors w + w̃ (``model=2``).
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


def _adagrad(param: torch.Tensor, accumulator: torch.Tensor, index: torch.Tensor, grad: torch.Tensor, lr: float):
    """AdaGrad on the rows ``index`` of ``param``: θ −= lr·g/√G, then G += g² (``glove.c``). Consumes ``grad``."""
    param.index_add_(0, index, accumulator.index_select(0, index).rsqrt_().mul_(grad), alpha=-lr)
    accumulator.index_add_(0, index, grad.square_())


def train_glove(
    cooccurrence: sp.spmatrix,
    dim: int = 300,
    *,
    x_max: float = 100.0,
    alpha: float = 0.75,
    lr: float = 0.05,
    epochs: int = 15,
    batch_size: int = 100_000,
    seed: int = 1,
    device: str | torch.device = "cpu",
    progress: bool = False,
    on_epoch: Callable[[int, float], None] | None = None,
) -> tuple[np.ndarray, dict]:
    """Fit GloVe vectors to a co-occurrence matrix by AdaGrad (GloVe §3 and §4.2; ``glove.c``).

    Args:
        cooccurrence: (V, V) non-negative counts, as from :func:`cooccurrence_matrix`.
        dim: vector size.
        x_max, alpha: the weighting function f (Eq. 9); the paper's 100 and 3/4.
        lr: AdaGrad learning rate (``glove.c`` default 0.05).
        epochs: passes over the non-zero cells (the paper: 50 below 300 d, 100 otherwise).
        batch_size: non-zero cells per update.
        device: torch device for the fit.
        on_epoch: called as ``on_epoch(epoch, mean_cost)`` after every epoch (1-based).

    Returns:
        ``(vectors, stats)``: float32 (V, dim) = w + w̃, and a dict with the mean cost per epoch
        (``losses``, J / number of cells, as ``glove.c`` prints it), wall seconds and cells per second.

    Raises:
        SentembError: a matrix that is not square, has negative entries, or is empty; a bad hyperparameter.
    """
    for key, value in {"dim": dim, "x_max": x_max, "alpha": alpha, "lr": lr, "epochs": epochs,
                       "batch_size": batch_size}.items():
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
    gen = torch.Generator(device="cpu").manual_seed(seed)

    def uniform(*shape):
        return ((torch.rand(*shape, generator=gen) - 0.5) / dim).to(device)

    w, w_ctx = uniform(vocab_size, dim), uniform(vocab_size, dim)
    b, b_ctx = uniform(vocab_size), uniform(vocab_size)
    gw, gw_ctx = torch.ones_like(w), torch.ones_like(w_ctx)  # AdaGrad accumulators, 1 as in glove.c
    gb, gb_ctx = torch.ones_like(b), torch.ones_like(b_ctx)
    n = rows.numel()
    losses: list[float] = []
    t0 = time.perf_counter()
    for epoch in range(1, epochs + 1):
        order = torch.randperm(n, generator=gen).to(device)
        cost = torch.zeros((), dtype=torch.float64, device=device)
        batches = range(0, n, batch_size)
        for start in tqdm(batches, desc=f"glove epoch {epoch}/{epochs}", unit="batch", disable=not progress):
            idx = order[start : start + batch_size]
            i, j = rows.index_select(0, idx), cols.index_select(0, idx)
            wi, wj = w.index_select(0, i), w_ctx.index_select(0, j)
            diff = (wi * wj).sum(1).add_(b.index_select(0, i)).add_(b_ctx.index_select(0, j))
            diff -= log_x.index_select(0, idx)
            fdiff = weight.index_select(0, idx).mul_(diff)
            cost += 0.5 * torch.dot(fdiff, diff).double()
            # AdaGrad: step with the accumulators as they were, then add the squared gradient (glove.c order).
            _adagrad(w, gw, i, wj.mul_(fdiff[:, None]), lr)  # wj becomes the gradient of w_i
            _adagrad(w_ctx, gw_ctx, j, wi.mul_(fdiff[:, None]), lr)
            _adagrad(b, gb, i, fdiff.clone(), lr)
            _adagrad(b_ctx, gb_ctx, j, fdiff, lr)
        mean_cost = float(cost) / n
        if not np.isfinite(mean_cost):
            raise SentembError(f"glove: the cost diverged in epoch {epoch} (lower lr, now {lr})")
        losses.append(mean_cost)
        log.info("glove epoch %d/%d: mean cost %.6f", epoch, epochs, mean_cost)
        if on_epoch is not None:
            on_epoch(epoch, mean_cost)
    wall = time.perf_counter() - t0
    vectors = (w + w_ctx).cpu().numpy().astype(np.float32)
    stats = {"losses": [round(v, 6) for v in losses], "cells": n, "wall_seconds": round(wall, 1),
             "cells_per_second": round(n * epochs / wall), "device": str(device)}
    return vectors, stats
