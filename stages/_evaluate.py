"""The ``evaluate`` params section, read by every evaluate stage and by benchmark-tokens."""

from typing import Literal

from pydantic import Field

from _common import Section


class Evaluate(Section):
    benchmarks: list[Literal["STS12", "STS13", "STS14", "STS15", "STS16", "SICK-R", "STS-B", "PIT-2015"]] = Field(
        min_length=1)
    oov: Literal["drop", "random"] = "drop"
    oov_both: list[str] = Field(default_factory=list)
