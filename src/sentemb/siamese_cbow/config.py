"""Siamese CBOW's one schema: the ``model`` section of params.yaml (Kenter et al. 2016 §3.4), read by the siamese_cbow
stages and the trainer alike, and ``controls``, the untrained models set beside it. Every value lives in params.yaml
(:mod:`sentemb.core.config`); a run's name may change one of them (:func:`run_config`)."""

from __future__ import annotations

import re

from pydantic import Field, PositiveFloat, PositiveInt

from sentemb.adjacent_sentences.config import AdjacentSentenceConfig
from sentemb.core.config import Schema
from sentemb.core.errors import SentembError

RUN_NAME = re.compile(r"^siamese_cbow(?:-lrsum(?P<lr_sum>\d+(?:\.\d+)?)|(?P<inbatch>-inbatch)|-neg(?P<neg>[1-9]\d*)"
                      r"|-dim(?P<dim>[1-9]\d*))?(?:-seed(?P<seed>[2-9]|[1-9]\d+))?$")


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


def run_config(name: str, config: SiameseCBOWConfig) -> SiameseCBOWConfig:
    """The config of the Siamese CBOW run ``name``: ``model`` (``config``) with what the name changes.

    ``siamese_cbow`` is the model; ``siamese_cbow-lrsumX`` trains with SGD and ``sgd_lr_sum`` = X (a point of the
    training-amount curve, Kenter et al. Figure 2); ``siamese_cbow-inbatch`` with in-batch negatives
    (``negatives: batch``); ``siamese_cbow-negK`` with K negative sentences a centre (Figure 3); ``siamese_cbow-dimD``
    with D-dimensional vectors (Figure 4). A ``-seedS`` suffix (S ≥ 2) trains any of these under seed S in place of
    ``seed``: the runs over which the reports judge a claim.

    Raises:
        SentembError: a name of none of these forms.
    """
    run = RUN_NAME.match(name)
    if run is None:
        raise SentembError(f"unknown model {name!r}; this stage trains siamese_cbow, siamese_cbow-lrsumX (SGD with a "
                           "summed learning rate of X), siamese_cbow-inbatch (in-batch negatives), siamese_cbow-negK "
                           "(K negatives) and siamese_cbow-dimD (D dimensions), each optionally with -seedS (S ≥ 2: "
                           "the training seed instead of model.seed)")
    update: dict = {}
    if run["lr_sum"]:
        update = {"optimizer": "sgd", "sgd_lr_sum": float(run["lr_sum"])}
    elif run["inbatch"]:
        update = {"negatives": "batch"}
    elif run["neg"]:
        update = {"neg": int(run["neg"])}
    elif run["dim"]:
        update = {"dim": int(run["dim"])}
    if run["seed"]:
        update["seed"] = int(run["seed"])
    return config.model_copy(update=update)
