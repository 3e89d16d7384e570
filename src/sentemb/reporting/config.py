"""The reports' schemas: one per paper, the ``report.PAPER`` sections of params.yaml (which models each paper's
report compares). Every value lives in params.yaml (:mod:`sentemb.core.config`)."""

from __future__ import annotations

from pydantic import Field

from sentemb.core.config import Schema


class Kenter2016Report(Schema):
    """``report.kenter2016``: Kenter et al. 2016, Table 1 and the controls."""

    models: list[str] = Field(min_length=1, description="the Table 1 models: word2vec skip-gram and CBOW averages, "
                                                        "Siamese CBOW")
    controls: list[str] = Field(description="untrained models: what a model scores without training")
    training_amount: list[str] = Field(description="Siamese CBOW at several summed learning rates (and untrained)")
    negatives: list[str] = Field(description="Siamese CBOW with several numbers of negatives (Figure 3), in order")
    dimensions: list[str] = Field(description="Siamese CBOW at several dimensions (Figure 4), in order")
    in_batch: str | None = Field(description="Siamese CBOW with in-batch negatives, tested against the paper's "
                                             "sampler; null: none")


class Bollegala2018Report(Schema):
    """``report.bollegala2018``: Bollegala et al., Tables 1-3."""

    vectors: list[str] = Field(min_length=1, description="the word-vector models weighted by AVG, ISF, SIF and NWS")
    controls: list[str] = Field(description="training-free models the paper's trained method is tested against "
                                            "(a random-vector IDF average, a uSIF average): what training adds")


class Wieting2016Report(Schema):
    """``report.wieting2016``: Wieting et al. 2016, the encoders in transfer."""

    models: list[str] = Field(min_length=1, description="paraphrastic models: AVG first, then the encoders it is "
                                                        "compared with (PROJ, DAN, RNN, LSTM)")
    baselines: list[str] = Field(description="averaged word vectors without training on pairs")
    controls: list[str] = Field(description="training-free models the paper's trained method is tested against "
                                            "(a random-vector IDF average, a uSIF average): what training adds")


class Wieting2017Report(Schema):
    """``report.wieting2017``: Wieting & Gimpel 2017, Tables 1-3 (transfer) and 5, 6, 8 (supervised)."""

    models: list[str] = Field(min_length=1, description="paraphrastic models of Tables 1-3 (AVG, LSTM, LSTMAVG, "
                                                        "GRAN …)")
    baselines: list[str] = Field(description="averaged word vectors without training on pairs")
    controls: list[str] = Field(description="training-free models the paper's trained method is tested against "
                                            "(a random-vector IDF average, a uSIF average): what training adds")
