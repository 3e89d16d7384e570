"""Adam and AdaGrad as the paraphrastic papers' code computes them (Lasagne's ``lasagne.updates``).

Wieting et al. 2016 (jwieting/iclr2016) and Wieting & Gimpel 2017 (jwieting/acl2017) trained with Lasagne, whose
optimisers put ε elsewhere than torch's. That matters for coordinates with small gradients: after 20 steps torch's
Adam leaves GRAN 11% of its travel away from the authors' code, torch's AdaGrad leaves DAN 4 times its travel away,
and these optimisers follow it to float32 rounding (``benchmarks/paraphrastic_vs_reference.py``; docs/verification.md).
With m, v the moments and t the step:

- :class:`LasagneAdam` (``lasagne.updates.adam``; Kingma & Ba 2015, Algorithm 1 with ε before v's bias correction):
  θ ← θ − lr·√(1 − β2^t)/(1 − β1^t) · m_t / (√v_t + ε). torch's Adam adds ε after the correction:
  θ ← θ − lr/(1 − β1^t) · m_t / (√v_t/√(1 − β2^t) + ε). (torch's SparseAdam already has Lasagne's form.)
- :class:`LasagneAdagrad` (``lasagne.updates.adagrad``): θ ← θ − lr · g / √(Σg² + ε), ε = 1e-6 under the root.
  torch's Adagrad takes Duchi et al. 2011's form, lr · g / (√Σg² + δ), δ = 1e-10 by default, whose first step moves
  every coordinate that has a gradient by ±lr; PARAGRAM's own code (Wieting et al. 2015, ``AGWords.m``) takes that
  form with δ = 1e-4, which is torch's Adagrad with ``eps=1e-4`` (the registry's ``adagrad_duchi``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numba
import numpy as np
import torch

from sentemb.core.errors import SentembError
from sentemb.core.runtime.threads import numba_threads


class LasagneAdam(torch.optim.Optimizer):
    """Adam with ε added to √v before the bias correction, as ``lasagne.updates.adam`` (dense gradients), optionally
    on the gradient of an anchored L2 term as well.

    A parameter group's ``l2`` = λ and ``anchor`` = θ₀ (``None``: 0) add the gradient of (λ/2)‖θ − θ₀‖², λ(θ − θ₀),
    to the parameter's gradient before the moments are updated: the step of the loss with that term added, as the
    paraphrastic authors' code regularises (``0.5*params.LC*l2(...)`` in the cost that Lasagne differentiates),
    without building the term and its gradient through autograd. ``compiled``: on the CPU, each float32 parameter
    takes the whole update (L2 gradient, both moments, the step) in one compiled pass over its elements instead of
    a dozen torch kernels; the same formula, equal to the torch path up to float rounding.

    Args:
        params: the parameters (float tensors), or parameter groups (dicts) with ``l2`` and ``anchor``.
        lr, betas, eps: Lasagne's defaults are lr 0.001, β 0.9 and 0.999, ε 1e-8.
        l2: λ of every group that does not set its own (0: no term).
        compiled: take the compiled pass for float32 CPU parameters (others: torch's kernels).

    Raises:
        SentembError: a sparse gradient (the paraphrastic trainer's sparse embeddings take
            :class:`~sentemb.core.optim.sparse.CompiledSparseAdam`), or an anchor whose shape is not its
            parameter's (when the group is added).
    """

    def __init__(self, params: Iterable[torch.Tensor] | Iterable[dict], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, l2: float = 0.0,
                 compiled: bool = False) -> None:
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "l2": l2, "anchor": None,
                                  "compiled": compiled})

    def add_param_group(self, param_group: dict) -> None:
        super().add_param_group(param_group)
        group = self.param_groups[-1]
        anchor = group["anchor"]
        if anchor is not None and (len(group["params"]) != 1 or anchor.shape != group["params"][0].shape):
            raise SentembError(f"LasagneAdam: an anchor of shape {tuple(anchor.shape)} for a group of "
                               f"{[tuple(p.shape) for p in group['params']]} (one parameter a group, the same shape)")

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lam, anchor = group["l2"], group["anchor"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.is_sparse:
                    raise SentembError("LasagneAdam takes dense gradients (sparse embeddings: CompiledSparseAdam)")
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["step"] += 1
                t = state["step"]
                m, v = state["exp_avg"], state["exp_avg_sq"]
                step_size = group["lr"] * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
                if group["compiled"] and _compilable(p, p.grad, m, v, anchor):
                    flat = [x.detach().numpy().reshape(-1) for x in (p, p.grad, m, v)]
                    pulled_to = flat[0] if anchor is None else anchor.detach().numpy().reshape(-1)
                    with numba_threads():
                        _adam_step(*flat, pulled_to, anchor is not None, lam, beta1, beta2, step_size, group["eps"])
                    continue
                grad = p.grad
                if lam:
                    grad = grad.add(p if anchor is None else p - anchor, alpha=lam)
                m.mul_(beta1).add_(grad, alpha=1 - beta1)
                v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                p.addcdiv_(m, v.sqrt().add_(group["eps"]), value=-step_size)


def _compilable(*tensors: torch.Tensor | None) -> bool:
    return all(x is None or (x.device.type == "cpu" and x.dtype == torch.float32 and x.is_contiguous()
                             and not x.is_sparse) for x in tensors)


@numba.njit(parallel=True, cache=True)
def _adam_step(p, g, m, v, anchor, anchored, lam, beta1, beta2, step_size, eps):  # pragma: no cover
    """LasagneAdam's update of one float32 parameter in place, each element in one pass (1-D views): the gradient
    g + λ(θ − θ₀) (θ₀ = 0 unless ``anchored``), m and v, then θ ← θ − step_size·m/(√v + ε); float32 arithmetic."""
    lam32, b1, b2 = np.float32(lam), np.float32(beta1), np.float32(beta2)
    c1, c2 = np.float32(1.0 - beta1), np.float32(1.0 - beta2)
    size32, eps32 = np.float32(step_size), np.float32(eps)
    for i in numba.prange(p.shape[0]):
        grad = g[i]
        if lam32 != 0:
            grad += lam32 * ((p[i] - anchor[i]) if anchored else p[i])
        mi = b1 * m[i] + c1 * grad
        vi = b2 * v[i] + c2 * (grad * grad)
        m[i] = mi
        v[i] = vi
        p[i] -= size32 * (mi / (np.sqrt(vi) + eps32))


class LasagneAdagrad(torch.optim.Optimizer):
    """AdaGrad with ε under the root, as ``lasagne.updates.adagrad``: θ ← θ − lr · g / √(Σg² + ε). Dense and sparse
    gradients (a sparse one updates its rows only, as torch's Adagrad does).

    Args:
        params: the parameters (float tensors).
        lr: the learning rate (Lasagne's default 1.0).
        eps: ε (Lasagne's default 1e-6).
    """

    def __init__(self, params: Iterable[torch.Tensor], lr: float = 1.0, eps: float = 1e-6) -> None:
        super().__init__(params, {"lr": lr, "eps": eps})

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            lr, eps = group["lr"], group["eps"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["sum"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                total, grad = state["sum"], p.grad
                if grad.is_sparse:
                    grad = grad.coalesce()
                    rows, values = grad.indices()[0], grad.values()
                    row_sums = total.index_select(0, rows).addcmul_(values, values)
                    total.index_copy_(0, rows, row_sums)
                    p.index_add_(0, rows, values.div(row_sums.add_(eps).sqrt_()).mul_(-lr))
                else:
                    total.addcmul_(grad, grad)
                    p.addcdiv_(grad, total.add(eps).sqrt_(), value=-lr)
