"""The params schema of the supervised stages (``supervised.models.MODEL``, ``supervised.settings.SETTING``,
``supervised.training``), read by supervise@MODEL-SETTING and report-supervised; both list this file as a dependency."""

from pydantic import Field, PositiveInt

from _common import Section, Seed

SETTINGS = ("random", "initialised", "universal")


class Model(Section):
    """``supervised.models.MODEL``: the transfer model whose encoder is used, and its regularisation here."""

    transfer: str
    dropout: float = Field(0.0, ge=0, lt=1)
    word_dropout: float = Field(0.0, ge=0, lt=1)
    scramble: float = Field(0.0, ge=0, le=1)


class Setting(Section):
    """``supervised.settings.SETTING``: the L2 weights (λw on the word vectors, λc on the rest)."""

    lambda_w: float = Field(0.0, ge=0)
    lambda_c: float = Field(0.0, ge=0)


class Training(Section):
    """``supervised.training``: shared by every supervise@ stage."""

    hidden: PositiveInt = 50
    batch_size: PositiveInt = 25
    epochs: PositiveInt = 10
    lr: float = Field(0.001, gt=0)
    evals_per_epoch: PositiveInt = 1
    max_pairs: PositiveInt | None = None
    seed: Seed = 1
    device: str = "auto"
