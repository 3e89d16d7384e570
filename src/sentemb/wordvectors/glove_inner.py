"""GloVe's compiled inner loops (numba), kept apart from the fit as gensim keeps ``word2vec_inner``: ``glove.c``'s
per-cell AdaGrad step and the deterministic parallel schedule that runs it on several threads.

**The schedule: stratified SGD** (DSGD; Gemulla, Haas, Nijkamp & Sismanis, KDD 2011, §4). GloVe's cell (i, j) updates
only row i of the word vectors w (and of its bias and AdaGrad sums) and row j of the context vectors w̃. Cut the words
into T groups (:func:`word_groups`, balanced by how many cells each word's row holds); block (p, q) is the cells whose
word lies in group p and whose context word lies in group q. Stratum s is the T blocks (p, (p + s) mod T), p = 0 … T−1:
no two of them share a row of w or a row of w̃, so T threads can walk them at once without locks and without races.
One pass over a block of cells is T strata one after another (:func:`fit_strata`), each thread walking its block in
the seeded order :func:`stratify` and the caller's shuffle give it. The result is a function of the order and T alone,
not of how many cores run it, and with T = 1 it is ``glove.c``'s loop (src/glove.c, ``glove_thread``, lines 183-232)
over the caller's order, cell after cell.

``glove.c`` itself runs its threads on parts of the shuffled file without locks, so that two runs differ; the
schedule here differs from it only in which cells may be visited at the same time, as DSGD differs from Hogwild.
"""

from __future__ import annotations

import numba
import numpy as np

from sentemb.core.runtime.prefetch import prefetch, prefetch_row

CELLS_AHEAD = 8
"""How many cells ahead the walk asks for a cell's count, weight and word ids (measured on the full corpus,
``benchmarks/glove_speed.py``)."""
ROWS_AHEAD = 4
"""How many cells ahead the walk asks for a cell's four parameter rows."""


def word_groups(cells_per_row: np.ndarray, groups: int) -> np.ndarray:
    """Words cut into ``groups`` groups of about equal cell counts: longest-processing-time first (the words by
    descending cell count, ties by id, each to the group with the fewest cells so far, ties to the lowest group).

    Args:
        cells_per_row: int, shape (V,): the non-zero cells of each word's row of X.
        groups: T ≥ 1.

    Returns:
        int32, shape (V,): each word's group in [0, T).

    Raises:
        ValueError: ``groups`` below 1.
    """
    if groups < 1:
        raise ValueError(f"word_groups: groups must be at least 1 (got {groups})")
    counts = np.asarray(cells_per_row, dtype=np.int64)
    if groups == 1:
        return np.zeros(len(counts), dtype=np.int32)
    return _greedy_groups(np.argsort(-counts, kind="stable"), counts, groups)


@numba.njit(cache=True)
def _greedy_groups(by_count, counts, groups):  # pragma: no cover (compiled; tested through word_groups)
    load = np.zeros(groups, dtype=np.int64)
    out = np.zeros(counts.shape[0], dtype=np.int32)
    for k in range(by_count.shape[0]):
        word = by_count[k]
        g = 0
        for h in range(1, groups):
            if load[h] < load[g]:
                g = h
        out[word] = g
        load[g] += counts[word]
    return out


@numba.njit(cache=True)
def stratify(rows, cols, group, groups):  # pragma: no cover (compiled; tested in tests/test_glove.py)
    """The cells of a block sorted by stratum and thread, each segment in storage order (a stable counting sort).

    Args:
        rows, cols: int32, shape (n,): each cell's word i and context word j.
        group: int32, shape (V,): each word's group (:func:`word_groups`).
        groups: T.

    Returns:
        ``(order, bounds)``: int32 (n,) cell indices; int64 (T·T + 1,): segment s·T + t, the cells thread t walks in
        stratum s (word group t, context group (t + s) mod T), is ``order[bounds[s·T + t]:bounds[s·T + t + 1]]``.
    """
    n = rows.shape[0]
    bounds = np.zeros(groups * groups + 1, dtype=np.int64)
    for c in range(n):
        t = group[rows[c]]
        s = (group[cols[c]] - t) % groups
        bounds[s * groups + t + 1] += 1
    for k in range(groups * groups):
        bounds[k + 1] += bounds[k]
    fill = bounds[:-1].copy()
    order = np.empty(n, dtype=np.int32)
    for c in range(n):
        t = group[rows[c]]
        s = (group[cols[c]] - t) % groups
        k = s * groups + t
        order[fill[k]] = c
        fill[k] += 1
    return order, bounds


