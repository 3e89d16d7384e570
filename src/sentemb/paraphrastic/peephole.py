"""The peephole LSTM's recurrence over packed sentences, with its backward pass through time written out.

The LSTM of Wieting et al. (2016) and Wieting & Gimpel (2017 §2), with the peephole connections of Gers,
Schraudolph & Schmidhuber (2003): for the n_t sentences still going at step t,

    z_t = W_x x_t + b + W_h h_{t−1}                       (W_x x_t + b: one matrix product over all the tokens)
    i_t = σ(z_i + w_ci ⊙ c_{t−1}),  f_t = σ(z_f + w_cf ⊙ c_{t−1}),  g_t = tanh(z_c)
    c_t = f_t ⊙ c_{t−1} + i_t ⊙ g_t
    o_t = σ(z_o + w_co ⊙ c_t),  h_t = o_t ⊙ tanh(c_t)      (h_t = tanh(c_t) without the output gate)

with h_0 = c_0 = 0. This is what :meth:`sentemb.paraphrastic.composition.PeepholeLSTM.cell` computes one step at a
time under autograd; here the forward pass writes the gates, cells and states of all steps into preallocated
matrices, and the backward pass is the chain rule of these equations run from the last step to the first:

    dc_t += dh_t ⊙ o_t ⊙ (1 − tanh²c_t) + dz_o ⊙ w_co,   dz_o = dh_t ⊙ tanh(c_t) ⊙ o_t (1 − o_t)
    dz_i = dc_t ⊙ g_t ⊙ i_t (1 − i_t),  dz_f = dc_t ⊙ c_{t−1} ⊙ f_t (1 − f_t),  dz_c = dc_t ⊙ i_t ⊙ (1 − g_t²)
    dc_{t−1} = dc_t ⊙ f_t + dz_i ⊙ w_ci + dz_f ⊙ w_cf,   dh_{t−1} = dz_t W_h

Each step's element-wise part (the first three lines) is one compiled pass over the step's rows on the CPU
(:mod:`sentemb.paraphrastic.peephole_cpu`) and torch operations on a GPU; dh_{t−1} = dz_t W_h is one small product.
The gradients of W_x, b, W_h and the peephole weights are sums over every step: each is taken once, after the loop,
as one matrix product (dZᵀ X, dZᵀ H_prev) or one column sum, instead of one small product per step. Autograd of the
cell would record about 30 operations a step; this records one node for the whole recurrence. The arithmetic is the
same up to float rounding (tests: ``test_packed_recurrence_is_the_padded_loop``, and a finite-difference check).

With ``products=torch.bfloat16`` (the ``products`` setting of paraphrastic training; off by default) every matrix
product above, forwards and backwards, rounds its two operands to bfloat16 and its result to bfloat16 (the products
accumulate in float32 inside oneDNN on the CPU, cuBLAS on a GPU) and adds it into the float32 gates, gradients and
states; everything else (the element-wise recurrence, the cells, the states, the optimiser) stays float32. Each
operand is rounded once and kept in bfloat16 for every product that reads it (x, each h_t as the step is done, each
dz_t as its step is done), W_x and W_h once a pass: the same bits as rounding it at every product. It is
mixed-precision training, as ``torch.autocast`` does it, confined to the recurrence: not the papers' float32
arithmetic, and not bit-reproducible across BLAS libraries.
"""

from __future__ import annotations

from contextlib import nullcontext
from itertools import accumulate

import torch


def _previous_rows(sizes: list[int], device: torch.device) -> torch.Tensor:
    """int64 (N − n_0,): for each row of steps 1 … T−1 (in packed order), the row of the same sentence at the step
    before. Sentences are sorted longest first, so step t's n_t rows follow step t−1's first n_t rows."""
    starts = list(accumulate(sizes, initial=0))
    return torch.cat([torch.arange(starts[t - 1], starts[t - 1] + sizes[t], device=device)
                      for t in range(1, len(sizes))] + [torch.zeros(0, dtype=torch.int64, device=device)])


