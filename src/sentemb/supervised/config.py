"""The supervised family's one schema: the ``supervised`` section of params.yaml (Wieting & Gimpel 2017 §4.3, Tables 5
and 8; Tai et al. 2015's relatedness head), read by the supervised stages and the trainer alike. Every value lives in
params.yaml (:mod:`sentemb.core.config`)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, NonNegativeFloat, PositiveFloat, PositiveInt, model_validator

from sentemb.core.config import Device, Probability, Schema, Seed
from sentemb.core.errors import SentembError

SETTINGS = ("random", "initialised", "universal")
"""Wieting & Gimpel's Table 8 settings, in the order the reports list them."""
SettingName = Literal["random", "initialised", "universal"]


def transfer_model(model: str) -> str:
    """The paraphrastic model whose encoder the supervised model ``model`` uses: ``para-MODEL`` (its trained
    parameters, except in the random setting, and the word vectors it started from)."""
    return f"para-{model}"


class SplitConfig(Schema):
    """``supervised.split``: each STS 2012-2015 dataset split train / dev / test by a seeded permutation."""

    seed: Seed
    train: float = Field(gt=0, lt=1, description="the training share of each dataset (the paper: 0.4)")
    dev: float = Field(gt=0, lt=1, description="the dev share (the paper: 0.1); the rest is test")

    @model_validator(mode="after")
    def _leaves_a_test_share(self) -> SplitConfig:
        if self.train + self.dev >= 1:
            raise ValueError(f"train + dev must leave a test share (got {self.train} + {self.dev})")
        return self


class TrainingConfig(Schema):
    """``supervised.training``: shared by every supervise@ stage: Adam, mini-batches of pairs, the checkpoint with the
    best dev r."""

    hidden: PositiveInt = Field(description="size of h_s (the reference code's memsize: 50)")
    batch_size: PositiveInt = Field(description="pairs per mini-batch")
    epochs: PositiveInt = Field(description="passes over the training split")
    lr: PositiveFloat = Field(description="Adam's learning rate (Lasagne's form)")
    evals_per_epoch: PositiveInt = Field(description="dev evaluations (checkpoints) per epoch")
    max_pairs: PositiveInt | None = Field(description="a cap on the pairs of each split, the first in file order "
                                                      "(quick slices); null: all")
    seed: Seed
    device: Device


class SupervisedModel(Schema):
    """``supervised.models.MODEL``: the encoder of the paraphrastic model ``para-MODEL`` (:func:`transfer_model`) and
    its regularisation here (Table 8)."""

    dropout: float = Field(ge=0, lt=1, description="dropout on the word embeddings")
    word_dropout: float = Field(ge=0, lt=1, description="probability of dropping a whole word vector")
    scramble: Probability = Field(description="probability of shuffling the words of both sentences of a pair")


class Setting(Schema):
    """``supervised.settings.SETTING``: the L2 weights, each term (λ/2)‖θ − anchor‖² as the authors' code."""

    lambda_w: NonNegativeFloat = Field(description="λw: the word vectors to their start")
    lambda_c: NonNegativeFloat = Field(description="λc: the rest to 0, or (universal) to the transfer model")


class SupervisedConfig(Schema):
    """The whole ``supervised`` section."""

    split: SplitConfig
    training: TrainingConfig
    models: dict[str, SupervisedModel] = Field(min_length=1, description="the supervised models, by name "
                                                                         "(supervise@NAME-SETTING)")
    settings: dict[SettingName, Setting] = Field(
        min_length=1, description="Table 8's settings, by name: random (the composition freshly initialised over the "
                                  "transfer model's starting word vectors), initialised (every parameter from the "
                                  "transfer model), universal (initialised, and every parameter pulled back to it)")


SEEDED_SETTING = re.compile(r"^(?P<setting>.+?)(?:-seed(?P<seed>[2-9]|[1-9]\d+))?$")


def run_config(model: str, setting: str, config: SupervisedConfig) -> tuple[str, SupervisedConfig]:
    """The setting and the config of the supervised run MODEL-SETTING: SETTING is a key of ``config.settings``, or
    one followed by ``-seedS`` (S ≥ 2: the run again under training seed S in place of ``training.seed``,
    ``supervise-seed@``).

    Returns:
        The setting's key and ``config`` with the run's training seed.

    Raises:
        SentembError: a model or setting ``config`` does not define.
    """
    seeded = SEEDED_SETTING.match(setting)
    if model not in config.models or seeded["setting"] not in config.settings:
        raise SentembError(f"supervise: unknown model {model!r} or setting {setting!r} (supervised.models defines: "
                           f"{', '.join(config.models)}; settings: {', '.join(config.settings)}, each optionally "
                           "with -seedS, S ≥ 2)")
    if seeded["seed"]:
        config = config.model_copy(update={"training": config.training.model_copy(
            update={"seed": int(seeded["seed"])})})
    return seeded["setting"], config
