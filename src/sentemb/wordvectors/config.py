"""The word-vector trainers' schemas: the ``pretrain.NAME`` sections of params.yaml (word2vec as Kenter et al. §3.2;
GloVe as the NWS paper's inputs). Every value lives in params.yaml (:mod:`sentemb.core.config`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, NonNegativeFloat, PositiveFloat, PositiveInt

from sentemb.core.config import Device, Schema, Seed


class Word2VecConfig(Schema):
    """``pretrain.word2vec-*``: gensim's word2vec over the shared vocabulary (Mikolov et al. 2013)."""

    method: Literal["word2vec"] = Field(description="which trainer reads this section")
    sg: Literal[0, 1] = Field(description="1: skip-gram; 0: CBOW")
    vector_size: PositiveInt = Field(description="the vectors' dimension (Kenter et al.: 300)")
    window: PositiveInt = Field(description="the context window (Kenter et al.: 5)")
    sample: NonNegativeFloat = Field(description="the down-sampling threshold of frequent words (Kenter et al.: 1e-5)")
    negative: PositiveInt = Field(description="negative samples per word (Kenter et al.: 5; no hierarchical softmax)")
    epochs: PositiveInt = Field(description="passes over the corpus")
    alpha: PositiveFloat | None = Field(description="the initial learning rate; null: gensim's (0.025 skip-gram, 0.05 "
                                                    "CBOW, as word2vec.c)")
    workers: PositiveInt = Field(description="gensim's worker threads: 1 gives the same bytes every run (the stage "
                                             "trains its models at once, a process each); more are lock-free and "
                                             "differ from run to run")
    seed: Seed


class GloveConfig(Schema):
    """``pretrain.glove``: GloVe (Pennington et al. 2014) as ``glove.c`` computes it."""

    method: Literal["glove"] = Field(description="which trainer reads this section")
    vector_size: PositiveInt = Field(description="the vectors' dimension")
    window: PositiveInt = Field(description="symmetric window, 1/distance weighting, inside sentences (the NWS "
                                            "paper: 10)")
    x_max: PositiveFloat = Field(description="x_max of the weighting f(x) = min(1, (x/x_max)^α) (GloVe Eq. 9: 100)")
    alpha: PositiveFloat = Field(description="α of f (GloVe: 3/4)")
    lr: PositiveFloat = Field(description="AdaGrad's η (glove.c -eta: 0.05)")
    grad_clip: PositiveFloat = Field(description="bound on each word-vector gradient component (glove.c -grad-clip: "
                                                 "100)")
    epochs: PositiveInt = Field(description="passes over the non-zero cells")
    fit: Literal["auto", "cells", "batches"] = Field(
        description="cells: glove.c's loop compiled (CPU); batches: torch mini-batches (GPU); auto: cells on the CPU, "
                    "batches on CUDA")
    precision: Literal["float64", "float32"] = Field(
        description="the cell fit's parameters and AdaGrad sums: float64 as glove.c's real; float32 halves them")
    threads: PositiveInt = Field(description="threads of the cell loop, on a stratified schedule (DSGD) whose result "
                                             "depends on this number and the seed alone; 1 is glove.c's loop")
    batch_size: PositiveInt = Field(description="non-zero cells per update of the batch fit")
    memory_gib: PositiveFloat = Field(
        description="the most memory the stage takes, GiB: what does not fit is spilled to disk and shuffled in blocks "
                    "(glove.c's cooccur -memory and shuffle -memory); 0.5 GiB of it is the interpreter and libraries'")
    seed: Seed
    device: Device