class PackedPeepholeLSTM(torch.autograd.Function):
    """``PackedPeepholeLSTM.apply(x, sizes, w_x, b, w_h, peephole, output_gate)`` → h, float (N, hidden).

    Args:
        x: float (N, input): the N real tokens' vectors, time-major with the sentences longest first (the layout of
            :class:`torch.nn.utils.rnn.PackedSequence`): step t's n_t rows follow step t−1's and are its first n_t
            sentences.
        sizes: n_0 ≥ n_1 ≥ … (Python ints summing to N): sentences still going at each step.
        w_x, b: float (gates·hidden, input) and (gates·hidden,): W_x and b, as ``nn.Linear`` stores them.
        w_h: float (gates·hidden, hidden): W_h. Gates in the order i, f, c, o.
        peephole: float (gates − 1, hidden): w_ci, w_cf and (with the output gate) w_co.
        output_gate: 4 gates with o_t, or 3 (h_t = tanh(c_t)).
        products: ``None`` (the default: float32 products) or a lower float dtype (``torch.bfloat16``) for the
            matrix products' operands and results (see the module docstring).

    Returns:
        h_t for every row of ``x``, float (N, hidden), in the same order.
    """

    @staticmethod
    def forward(ctx, x: torch.Tensor, sizes: list[int], w_x: torch.Tensor, b: torch.Tensor, w_h: torch.Tensor,
                peephole: torch.Tensor, output_gate: bool, products: torch.dtype | None = None) -> torch.Tensor:
        hidden = w_h.shape[1]
        products = product_dtype(products, x)
        cells = torch.empty(x.shape[0], hidden, dtype=x.dtype, device=x.device)
        tanh_cells = torch.empty_like(cells)
        states = torch.empty_like(cells)
        if products is None:
            gates = torch.addmm(b, x, w_x.t())  # z: W_x x + b, then W_h h_{t−1} added; becomes i, f, g, o in place
            w_t, x_low, states_low = w_h.t(), x, states
        else:  # each operand rounded once and kept: x for W_x's gradient, each h_t for the next step and W_h's
            x_low = x.to(products)
            gates = low_precision_mm(x_low, w_x.t(), products, x.dtype).add_(b)
            w_t = w_h.t().to(products)
            states_low = torch.empty(states.shape, dtype=products, device=x.device)
        starts = list(accumulate(sizes, initial=0))
        for t, n in enumerate(sizes):
            rows, prev = slice(starts[t], starts[t] + n), starts[t - 1]
            z = gates[rows]
            i, f, g = z[:, :hidden], z[:, hidden:2 * hidden], z[:, 2 * hidden:3 * hidden]
            c = cells[rows]
            if t:
                h_prev, c_prev = states_low[prev:prev + n], cells[prev:prev + n]
                if products is None:
                    z.addmm_(h_prev, w_t)
                else:
                    z.add_(torch.mm(h_prev, w_t))
                i.addcmul_(peephole[0], c_prev)
                f.addcmul_(peephole[1], c_prev)
                z[:, :2 * hidden].sigmoid_()  # i and f
                torch.mul(f, c_prev, out=c)
            else:  # c_0 = 0: no peephole term, and f_0 multiplies nothing (its gradient is zero)
                z[:, :2 * hidden].sigmoid_()
                c.zero_()
            g.tanh_()
            c.addcmul_(i, g)
            tc = torch.tanh(c, out=tanh_cells[rows])
            if output_gate:
                o = z[:, 3 * hidden:]
                o.addcmul_(peephole[2], c).sigmoid_()
                torch.mul(o, tc, out=states[rows])
            else:
                states[rows].copy_(tc)
            if products is not None:
                states_low[rows].copy_(states[rows])
        ctx.sizes, ctx.output_gate, ctx.products = sizes, output_gate, products
        ctx.save_for_backward(x_low, w_x, gates, cells, tanh_cells, states_low, w_h, peephole)
        return states

    @staticmethod
    def backward(ctx, grad_states: torch.Tensor):
        # x and states: as the products read them (in ``products`` when it is set, rounded once in the forward pass)
        x, w_x, gates, cells, tanh_cells, states, w_h, peephole = ctx.saved_tensors
        sizes, output_gate, products = ctx.sizes, ctx.output_gate, ctx.products
        hidden = w_h.shape[1]
        grad_z = torch.empty_like(gates)
        # dz_t rounded once, as its step's product reads it, and kept for the weights' products after the loop
        grad_z_low = grad_z if products is None else torch.empty(gates.shape, dtype=products, device=gates.device)
        w_h_low = w_h if products is None else w_h.to(products)
        grad_h = torch.zeros(sizes[0], hidden, dtype=gates.dtype, device=gates.device)  # W_h's part of dh_t
        grad_c = torch.zeros_like(grad_h)  # dc_t from step t + 1 (rows past n_{t+1}: zero, never written)
        grad_states = grad_states.contiguous()
        tensors = (gates, tanh_cells, cells, grad_states, grad_h, grad_c, grad_z, peephole.detach().contiguous())
        cpu = gates.device.type == "cpu"
        if cpu:  # each step's element-wise part in one compiled pass; numba is imported only when it is needed
            from sentemb.core.runtime.threads import numba_threads
            from sentemb.paraphrastic import peephole_cpu

            arrays = [t.numpy() for t in tensors]
        starts = list(accumulate(sizes, initial=0))
        with numba_threads() if cpu else nullcontext() as threads:
            for t in range(len(sizes) - 1, -1, -1):
                n, step = sizes[t], (starts[t], starts[t - 1] if t else -1)
                if cpu:
                    peephole_cpu.cell_backward(*arrays, *step, n, output_gate, threads)
                else:
                    _cell_backward(*tensors, *step, n, output_gate)
                rows = slice(starts[t], starts[t] + n)
                if products is not None:
                    grad_z_low[rows].copy_(grad_z[rows])
                if t:
                    if products is None:
                        torch.mm(grad_z[rows], w_h, out=grad_h[:n])  # dh_{t−1}'s recurrent part
                    else:
                        grad_h[:n].copy_(torch.mm(grad_z_low[rows], w_h_low))
        previous = _previous_rows(sizes, gates.device)
        later = grad_z[sizes[0]:]
        cells_prev = cells[previous]
        grad_peephole = torch.stack(
            [(later[:, :hidden] * cells_prev).sum(0), (later[:, hidden:2 * hidden] * cells_prev).sum(0)]
            + ([(grad_z[:, 3 * hidden:] * cells).sum(0)] if output_gate else []))
        def mm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:  # the weights' and the input's gradients
            return torch.mm(a, b) if products is None else low_precision_mm(a, b, products, gates.dtype)
        grad_x = mm(grad_z_low, w_x) if ctx.needs_input_grad[0] else None
        grad_w_h = mm(grad_z_low[sizes[0]:].t(), states[previous])
        return grad_x, None, mm(grad_z_low.t(), x), grad_z.sum(0), grad_w_h, grad_peephole, None, None


