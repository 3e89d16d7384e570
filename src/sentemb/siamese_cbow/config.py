"""Siamese CBOW's one schema: the ``model`` section of params.yaml (Kenter et al. 2016 §3.4), read by the siamese_cbow
stages and the trainer alike, and ``controls``, the untrained models set beside it. Every value lives in params.yaml
(:mod:`sentemb.core.config`)."""

from __future__ import annotations

from pydantic import Field, PositiveFloat, PositiveInt

from sentemb.adjacent_sentences.config import AdjacentSentenceConfig
from sentemb.core.config import Schema


class SiameseCBOWConfig(AdjacentSentenceConfig):
    """``model``: word vectors trained so that the cosine softmax of sentence averages predicts adjacent sentences."""

    dim: PositiveInt = Field(description="d, the word vectors' dimension (Kenter et al.: 300)")
    init_std: PositiveFloat = Field(description="initial vectors drawn from N(0, init_std²) (Kenter et al. §3.4: "
                                                "0.01)")


class ControlsConfig(Schema):
    """``controls``: the untrained models (sentemb.siamese_cbow.controls), which start where ``model.dim`` and
    ``model.init_std`` say."""

    frequent_words: PositiveInt = Field(description="untrained-frequent: these most frequent words' vectors …")
    frequent_scale: PositiveFloat = Field(description="… scaled by this")
