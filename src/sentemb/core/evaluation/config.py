"""The ``evaluate`` params section's schema, read by every evaluate stage and by benchmark-tokens. Every value lives in
params.yaml (:mod:`sentemb.core.config`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sentemb.core.config import Schema

Benchmark = Literal["STS12", "STS13", "STS14", "STS15", "STS16", "SICK-R", "STS-B", "PIT-2015"]


class EvaluateConfig(Schema):
    """``evaluate``: which benchmarks every model is scored on, and how unknown words are treated."""

    benchmarks: list[Benchmark] = Field(min_length=1, description="STS12 … STS16, SICK-R, STS-B, PIT-2015")
    oov: Literal["drop", "random"] = Field(
        description="unknown words of the models that own their word vectors: drop (the papers) | random (a fixed "
                    "N(0, 0.01²) vector per word, the Siamese CBOW authors' evaluation code)")
    oov_both: list[str] = Field(description="models also scored the other way (metrics MODEL.json 'oov')")
