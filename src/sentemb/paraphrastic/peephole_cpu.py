"""One step of the peephole LSTM's backward pass through time on the CPU, as a single compiled pass (numba); and GRAN's
pooling, forwards and backwards (:mod:`sentemb.paraphrastic.gated_mean`).

:class:`sentemb.paraphrastic.peephole.PackedPeepholeLSTM` runs its backward pass step by step from the last to the
first. On a GPU each step is a sequence of torch operations (about 25 over the step's rows); on the CPU this kernel
does the same arithmetic (the equations of that module's docstring) in one pass over the step's rows, reading each
saved gate, cell and state once, where each torch operation goes over the rows again (a step of 200 rows of 300
units on this project's 2-core machine: 78-93 µs on 2 threads against 360-375 µs in torch operations). The matrix
products (dh_{t−1} = dz_t W_h, and the gradients of the weights after the loop) stay with torch.

On one thread the rows run in a plain compiled loop; on more, in one block of rows per thread (numba's parallel
loop). Each row is computed alike either way, so the result does not depend on the number of threads.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _rows(gates, tanh_cells, cells, grad_states, grad_h, grad_c, grad_z, peephole, one, start, previous, first, end,
          output_gate):  # pragma: no cover (compiled; tested through cell_backward)
    hidden = tanh_cells.shape[1]
    for r in range(first, end):
        row = start + r
        z, dz, tc, dh_out = gates[row], grad_z[row], tanh_cells[row], grad_states[row]
        dh_next, dc_next = grad_h[r], grad_c[r]
        for k in range(hidden):
            dh = dh_out[k] + dh_next[k]
            dc = dc_next[k]
            if output_gate:
                o = z[3 * hidden + k]
                dzo = dh * tc[k] * o * (one - o)
                dz[3 * hidden + k] = dzo
                dc += dh * o * (one - tc[k] * tc[k]) + dzo * peephole[2, k]
            else:
                dc += dh * (one - tc[k] * tc[k])
            i, g = z[k], z[2 * hidden + k]
            dzi = dc * g * i * (one - i)
            dz[k] = dzi
            dz[2 * hidden + k] = dc * i * (one - g * g)
            if previous >= 0:
                f = z[hidden + k]
                dzf = dc * cells[previous + r, k] * f * (one - f)
                dz[hidden + k] = dzf
                dc_next[k] = dc * f + dzi * peephole[0, k] + dzf * peephole[1, k]
            else:
                dz[hidden + k] = 0


@numba.njit(parallel=True, cache=True)
def _rows_parallel(gates, tanh_cells, cells, grad_states, grad_h, grad_c, grad_z, peephole, one, start, previous, n,
                   output_gate, blocks):  # pragma: no cover (compiled; tested through cell_backward)
    for b in numba.prange(blocks):
        _rows(gates, tanh_cells, cells, grad_states, grad_h, grad_c, grad_z, peephole, one, start, previous,
              b * n // blocks, (b + 1) * n // blocks, output_gate)


def cell_backward(gates: np.ndarray, tanh_cells: np.ndarray, cells: np.ndarray, grad_states: np.ndarray,
                  grad_h: np.ndarray, grad_c: np.ndarray, grad_z: np.ndarray, peephole: np.ndarray, start: int,
                  previous: int, n: int, output_gate: bool, threads: int = 1) -> None:
    """Step t's gradients of z_t and c_{t−1}, in place, for the n sentences still going at step t.

    All arrays are C-contiguous, of one float dtype (float32 or float64), and packed as
    :class:`~sentemb.paraphrastic.peephole.PackedPeepholeLSTM` keeps them (N rows: every step's rows in turn).

    Args:
        gates: (N, gates·hidden): i, f, g (= tanh z_c) and o of every row, as the forward pass left them.
        tanh_cells, cells: (N, hidden): tanh c_t and c_t of every row.
        grad_states: (N, hidden): the loss's gradient with respect to each h_t from outside the recurrence.
        grad_h: (≥ n, hidden): dz_{t+1} W_h, the recurrent part of dh_t (zero past the n_{t+1} rows of step t + 1).
        grad_c: (≥ n, hidden): dc_t from step t + 1, overwritten with dc_{t−1} when ``previous`` ≥ 0.
        grad_z: (N, gates·hidden): rows ``start`` … ``start + n − 1`` receive dz_t (dz_f = 0 at the first step).
        peephole: (gates − 1, hidden): w_ci, w_cf and (with the output gate) w_co.
        start: step t's first row; previous: step t − 1's first row, or −1 at the first step (c_0 = 0).
        n: n_t. output_gate: whether the gates include o_t.
        threads: blocks of rows run at once (inside :func:`sentemb.core.runtime.threads.numba_threads`, which sets
        numba's threads).
    """
    args = (gates, tanh_cells, cells, grad_states, grad_h, grad_c, grad_z, peephole, gates.dtype.type(1), start,
            previous)
    if threads > 1 and n > 1:
        _rows_parallel(*args, n, output_gate, min(threads, n))
    else:
        _rows(*args, 0, n, output_gate)


@numba.njit(parallel=True, cache=True)
def gated_mean_forward(x, gate, starts, rank, lengths, denom, out):  # pragma: no cover (tested through GatedMean)
    """GRAN's pooling forwards (:class:`sentemb.paraphrastic.gated_mean.GatedMean`): out[s], float (B, dim), the sum of
    x_t σ_t over sentence s's tokens in order (row starts[t] + rank[s] at step t), divided by denom[s]. One sentence a
    thread at a time: the result does not depend on the number of threads."""
    dim = x.shape[1]
    for s in numba.prange(lengths.shape[0]):
        e = out[s]
        for k in range(dim):
            e[k] = 0
        for t in range(lengths[s]):
            row = starts[t] + rank[s]
            for k in range(dim):
                e[k] += x[row, k] * gate[row, k]
        for k in range(dim):
            e[k] = e[k] / denom[s]


@numba.njit(parallel=True, cache=True)
def _gated_mean_backward(x, gate, sentence, denom, grad_out, grad_x, grad_z, one):  # pragma: no cover
    dim = x.shape[1]
    for r in numba.prange(x.shape[0]):
        s = sentence[r]
        for k in range(dim):
            d = grad_out[s, k] / denom[s]
            y = gate[r, k]
            grad_x[r, k] = d * y
            grad_z[r, k] = d * x[r, k] * (one - y) * y


def gated_mean_backward(x: np.ndarray, gate: np.ndarray, sentence: np.ndarray, denom: np.ndarray,
                        grad_out: np.ndarray, grad_x: np.ndarray, grad_z: np.ndarray) -> None:
    """GRAN's pooling backwards (:class:`sentemb.paraphrastic.gated_mean.GatedMean`): from dL/de, float (B, dim),
    writes dx_t = d_t σ_t and dz_t = ((d_t x_t)(1 − σ_t)) σ_t, with d_t = de_s / max(n_s, 1), into ``grad_x`` and
    ``grad_z``, float (N, dim); x, gate (σ) float (N, dim), sentence int64 (N,), denom float (B,). One row a thread
    at a time: the result does not depend on the number of threads."""
    _gated_mean_backward(x, gate, sentence, denom, grad_out, grad_x, grad_z, x.dtype.type(1))
