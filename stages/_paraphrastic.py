"""The params schema of the paraphrastic models (``paraphrastic.NAME``), read by paraphrastic@NAME and by the report
(which names each model as the paper does); both stages list this file as a dependency."""

from typing import Literal

from pydantic import Field, PositiveFloat, PositiveInt

from _common import Section, Seed, params


class Paraphrastic(Section):
    """One model of the ``paraphrastic`` section: paraphrastic@NAME (stages/paraphrastic.py)."""

    vectors: str = "paragram"
    pairs: Literal["sentences", "ppdb-lexical"] = "sentences"
    select: Literal["STS16", "SimLex-999"] = "STS16"
    encoder: Literal["avg", "proj", "dan", "rnn", "lstm", "lstmavg", "gran"]
    layers: PositiveInt = 1
    activation: Literal["tanh", "identity"] = "tanh"
    output_gate: bool = True
    bidirectional: bool = False
    combine: Literal["sum", "tanh"] = "sum"
    variant: int = Field(1, ge=1, le=5)
    dropout: float = Field(0.0, ge=0, lt=1)
    word_dropout: float = Field(0.0, ge=0, lt=1)
    scramble: float = Field(0.0, ge=0, le=1)
    margin: PositiveFloat = 0.4
    negatives: Literal["max", "mix", "rand"] = "max"
    batch_size: PositiveInt = 100
    epochs: PositiveInt = 10
    optimizer: Literal["adam", "adagrad", "adagrad_duchi"] = "adam"  # sentemb.optim
    lr: PositiveFloat = 0.001
    lambda_w: float = Field(0.0, ge=0)
    lambda_c: float = Field(0.0, ge=0)
    grad_clip: PositiveFloat | None = None
    sparse_embeddings: bool = True
    evals_per_epoch: PositiveInt = 4
    seed: Seed = 1
    device: str = "auto"
    products: Literal["float32", "bfloat16"] = "float32"  # the recurrence's matrix products in training
    processes: PositiveInt = 1  # > 1: data-parallel under torchrun (DistributedDataParallel)


def paraphrastic_params(name: str) -> Paraphrastic:
    """``paraphrastic.<name>`` of params.yaml, validated."""
    return params(f"paraphrastic.{name}", Paraphrastic, what="paraphrastic model")
