"""GRAN's pooling: the mean over a sentence's tokens of a_t = x_t ⊙ σ(z_t) (Wieting & Gimpel 2017 §2, Eq. 1), with
its backward pass written out.

Under autograd the pooling is four operations forwards (sigmoid, product, index_add, division) and five backwards,
each a pass over all the batch's tokens. :class:`GatedMean` keeps torch's sigmoid and does the rest in one compiled
pass each way on the CPU (numba, in :mod:`sentemb.paraphrastic.peephole_cpu`; torch operations on a GPU), with the
same float operations in the same order:

    forwards:   σ = sigmoid(z);   e_s = (Σ_t x_t σ_t, over sentence s's tokens in order) / max(n_s, 1)
    backwards:  d_t = de_s / max(n_s, 1);   dx_t = d_t σ_t;   dz_t = ((d_t x_t)(1 − σ_t)) σ_t

so the embeddings and gradients are those of the autograd version to the bit (``tests/test_paraphrastic.py``).
"""

from __future__ import annotations

import torch


class GatedMean(torch.autograd.Function):
    """``GatedMean.apply(x, z, packing)`` → float (B, dim): per sentence, the mean of x ⊙ σ(z) over its tokens.

    Args:
        x, z: float (N, dim), the packed tokens' vectors and gate inputs
            (:class:`~sentemb.paraphrastic.composition.Packing` order).
        packing: the batch's :class:`~sentemb.paraphrastic.composition.Packing` (``sizes``, ``sentence``,
            ``step_starts``, ``rank``, ``lengths``).

    Returns:
        float (B, dim); zero for an empty sentence.
    """

    @staticmethod
    def forward(ctx, x: torch.Tensor, z: torch.Tensor, packing) -> torch.Tensor:
        gate = torch.sigmoid(z)
        denom = packing.lengths.clamp(min=1).to(x.dtype)
        if x.device.type == "cpu":
            from sentemb.core.runtime.threads import numba_threads
            from sentemb.paraphrastic.peephole_cpu import gated_mean_forward

            x, gate = x.contiguous(), gate.contiguous()
            out = x.new_empty(len(denom), x.shape[1])
            with numba_threads():
                gated_mean_forward(x.numpy(), gate.numpy(), packing.step_starts.numpy(), packing.rank.numpy(),
                                   packing.lengths.numpy(), denom.numpy(), out.numpy())
        else:
            out = x.new_zeros(len(denom), x.shape[1]).index_add_(0, packing.sentence, x * gate) / denom[:, None]
        ctx.packing = packing
        ctx.save_for_backward(x, gate, denom)
        return out

    @staticmethod
    def backward(ctx, grad_out: torch.Tensor):
        x, gate, denom = ctx.saved_tensors
        sentence = ctx.packing.sentence
        if x.device.type == "cpu":
            from sentemb.core.runtime.threads import numba_threads
            from sentemb.paraphrastic.peephole_cpu import gated_mean_backward

            grad_x, grad_z = torch.empty_like(x), torch.empty_like(x)
            with numba_threads():
                gated_mean_backward(x.numpy(), gate.numpy(), sentence.numpy(), denom.numpy(),
                                    grad_out.contiguous().numpy(), grad_x.numpy(), grad_z.numpy())
        else:
            d = (grad_out / denom[:, None]).index_select(0, sentence)
            grad_x, grad_z = d * gate, d * x * (1 - gate) * gate
        return grad_x, grad_z, None
