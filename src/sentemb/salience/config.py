"""The salience family's one schema module: ``nws`` (Neural Word Salience, Bollegala et al. §3) and ``baselines``
(the training-free weightings it is compared with, NWS paper §4.1, Arora et al. 2017). Every value lives in
params.yaml (:mod:`sentemb.core.config`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, PositiveFloat, PositiveInt, model_validator

from sentemb.adjacent_sentences.config import AdjacentSentenceConfig
from sentemb.core.config import Schema, Seed


class NWSConfig(AdjacentSentenceConfig):
    """``nws``: one salience q_w per word over fixed word vectors, learnt by the adjacent-sentence softmax over inner
    products (Eq. 2-3)."""

    init_low: float = Field(description="the saliences start uniform in [init_low, init_high) (the paper initialises "
                                        "them randomly, §3)")
    init_high: float = Field(description="see init_low")

    @model_validator(mode="after")
    def _interval(self) -> NWSConfig:
        if self.init_high < self.init_low:
            raise ValueError(f"init_high ({self.init_high}) is below init_low ({self.init_low})")
        return self


class BaselinesConfig(Schema):
    """``baselines``: weighted averages without training (baseline@VECTORS-WEIGHTING)."""

    sif_a: PositiveFloat = Field(description="a in a / (a + p(w)) (Arora et al. 2017: 1e-3)")
    component_sentences: PositiveInt = Field(description="training sentences sif-pc-corpus fits its component on")
    usif_components: PositiveInt = Field(description="m, the common components uSIF removes (Ethayarajh 2018: 5)")
    usif_normalisation: Literal["per_dimension", "none"] = Field(
        description="per_dimension: each dimension of a sentence's word vectors divided by its norm over the sentence "
                    "before the weighted mean, as the authors' usif.py does; none: as fse's uSIF")
    seed: Seed