def product_dtype(products: torch.dtype | None, x: torch.Tensor) -> torch.dtype | None:
    """The dtype the matrix products over ``x`` round their operands and results to: ``products`` when it is set
    and is not x's own dtype, else ``None`` (x's own precision, nothing rounded). The one test of "a lower
    precision?" for the LSTM and GRAN's gates."""
    return products if products is not None and products != x.dtype else None


def low_precision_mm(a: torch.Tensor, b: torch.Tensor, dtype: torch.dtype,
                     out_dtype: torch.dtype | None = None) -> torch.Tensor:
    """a @ b, float (n, k) @ (k, m) → (n, m) in ``out_dtype`` (``None``: a's dtype), with both operands rounded to
    ``dtype`` (``torch.bfloat16``; an operand already in it is used as it is) and the product, accumulated in float32
    by the BLAS, rounded to ``dtype`` before it is cast to ``out_dtype``. Differentiable (plain torch operations), so
    GRAN's gate products use it under autograd too; the LSTM's backward pass passes operands it rounded once and the
    gradients' dtype as ``out_dtype``."""
    return torch.mm(a.to(dtype), b.to(dtype)).to(a.dtype if out_dtype is None else out_dtype)


def _cell_backward(gates: torch.Tensor, tanh_cells: torch.Tensor, cells: torch.Tensor, grad_states: torch.Tensor,
                   grad_h: torch.Tensor, grad_c: torch.Tensor, grad_z: torch.Tensor, peephole: torch.Tensor,
                   start: int, previous: int, n: int, output_gate: bool) -> None:
    """:func:`sentemb.paraphrastic.peephole_cpu.cell_backward` (same arguments, as tensors) in torch operations,
    for tensors on a GPU: step t's dz_t into ``grad_z`` and dc_{t−1} into ``grad_c``, in place."""
    hidden = tanh_cells.shape[1]
    rows = slice(start, start + n)
    i, f, g = gates[rows, :hidden], gates[rows, hidden:2 * hidden], gates[rows, 2 * hidden:3 * hidden]
    tc = tanh_cells[rows]
    dz = grad_z[rows]
    dh = grad_states[rows] + grad_h[:n]
    dc = grad_c[:n]
    if output_gate:
        o = gates[rows, 3 * hidden:]
        dzo = dz[:, 3 * hidden:]
        torch.mul(dh, tc, out=dzo)
        dzo.mul_(o).mul_(1 - o)
        dc.addcmul_(dh * o, 1 - tc * tc)
        dc.addcmul_(dzo, peephole[2])
    else:
        dc.addcmul_(dh, 1 - tc * tc)
    torch.mul(dc, g, out=dz[:, :hidden]).mul_(i).mul_(1 - i)
    torch.mul(dc, i, out=dz[:, 2 * hidden:3 * hidden]).mul_(1 - g * g)
    if previous >= 0:
        dzf = torch.mul(dc, cells[previous:previous + n], out=dz[:, hidden:2 * hidden]).mul_(f).mul_(1 - f)
        dc.mul_(f).addcmul_(dz[:, :hidden], peephole[0]).addcmul_(dzf, peephole[1])  # now dc_{t−1}
    else:
        dz[:, hidden:2 * hidden].zero_()
