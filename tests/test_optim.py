"""The optimisers: Lasagne's Adam and AdaGrad (sentemb.core.optim.lasagne) against their formulas, written out in numpy,
and the one registry (sentemb.core.optim)."""

import numpy as np
import pytest
import torch

from sentemb.core.errors import SentembError
from sentemb.core.optim import DUCHI_DELTA, OPTIMIZERS, build_optimizers
from sentemb.core.optim.lasagne import LasagneAdagrad, LasagneAdam
from sentemb.core.optim.sparse import CompiledSparseAdam, SparseAdadelta


def _gradients(rng: np.random.Generator, steps: int, shape: tuple[int, ...]) -> list[np.ndarray]:
    """Gradients over eight orders of magnitude: the small ones are where ε's place matters."""
    return [rng.normal(size=shape) * 10.0 ** rng.integers(-10, -2, size=shape) for _ in range(steps)]


def _run(optimizer_class, theta: np.ndarray, grads: list[np.ndarray], **kwargs) -> np.ndarray:
    p = torch.nn.Parameter(torch.from_numpy(theta.copy()))
    opt = optimizer_class([p], **kwargs)
    for g in grads:
        p.grad = torch.from_numpy(g.copy())
        opt.step()
    return p.detach().numpy()


def test_lasagne_adam_is_lasagnes_formula_and_not_torchs():
    """lasagne.updates.adam: a_t = lr·√(1 − β2^t)/(1 − β1^t), θ ← θ − a_t·m_t/(√v_t + ε)."""
    rng = np.random.default_rng(0)
    theta, grads = rng.normal(size=(5, 7)), _gradients(rng, 4, (5, 7))
    lr, b1, b2, eps = 1e-3, 0.9, 0.999, 1e-8
    want, m, v = theta.copy(), np.zeros_like(theta), np.zeros_like(theta)
    for t, g in enumerate(grads, start=1):
        m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
        want = want - lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(v) + eps)
    got = _run(LasagneAdam, theta, grads, lr=lr)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)
    torchs = _run(torch.optim.Adam, theta, grads, lr=lr)
    assert np.abs(torchs - want).max() > 1e-5  # torch puts ε after the bias correction: other steps for small g


@pytest.mark.parametrize("compiled", [False, True])
def test_lasagne_adam_with_l2_is_the_step_of_the_loss_with_the_anchored_term(compiled):
    """A group's l2 = λ and anchor θ₀ take the step autograd takes on loss + (λ/2)‖θ − θ₀‖² (no anchor: θ₀ = 0); the
    compiled CPU pass (float32) is the torch kernels' step up to float rounding."""
    torch.manual_seed(0)
    start = {"w": torch.randn(40, 6), "c": torch.randn(7)}
    anchor = start["w"] + 0.3 * torch.randn(40, 6)
    lam = {"w": 0.5, "c": 0.2}
    x = torch.randn(40, 6)

    def loss_of(p):
        return (p["w"] * x).sum() ** 2 / 100 + p["c"].sin().sum()

    autograd = {k: torch.nn.Parameter(v.clone()) for k, v in start.items()}
    fused = {k: torch.nn.Parameter(v.clone()) for k, v in start.items()}
    reference = LasagneAdam(autograd.values(), lr=0.01)
    ours = LasagneAdam([{"params": [fused["w"]], "l2": lam["w"], "anchor": anchor},
                        {"params": [fused["c"]], "l2": lam["c"]}], lr=0.01, compiled=compiled)
    for _ in range(5):
        reference.zero_grad()
        (loss_of(autograd) + 0.5 * lam["w"] * (autograd["w"] - anchor).pow(2).sum()
         + 0.5 * lam["c"] * autograd["c"].pow(2).sum()).backward()
        reference.step()
        ours.zero_grad()
        loss_of(fused).backward()
        ours.step()
    assert (autograd["w"] - start["w"]).abs().max() > 0.02
    for k in start:
        torch.testing.assert_close(fused[k], autograd[k], rtol=0, atol=1e-6)
    with pytest.raises(SentembError, match="an anchor of shape"):
        LasagneAdam([{"params": [fused["w"]], "l2": 1.0, "anchor": torch.zeros(3)}])


