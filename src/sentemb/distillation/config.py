"""The ``students`` params schema: model2vec's distillation of a teacher into a static word table (every value lives in
params.yaml: :mod:`sentemb.core.config`)."""

from __future__ import annotations

from pydantic import Field, PositiveFloat, PositiveInt

from sentemb.core.config import Schema


class StudentConfig(Schema):
    """``students``: how a teacher becomes a static student (the same for every teacher)."""

    pca_dims: PositiveInt | None = Field(
        description="principal components kept: the table centred and projected on its leading components, as "
                    "model2vec's pca_dims (its default 256); at most the teacher's dimension (a larger value keeps "
                    "them all, as model2vec does); null: no PCA")
    sif_coefficient: PositiveFloat | None = Field(
        description="a of the SIF weight a / (a + p(w)) multiplied into each word's row (Arora et al. 2017, §3), "
                    "p(w) the word's corpus frequency; model2vec's sif_coefficient (default 1e-4), which estimates "
                    "p(w) from the word's rank by Zipf's law where we have the counts; null: unweighted")
