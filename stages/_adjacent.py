"""The params schema of adjacent-sentence training (sentemb.adjacent), shared by siamese_cbow (``model``) and
nws@VECTORS (``nws``); both stages list this file as a dependency."""

from typing import Literal

from pydantic import Field, PositiveFloat, PositiveInt

from _common import Section, Seed


class AdjacentSentenceParams(Section):
    """What sentemb.adjacent.AdjacentSentenceConfig takes, shared by Siamese CBOW and NWS."""

    neg: PositiveInt = 2
    negatives: Literal["corpus", "batch"] = "corpus"  # batch: in-batch negatives (sentemb.adjacent.in_batch_negatives)
    batch_size: PositiveInt = 100
    epochs: PositiveInt = 1
    optimizer: Literal["sgd", "adadelta", "adagrad", "sparse_adam"] = "sgd"
    lr: PositiveFloat = 1e-4
    lr_floor: float = Field(1e-4, gt=0, le=1)
    sgd_lr_sum: PositiveFloat | None = None
    sgd_decay_epochs: PositiveInt | None = None
    max_length: PositiveInt | None = None
    seed: Seed = 1
    device: str = "auto"
    log_every: PositiveInt = 500
    processes: PositiveInt = 1  # > 1: data-parallel under torchrun (DistributedDataParallel)
