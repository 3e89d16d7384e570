"""The optimisers, in one registry: every trainer picks its optimiser by a name of :data:`OPTIMIZERS`.

The names say whose arithmetic each is, since the papers' code used Lasagne's forms and those differ from torch's
where ε sits (:mod:`.lasagne`):

- ``sgd``: ``torch.optim.SGD`` (Siamese CBOW, Kenter et al. 2016).
- ``adadelta``: Lasagne's AdaDelta (ρ 0.95, ε 1e-6), lazy on sparse rows (:class:`~.sparse.SparseAdadelta`): the
  Siamese CBOW authors' script default.
- ``adagrad``: ``torch.optim.Adagrad``, lr·g/(√Σg² + 1e-10) (Duchi et al. 2011): NWS (Bollegala et al. cite AdaGrad).
- ``adagrad_duchi``: the same with δ = 1e-4 added to the root, as Wieting et al. 2015's PARAGRAM code (``AGWords.m``).
- ``adagrad_lasagne``: Lasagne's AdaGrad, lr·g/√(Σg² + 1e-6) (:class:`~.lasagne.LasagneAdagrad`): Wieting et al.
  2016's DAN.
- ``adam``: Lasagne's Adam, ε added to √v before the bias correction (:class:`~.lasagne.LasagneAdam`) on dense
  gradients, and on sparse ones torch's SparseAdam, which has Lasagne's form, compiled on the CPU
  (:class:`~.sparse.CompiledSparseAdam`): the paraphrastic and supervised models (Wieting et al.).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, get_args

from sentemb.core.errors import SentembError

if TYPE_CHECKING:
    import torch

OptimizerName = Literal["sgd", "adadelta", "adagrad", "adagrad_duchi", "adagrad_lasagne", "adam"]
OPTIMIZERS: tuple[str, ...] = get_args(OptimizerName)
DUCHI_DELTA = 1e-4  # Wieting et al. 2015's AGWords.m: delta = 1E-4


def build_optimizers(name: str, dense: Sequence[torch.Tensor], sparse: Sequence[torch.Tensor], lr: float
                     ) -> list[torch.optim.Optimizer]:
    """The optimiser ``name`` (:data:`OPTIMIZERS`) over the parameters, as one or two ``torch.optim.Optimizer``.

    Args:
        dense: parameters whose gradients are dense tensors.
        sparse: parameters whose gradients are sparse (an ``nn.Embedding(sparse=True)`` weight); every optimiser
            but ``adam`` takes both kinds in one optimiser, ``adam`` takes a second one for these
            (:class:`~.sparse.CompiledSparseAdam`).
        lr: the (initial) learning rate.

    Returns:
        The optimisers to step, in order (each has its own ``param_groups`` for a learning-rate schedule).

    Raises:
        SentembError: an unknown name.
    """
    import torch  # here, not at the top: the configs that name an optimiser are read by stages that never train

    from sentemb.core.optim.lasagne import LasagneAdagrad, LasagneAdam
    from sentemb.core.optim.sparse import CompiledSparseAdam, SparseAdadelta

    params = [*sparse, *dense]
    if name == "sgd":
        return [torch.optim.SGD(params, lr=lr)]
    if name == "adadelta":
        return [SparseAdadelta(params, lr=lr)]
    if name in ("adagrad", "adagrad_duchi", "adagrad_lasagne"):
        # the AdaGrads build sparse tensors from a coalesced gradient; say explicitly that their invariants go
        # unchecked (torch's default), or torch warns once a process that the checks are "implicitly disabled"
        torch.sparse.check_sparse_tensor_invariants.disable()
        if name == "adagrad_lasagne":
            return [LasagneAdagrad(params, lr=lr)]
        return [torch.optim.Adagrad(params, lr=lr, **({"eps": DUCHI_DELTA} if name == "adagrad_duchi" else {}))]
    if name == "adam":
        return ([CompiledSparseAdam(list(sparse), lr=lr)] if sparse else []) + (
            [LasagneAdam(list(dense), lr=lr)] if dense else [])
    raise SentembError(f"optimizer: unknown {name!r} (expected one of {', '.join(OPTIMIZERS)})")
