"""The settings of adjacent-sentence training that Siamese CBOW (``model``) and NWS (``nws``) share; each family's
schema adds its own (:class:`sentemb.siamese_cbow.config.SiameseCBOWConfig`,
:class:`sentemb.salience.config.NWSConfig`). Every value lives in params.yaml (:mod:`sentemb.core.config`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np
from pydantic import Field, PositiveFloat, PositiveInt, model_validator

from sentemb.core.config import Device, Schema, Seed
from sentemb.core.errors import SentembError
from sentemb.core.optim import OptimizerName


class AdjacentSentenceConfig(Schema):
    """Hyperparameters of adjacent-sentence training (Kenter et al. 2016 §2-3; Bollegala et al. §3).

    The learning rate decays linearly with the number of batches, lr_t = lr₀·max(1 − t/T, lr_floor), as the Siamese
    CBOW authors' ``updateLearningRate`` (siamese_cbowUtils.py), which they apply to SGD only. Their released Toronto
    vectors (``…sgd_lr_0_0001_…epochs_5…end_of_epoch_1``) are SGD at lr₀ = 1e-4 with T = 5 epochs of batches, saved
    after the first epoch (740k batches): Σ_t lr_t ≈ 67. ``sgd_lr_sum`` expresses that training amount for any
    corpus size.
    """

    neg: PositiveInt = Field(description="n: random negative sentences per centre sentence (Kenter et al.: 2)")
    negatives: Literal["corpus", "batch"] = Field(
        description="corpus: drawn uniformly from the corpus's non-empty sentences (the papers); batch: from the "
                    "batch's other tuples, reweighted to stay uniform over the corpus (in-batch negatives, "
                    "sentemb.adjacent_sentences.sampling.in_batch_negatives)")
    batch_size: PositiveInt = Field(description="centre sentences per batch (Kenter et al.: 100)")
    epochs: PositiveInt = Field(description="passes over the corpus")
    optimizer: OptimizerName = Field(description="a name of sentemb.core.optim.OPTIMIZERS (Kenter et al.: sgd; the "
                                                 "Siamese CBOW authors' script default: adadelta)")
    lr: PositiveFloat = Field(description="lr₀, the initial learning rate (of SGD only when sgd_lr_sum is null)")
    lr_floor: float = Field(gt=0, le=1, description="lr_t never falls below lr₀·lr_floor (the authors' code: 1e-4; "
                                                    "1.0 keeps it constant)")
    sgd_lr_sum: PositiveFloat | None = Field(
        description="SGD only: lr₀ is set so that Σ_t lr_t over the run equals this (the released vectors: 67); null: "
                    "use lr")
    sgd_decay_epochs: PositiveInt | None = Field(
        description="SGD only: the decay horizon T in epochs (the released vectors: 5); null: epochs")
    max_length: PositiveInt | None = Field(
        description="cut sentences to this many in-vocabulary tokens (the authors' code: 50); null: no cut (paper)")
    seed: Seed
    device: Device
    fit: Literal["auto", "torch", "fused"] = Field(
        description="fused: the family's compiled step (one optimiser, the same arithmetic as torch's); torch: "
                    "torch's autograd and any optimiser; auto: fused where it applies")
    processes: PositiveInt = Field(description="> 1: that many data-parallel processes under torchrun")
    log_every: PositiveInt = Field(description="batches between rows of the loss log")

    @model_validator(mode="after")
    def _in_batch_needs_two(self) -> AdjacentSentenceConfig:
        if self.negatives == "batch" and self.batch_size < 2:
            raise ValueError("in-batch negatives need batches of at least 2 centres (batch_size)")
        return self

    def schedule(self, batches_per_epoch: int) -> tuple[float, Callable[[int], float]]:
        """The initial rate lr₀ and the factor lr_t / lr₀ as a function of the batch count t.

        Returns:
            ``(lr0, factor)``; Σ_{t < epochs·batches_per_epoch} lr0·factor(t) = ``sgd_lr_sum`` when that is set.
        """
        total = self.epochs * batches_per_epoch
        sgd = self.optimizer == "sgd"
        horizon = (self.sgd_decay_epochs if sgd and self.sgd_decay_epochs else self.epochs) * batches_per_epoch
        floor = self.lr_floor

        def factor(step: int) -> float:
            return max(1.0 - step / horizon, floor)

        if sgd and self.sgd_lr_sum is not None:
            steps = np.arange(total, dtype=np.float64)
            return self.sgd_lr_sum / float(np.maximum(1.0 - steps / horizon, floor).sum()), factor
        return self.lr, factor

    def takes_fused_step(self, optimizer: str, device_type: str, processes: int, key: str,
                         devices: tuple[str, ...] = ("cpu",)) -> bool:
        """Whether a trainer takes its family's fused step (``fit: fused``; ``auto``: where it applies) rather than
        torch's autograd. A fused step implements one optimiser in one process, on the devices it was written for.

        Args:
            optimizer: the optimiser the family's fused step implements (``"sgd"``, ``"adagrad"``).
            device_type: where the run trains (``"cpu"``, ``"cuda"``).
            processes: the data-parallel processes of the run.
            key: the params section named in errors (``model``, ``nws``).
            devices: the device types the family's fused step runs on.

        Raises:
            SentembError: ``fit: fused`` asked for with another optimiser or device, or several processes.
        """
        possible = self.optimizer == optimizer and device_type in devices and processes == 1
        if self.fit == "fused" and not possible:
            where = " or ".join({"cpu": "the CPU", "cuda": "a GPU"}.get(d, d) for d in devices)
            raise SentembError(f"{key}.fit: the fused fit is optimizer {optimizer!r} on {where} in one "
                               f"process (optimizer {self.optimizer!r}, device {device_type}, {processes} processes); "
                               "use fit: torch or auto")
        return self.fit == "fused" or (self.fit == "auto" and possible)
