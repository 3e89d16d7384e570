"""Optimisers over sparse gradients (the rows of an embedding a batch touches): :class:`CompiledSparseAdam` and
:class:`SparseAdadelta`.

**CompiledSparseAdam**: ``torch.optim.SparseAdam`` whose update on the CPU is one compiled pass over the gradient's
rows (numba).

Torch's sparse Adam (``torch.optim._functional.sparse_adam``) updates the rows a batch touches with about fifteen
operations, each over all of those rows: it gathers the two moments at the gradient's indices, builds three sparse
tensors and adds each to a dense matrix. This updates both moments and gathers what the step needs in one compiled
pass over the rows, then takes the square root, the quotient and the update with torch's operations (torch's
vectorised square root is not correctly rounded everywhere, so it stays torch's). The float operations are the same,
in the same order, so the weights and moments it writes are those of torch's step to the bit
(``tests/test_optim.py``): for each row r of the coalesced gradient g and each of its columns, with m and v
the moments before the step,

    u = (g − m) · (1 − β1),  m ← m + u
    w = (g · g − v) · (1 − β2),  v ← v + w
    θ ← θ + (−s) · ((u + m_old) / (√(w + v_old) + ε)),   s = lr · √(1 − β2^t) / (1 − β1^t)

(Kingma & Ba 2015, Algorithm 1, with the moments and the parameter updated only where the gradient has a row).
The scalars are rounded to float32 as torch rounds them. On a GPU, or for a parameter that is not a C-contiguous
float matrix, the step is torch's.
"""

from __future__ import annotations

import math

import numba
import torch

from sentemb.core.runtime.threads import numba_threads


@numba.njit(cache=True)
def _rows(exp_avg, exp_avg_sq, rows, values, c1, c2, numer, second, first, end):  # pragma: no cover
    for q in range(first, end):
        r = rows[q]
        m, v, g, a, b = exp_avg[r], exp_avg_sq[r], values[q], numer[q], second[q]
        for k in range(m.shape[0]):
            m_old, v_old = m[k], v[k]
            u = (g[k] - m_old) * c1
            m[k] = m_old + u
            w = (g[k] * g[k] - v_old) * c2
            v[k] = v_old + w
            a[k] = u + m_old
            b[k] = w + v_old


@numba.njit(parallel=True, cache=True)
def _rows_parallel(exp_avg, exp_avg_sq, rows, values, c1, c2, numer, second, blocks):  # pragma: no cover
    n = rows.shape[0]
    for b in numba.prange(blocks):
        _rows(exp_avg, exp_avg_sq, rows, values, c1, c2, numer, second, b * n // blocks, (b + 1) * n // blocks)


class CompiledSparseAdam(torch.optim.SparseAdam):
    """:class:`torch.optim.SparseAdam` (same arguments, state and ``state_dict``), its CPU step compiled.

    Each row of the gradient is updated by one thread, so the result does not depend on the number of threads
    (torch's, at most numba's pool).

    Raises:
        RuntimeError: a dense gradient (as torch's).
    """

    @torch.no_grad()
    def step(self, closure=None):
        if any(p.device.type != "cpu" or p.dtype not in (torch.float32, torch.float64) or p.dim() != 2
               or not p.is_contiguous() for group in self.param_groups for p in group["params"]):
            return super().step(closure)
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                if not p.grad.is_sparse:
                    raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["step"] += 1
                grad = p.grad.coalesce()  # unique rows, as torch's step takes them
                values = grad._values().contiguous()
                if values.numel() == 0:
                    continue
                rows = grad._indices()[0]
                step = state["step"]
                step_size = float(group["lr"]) * math.sqrt(1 - beta2**step) / (1 - beta1**step)
                numer, second = torch.empty_like(values), torch.empty_like(values)
                real = numer.numpy().dtype.type  # the scalars as torch rounds them to the tensor's type
                args = (state["exp_avg"].numpy(), state["exp_avg_sq"].numpy(), rows.numpy(),
                        values.numpy(), real(1 - beta1), real(1 - beta2), numer.numpy(), second.numpy())
                with numba_threads() as threads:
                    if threads > 1 and len(rows) > 1:
                        _rows_parallel(*args, min(threads, len(rows)))
                    else:
                        _rows(*args, 0, len(rows))
                numer.div_(second.sqrt_().add_(group["eps"]))  # torch's sqrt (not correctly rounded everywhere)
                p.index_add_(0, rows, -step_size * numer)  # the rows are distinct: p[r] + update, as torch adds
        return loss


class SparseAdadelta(torch.optim.Optimizer):
    """AdaDelta (Zeiler 2012) that accepts sparse gradients, as the Siamese CBOW authors' code trains by default
    (Lasagne's ``adadelta``: lr 1.0, rho 0.95, eps 1e-6).

    For each parameter row with a gradient g: E[g²] ← ρE[g²] + (1−ρ)g²; Δ = g·√(E[Δ²]+ε)/√(E[g²]+ε);
    E[Δ²] ← ρE[Δ²] + (1−ρ)Δ²; θ ← θ − lr·Δ. With a sparse gradient the update is *lazy*: rows absent from the
    batch keep their accumulators (dense AdaDelta would decay them by ρ at every step), as torch's SparseAdam does
    for Adam.
    """

    def __init__(self, params, lr: float = 1.0, rho: float = 0.95, eps: float = 1e-6) -> None:
        super().__init__(params, {"lr": lr, "rho": rho, "eps": eps})

    @staticmethod
    def _delta(square_avg: torch.Tensor, acc_delta: torch.Tensor, g: torch.Tensor, rho: float, eps: float):
        """Update the accumulators in place and return the step Δ, for dense rows or the selected sparse ones."""
        square_avg.mul_(rho).addcmul_(g, g, value=1 - rho)
        delta = acc_delta.add(eps).sqrt_().div_(square_avg.add(eps).sqrt_()).mul_(g)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        return delta

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            lr, rho, eps = group["lr"], group["rho"], group["eps"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["square_avg"] = torch.zeros_like(p)
                    state["acc_delta"] = torch.zeros_like(p)
                grad = p.grad
                if grad.is_sparse:
                    grad = grad.coalesce()
                    rows = grad.indices()[0]
                    sq = state["square_avg"].index_select(0, rows)
                    acc = state["acc_delta"].index_select(0, rows)
                    delta = self._delta(sq, acc, grad.values(), rho, eps)
                    state["square_avg"].index_copy_(0, rows, sq)
                    state["acc_delta"].index_copy_(0, rows, acc)
                    p.index_add_(0, rows, delta, alpha=-lr)
                else:
                    p.add_(self._delta(state["square_avg"], state["acc_delta"], grad, rho, eps), alpha=-lr)
