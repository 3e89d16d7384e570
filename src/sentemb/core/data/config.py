"""The params schemas of the data stages: ``download``, ``split``, ``vocab`` and ``pairs`` (every value lives in
params.yaml: :mod:`sentemb.core.config`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, PositiveInt

from sentemb.core.config import Schema


class DownloadConfig(Schema):
    """``download``: what the download stage fetches, and from where."""

    mirror: str | None = Field(description="a local mirror laid out like the official data (../shared/data); null: "
                                           "the official URLs only")
    use_network: bool = Field(description="fall back to the official URL when the mirror lacks a file")
    corpus: list[str] = Field(description="corpus shards (gutenberg-01 …, enwiki-01 …); empty: a corpus of your own "
                                          "(split.corpus)")
    benchmarks: list[str] = Field(min_length=1, description="sts2012 … sts2016, sts2012-train, sick, stsbenchmark, "
                                                            "pit2015")
    resources: list[str] = Field(description="norms and paraphrase pairs (norms, twitter-url, msrp, turkcorpus, "
                                             "ppdb-xl-lexical)")

    def names(self) -> list[str]:
        return [*self.corpus, *self.benchmarks, *self.resources]


class SentenceSplitConfig(Schema):
    """``split``: which documents become the training corpus, and how many processes split them."""

    corpus: str = Field(min_length=1, description="the download stage's data/raw/corpus, or a folder of your own .txt, "
                                                  "WikiExtractor or Project Gutenberg files (or tar archives of them)")
    max_documents: PositiveInt | None = Field(description="per shard; a small number makes a quick run; null: all")
    jobs: PositiveInt = Field(description="worker processes for sentence splitting and tokenisation")


class VocabConfig(Schema):
    """``vocab``: the one vocabulary every model shares."""

    min_count: PositiveInt = Field(description="keep the words seen at least this often (Kenter et al. §3.1: 5)")
    max_size: PositiveInt | None = Field(description="at most this many of them, the most frequent; null: all")


class PairsConfig(Schema):
    """``pairs``: the paraphrase training pairs of the paraphrastic encoders."""

    sources: list[Literal["twitter-url", "msrp", "turkcorpus"]] = Field(
        min_length=1, description="positive pairs only; de-duplicated; evaluation sentences removed")
    twitter_min_votes: int = Field(ge=0, le=6, description="Lan et al. 2017: a paraphrase has at least 4 of 6 votes")
    max_pairs: PositiveInt | None = Field(description="per source (and of the PPDB word pairs); a small number makes a "
                                                      "quick run; null: all")