def test_lasagne_adam_refuses_sparse_gradients():
    emb = torch.nn.Embedding(4, 3, sparse=True)
    emb(torch.tensor([1, 2])).sum().backward()
    with pytest.raises(SentembError, match="dense gradients"):
        LasagneAdam(emb.parameters()).step()


def test_lasagne_adagrad_dense_is_lasagnes_formula():
    """lasagne.updates.adagrad: Σ ← Σ + g², θ ← θ − lr·g/√(Σ + ε)."""
    rng = np.random.default_rng(1)
    theta, grads = rng.normal(size=(6, 4)), _gradients(rng, 3, (6, 4))
    want, total = theta.copy(), np.zeros_like(theta)
    for g in grads:
        total = total + g * g
        want = want - 0.05 * g / np.sqrt(total + 1e-6)
    np.testing.assert_allclose(_run(LasagneAdagrad, theta, grads, lr=0.05), want, rtol=0, atol=1e-15)


def test_lasagne_adagrad_sparse_updates_the_rows_of_the_gradient_as_dense_does():
    torch.manual_seed(0)
    weights = torch.randn(8, 3, dtype=torch.float64)
    sparse, dense = (torch.nn.Embedding.from_pretrained(weights.clone(), freeze=False, sparse=s) for s in (True, False))
    opts = [LasagneAdagrad(e.parameters(), lr=0.1) for e in (sparse, dense)]
    for ids in ([1, 2, 2, 5], [2, 7], [1, 1, 0]):  # repeated rows: the sparse gradient is coalesced first
        for e, opt in zip((sparse, dense), opts, strict=True):
            opt.zero_grad()
            (e(torch.tensor(ids)) ** 2).sum().backward()
            opt.step()
    np.testing.assert_allclose(sparse.weight.detach().numpy(), dense.weight.detach().numpy(), rtol=0, atol=1e-15)
    untouched = [3, 4, 6]
    assert torch.equal(sparse.weight.detach()[untouched], weights[untouched])


def test_the_registry_names_each_rule():
    """One name a rule: adagrad_duchi is Duchi et al.'s form with δ = 1e-4 (Wieting et al. 2015's AGWords.m); adam
    takes torch's SparseAdam (Lasagne's form) for the sparse parameters and LasagneAdam for the dense ones."""
    rng = np.random.default_rng(2)
    theta, grads = rng.normal(size=(3, 3)), _gradients(rng, 2, (3, 3))
    want, total = theta.copy(), np.zeros_like(theta)
    for g in grads:
        total = total + g * g
        want = want - 0.05 * g / (np.sqrt(total) + DUCHI_DELTA)
    p = torch.nn.Parameter(torch.from_numpy(theta.copy()))
    [opt] = build_optimizers("adagrad_duchi", [p], [], 0.05)
    for g in grads:
        p.grad = torch.from_numpy(g.copy())
        opt.step()
    np.testing.assert_allclose(p.detach().numpy(), want, rtol=1e-12, atol=1e-15)
    dense, sparse = torch.nn.Linear(2, 2).weight, torch.nn.Embedding(4, 2, sparse=True).weight
    kinds = {name: [type(o) for o in build_optimizers(name, [dense], [sparse], 0.1)] for name in OPTIMIZERS}
    assert kinds == {"sgd": [torch.optim.SGD], "adadelta": [SparseAdadelta], "adagrad": [torch.optim.Adagrad],
                     "adagrad_duchi": [torch.optim.Adagrad], "adagrad_lasagne": [LasagneAdagrad],
                     "adam": [CompiledSparseAdam, LasagneAdam]}
    with pytest.raises(SentembError, match="optimizer: unknown 'lbfgs'"):
        build_optimizers("lbfgs", [dense], [], 0.1)