@numba.njit(cache=True, inline="always")
def _walk(start, end, cost, order, rows, cols, log_x, weight, w, w_ctx, b, b_ctx, gw, gw_ctx, gb, gb_ctx, lr,
          grad_clip):  # pragma: no cover (compiled)
    """``glove.c``'s loop over cells ``order[start:end]``, one after another; returns ``cost`` plus Σ ½·f(X)·diff²
    over them, added cell by cell.

    The loop waits on memory (four random rows of w, w̃ and their AdaGrad sums, and the cell's own entries at a random
    place), so it asks for a later cell's entries :data:`CELLS_AHEAD` cells ahead and its rows :data:`ROWS_AHEAD`
    cells ahead: the same arithmetic in the same order, 1.3-1.5× the cells per second on the full corpus."""
    dim = w.shape[1]
    for k in range(start, end):
        if k + CELLS_AHEAD < end:  # the count, weight and word ids of a cell further on
            ahead = order[k + CELLS_AHEAD]
            prefetch(rows, ahead)
            prefetch(cols, ahead)
            prefetch(log_x, ahead)
            prefetch(weight, ahead)
        if k + ROWS_AHEAD < end:  # the four rows of a nearer cell, whose ids have arrived by now
            ahead = order[k + ROWS_AHEAD]
            prefetch_row(w, rows[ahead])
            prefetch_row(gw, rows[ahead])
            prefetch_row(w_ctx, cols[ahead])
            prefetch_row(gw_ctx, cols[ahead])
        c = order[k]
        i = rows[c]
        j = cols[c]
        diff = b[i] + b_ctx[j] - log_x[c]
        for d in range(dim):
            diff += w[i, d] * w_ctx[j, d]
        fdiff = weight[c] * diff
        cost += 0.5 * fdiff * diff
        for d in range(dim):
            temp1 = min(max(fdiff * w_ctx[j, d], -grad_clip), grad_clip) * lr
            temp2 = min(max(fdiff * w[i, d], -grad_clip), grad_clip) * lr
            w[i, d] -= temp1 / np.sqrt(gw[i, d])
            w_ctx[j, d] -= temp2 / np.sqrt(gw_ctx[j, d])
            gw[i, d] += temp1 * temp1
            gw_ctx[j, d] += temp2 * temp2
        b[i] -= fdiff / np.sqrt(gb[i])
        b_ctx[j] -= fdiff / np.sqrt(gb_ctx[j])
        gb[i] += fdiff * fdiff
        gb_ctx[j] += fdiff * fdiff
    return cost


@numba.njit(parallel=True, cache=True)
def fit_segments(rows, cols, log_x, weight, order, starts, ends, costs, w, w_ctx, b, b_ctx, gw, gw_ctx, gb, gb_ctx, lr,
                 grad_clip):  # pragma: no cover (compiled; tested through sentemb.wordvectors.glove.train_glove)
    """``glove.c``'s AdaGrad step over T stretches of cells on parallel threads: thread t walks
    ``order[starts[t]:ends[t]]`` one cell after another, adding ½·f(X)·diff² of each to ``costs[t]``.

    The caller gives stretches that share no row of w or w̃ (parts of the segments of one stratum:
    :func:`stratify`), so the threads never touch the same memory, and the result is that of any order of running them.
    A segment walked in several calls, its running cost carried in ``costs``, gives the bits of one call.

    Args:
        rows, cols: int32 (n,) word and context ids; log_x, weight: float64 (n,) log X_ij and f(X_ij).
        order: int32 (n,) the cells' visiting order; starts, ends: int64 (T,).
        costs: float64 (T,), added to in place.
        w, w_ctx: (V, dim) and b, b_ctx: (V,) parameters; gw, gw_ctx, gb, gb_ctx: their AdaGrad sums, float64 or
            float32 alike; updated in place.
        lr: η; grad_clip: the bound on each word-vector gradient component.
    """
    for t in numba.prange(starts.shape[0]):
        costs[t] = _walk(starts[t], ends[t], costs[t], order, rows, cols, log_x, weight, w, w_ctx, b, b_ctx, gw,
                         gw_ctx, gb, gb_ctx, lr, grad_clip)


PIECE = 1 << 20
"""Cells a thread walks in one call of :func:`fit_segments` (about a second): between calls the process can stop on
a signal, which a compiled loop would make wait."""


def fit_strata(rows, cols, log_x, weight, order, bounds, groups, w, w_ctx, b, b_ctx, gw, gw_ctx, gb, gb_ctx, lr,
               grad_clip) -> float:
    """One pass of ``glove.c``'s AdaGrad step over a block of cells, T strata one after another, the T segments of a
    stratum on parallel threads (module docstring), in calls of at most :data:`PIECE` cells a thread.

    Args:
        rows, cols: int32 (n,) word and context ids; log_x, weight: float64 (n,) log X_ij and f(X_ij).
        order, bounds: the segments of :func:`stratify` (T = 1: ``bounds = [0, n]`` and any order).
        groups: T.
        w, w_ctx, b, b_ctx, gw, gw_ctx, gb, gb_ctx, lr, grad_clip: as :func:`fit_segments`.

    Returns:
        Σ ½·f(X)·diff² over the block's cells, each segment's summed cell by cell, then the segments in order.
    """
    costs = np.zeros(groups * groups)
    for s in range(groups):
        lo, hi = bounds[s * groups : (s + 1) * groups], bounds[s * groups + 1 : (s + 1) * groups + 1]
        for offset in range(0, int((hi - lo).max(initial=0)), PIECE):
            fit_segments(rows, cols, log_x, weight, order, np.minimum(lo + offset, hi),
                         np.minimum(lo + offset + PIECE, hi), costs[s * groups : (s + 1) * groups], w, w_ctx, b, b_ctx,
                         gw, gw_ctx, gb, gb_ctx, lr, grad_clip)
    return sum(costs.tolist())
