"""Weighted-average sentence embeddings over fixed word vectors: the saved model of Neural Word Salience and of the
ISF/SIF baselines (Bollegala et al. Eq. 1; Arora et al. 2017 Algorithm 1).

A weighted model stores only what it adds: a readable ``weights.tsv`` (word, weight, count), the common component
(``component.npy``) when one is fitted once, and ``config["vectors"]``, the sibling word-averaging model whose vectors
it weights (``../glove``: :func:`sentemb.core.models.format.sibling_model`).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field, PositiveInt

from sentemb.core.errors import SentembError
from sentemb.core.models.format import (
    ModelConfig,
    model_config,
    model_file,
    sibling_model,
    sibling_reference,
    write_model,
)
from sentemb.core.models.word_averaging import WordAveragingModel, load_word_vectors, segment_mean
from sentemb.core.models.word_vectors import WordVectors, load_array
from sentemb.core.text import TextConfig
from sentemb.salience.weighting import (
    first_principal_component,
    remove_component,
    weighted_principal_components,
)

WEIGHTS = "weights.tsv"
COMPONENT = "component.npy"
COMPONENT_FITS = ("none", "corpus", "per_set")


class WeightedAverageModel(WordAveragingModel):
    """Sentence embedding = (1/|S|) Σ_{w∈S} q_w x_w over the known words of S, with fixed word vectors x_w and one
    scalar weight q_w per word (NWS paper Eq. 1; SIF, Arora et al. 2017 Algorithm 1 line 2), optionally followed
    by common-component removal v ← v − u uᵀ v (SIF, Algorithm 1 line 3).

    Args:
        name: model name.
        vectors: the fixed word vectors.
        weights: float32, shape (len(vectors),): q_w, in the order of ``vectors``.
        text: the tokenisation the vectors were trained with.
        component_fit: ``"none"``; ``"corpus"``: remove ``component``, fitted once on training sentences;
            ``"per_set"``: fit the component(s) on the sentences of each :meth:`encode` call and remove them, as the
            SIF and uSIF authors' code does per evaluation set (the evaluator encodes both sides of a dataset in one
            call).
        component: float32, shape (dim,) (SIF: u) or (m, dim) (uSIF: √λ_i u_i), for ``component_fit="corpus"``.
        components: how many components a per-set fit removes: 1 (SIF) or m (uSIF).
        component_weighting: ``"unit"`` (SIF: v − u uᵀ v) or ``"singular_values"`` (uSIF: each of the m weighted
            by its share of the squared singular values,
            :func:`~sentemb.salience.weighting.weighted_principal_components`).
        normalisation: ``"none"``, or ``"per_dimension"``: each dimension of a sentence's word vectors divided by
            its norm over the sentence before the weighted mean (uSIF as its authors' ``usif.py`` computes it;
            :func:`~sentemb.core.models.word_averaging.segment_mean`).

    Raises:
        SentembError: weights of the wrong length, an unknown component fit or normalisation, or a component missing
            for ``"corpus"``.
    """

    def __init__(self, name: str, vectors: WordVectors, weights: np.ndarray, text: TextConfig,
                 component_fit: str = "none", component: np.ndarray | None = None, components: int = 1,
                 component_weighting: str = "unit", normalisation: str = "none") -> None:
        super().__init__(name, vectors, text)
        if len(weights) != len(vectors):
            raise SentembError(f"{name}: {len(weights)} weights for {len(vectors)} word vectors")
        if component_fit not in COMPONENT_FITS:
            raise SentembError(f"{name}: unknown component fit {component_fit!r} (expected one of {COMPONENT_FITS})")
        if normalisation not in ("none", "per_dimension"):
            raise SentembError(f"{name}: unknown normalisation {normalisation!r} (expected none or per_dimension)")
        if component_fit == "corpus" and component is None:
            raise SentembError(f"{name}: component_fit 'corpus' needs the fitted component")
        self.weights = np.asarray(weights, dtype=np.float32)
        self.component_fit = component_fit
        self.component = component
        self.components = components
        self.component_weighting = component_weighting
        self.normalisation = normalisation

    def encode(self, sentences: list[str]) -> np.ndarray:
        """Embed raw sentences.

        Returns:
            float32, shape (len(sentences), dim); all-zero rows for sentences with no known word.
        """
        out = self.weighted_average(sentences)
        if self.component_fit == "corpus":
            out = remove_component(out, self.component)
        elif self.component_fit == "per_set":
            fitted = (weighted_principal_components(out, self.components)
                      if self.component_weighting == "singular_values" else first_principal_component(out))
            out = remove_component(out, fitted)
        return out

    def weighted_average(self, sentences: list[str]) -> np.ndarray:
        """Eq. 1 without component removal; float32, shape (len(sentences), dim)."""
        return segment_mean(self.vectors.vectors, *self.ids_and_lengths(sentences), weights=self.weights,
                            per_dimension_norm=self.normalisation == "per_dimension")

    def weighted_average_ids(self, sentences: Sequence[Sequence[int] | np.ndarray]) -> np.ndarray:
        """Eq. 1 without component removal, for sentences given as row indices into ``vectors``.

        Returns:
            float32, shape (len(sentences), dim); all-zero rows for empty sentences.
        """
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        ids = (np.concatenate([np.asarray(s, dtype=np.int64) for s in sentences]) if len(sentences)
               else np.zeros(0, dtype=np.int64))
        return segment_mean(self.vectors.vectors, ids, lengths, weights=self.weights,
                            per_dimension_norm=self.normalisation == "per_dimension")


class WeightedAverageConfig(ModelConfig):
    """``config.json`` of a weighted-average model."""

    type: Literal["weighted_average"] = Field(description="the saved type")
    vectors: str = Field(description="the word-averaging model whose vectors are weighted: ../NAME, a sibling")
    weighting: str = Field(description="what the weights are: isf, isf-log, sif, sif-pc, nws")
    component_fit: Literal["none", "corpus", "per_set"] = Field(
        description="common-component removal: none; corpus (component.npy, fitted once); per_set (fitted on the "
                    "sentences of each encode call)")
    components: PositiveInt = Field(description="common components removed: 1 (SIF) or m (uSIF); 1 without removal")
    component_weighting: Literal["unit", "singular_values"] = Field(
        description="unit (SIF: v − u uᵀ v) or singular_values (uSIF: each component weighted by λ_i)")
    normalisation: Literal["none", "per_dimension"] = Field(
        description="per_dimension: each dimension of a sentence's word vectors divided by its norm over the sentence "
                    "before the weighted mean (the uSIF authors' usif.py); none")


def save_weighted_average_model(
    directory: str | Path, name: str, vectors_model: str | Path, words: list[str], weights: np.ndarray,
    counts: np.ndarray, text: TextConfig, weighting: str, component_fit: str, info: dict[str, Any],
    component: np.ndarray | None = None, components: int = 1, component_weighting: str = "unit",
    normalisation: str = "none",
) -> None:
    """Write ``config.json``, ``weights.tsv`` (word, weight, count) and, for ``component_fit="corpus"``,
    ``component.npy`` into ``directory``, replacing it atomically.

    Args:
        vectors_model: the word-averaging model directory whose vectors are weighted, a sibling of ``directory``.
        words, weights, counts: one row per word (any order; matched to the vectors by word when loading).
        weighting: what the weights are (``isf``, ``sif``, ``usif``, ``nws`` …), recorded in the config.
        component: float32 (dim,) or (m, dim), for ``component_fit="corpus"``.
        components, component_weighting, normalisation: see :class:`WeightedAverageModel`.

    Raises:
        SentembError: ``vectors_model`` is not a sibling of ``directory``.
    """
    config = WeightedAverageConfig(type="weighted_average", name=name, vectors=sibling_reference(directory,
                                   vectors_model), weighting=weighting, component_fit=component_fit,
                                   components=components, component_weighting=component_weighting,
                                   normalisation=normalisation, text=text,
                                   info=info)

    def files(tmp: Path) -> None:
        import pandas as pd  # writing only: loading a model never imports pandas

        frame = pd.DataFrame({"word": words, "weight": np.asarray(weights, dtype=np.float64),
                              "count": np.asarray(counts, dtype=np.int64)})
        frame.to_csv(tmp / WEIGHTS, sep="\t", index=False, float_format="%.8g", quoting=csv.QUOTE_NONE)
        if component_fit == "corpus":
            np.save(tmp / COMPONENT, np.asarray(component, dtype=np.float32), allow_pickle=False)

    write_model(directory, config.model_dump(), files)


def read_weights(path: str | Path) -> tuple[list[str], np.ndarray]:
    """A ``weights.tsv`` (header ``word<TAB>weight<TAB>count``, one word a line), read with the csv module (no
    quoting: a quote is part of a word).

    Returns:
        ``(words, weights)``: the words in file order and their weights, float64 (n,).

    Raises:
        SentembError: a missing file, another header, a line without three fields or a weight that is not a number
            (naming the line).
    """
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing weights file")
    with open(p, encoding="utf-8", newline="") as fh:
        rows = csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(rows, [])
        if header[:3] != ["word", "weight", "count"]:
            raise SentembError(f"{p}: expected the columns word, weight, count (got {header})")
        words, weights = [], []
        for n, row in enumerate(rows, start=2):
            if len(row) < 3:
                raise SentembError(f"{p}:{n}: expected word, weight and count (got {row})")
            try:
                weight = float(row[1])
            except ValueError:
                weight = math.nan
            if math.isnan(weight):  # also a written "nan"
                raise SentembError(f"{p}:{n}: weight is not a number ({row[1]!r})")
            words.append(row[0])
            weights.append(weight)
    return words, np.array(weights, dtype=np.float64)


def load(directory: Path, config: dict) -> WeightedAverageModel:
    """The loader of ``weighted_average`` models: the weights are matched to the base vectors by word; a word without
    a vector is ignored, a vector without a weight gets 0.

    Raises:
        SentembError: a bad config, a base that is not a sibling word-averaging model, a missing or malformed
            weights file or component.
    """
    checked = model_config(WeightedAverageConfig, directory, config)
    vectors = load_word_vectors(sibling_model(directory, checked.vectors), what=f"{directory}/config.json: vectors")
    words, read = read_weights(model_file(directory, WEIGHTS))
    if words == vectors.words:  # as every weighted model sentemb saves: the base's words, in its order
        weights = read.astype(np.float32)
    else:
        weights = np.zeros(len(vectors), dtype=np.float32)
        rows = np.array([vectors.index.get(w, -1) for w in words], dtype=np.int64)
        known = rows >= 0
        weights[rows[known]] = read[known]
    component = None
    if checked.component_fit == "corpus":
        path = model_file(directory, COMPONENT)
        component = np.asarray(load_array(path, f"a float32 component of {vectors.dim} values", mmap=False))
        m = checked.components
        if component.shape not in ((vectors.dim,), (m, vectors.dim)):
            raise SentembError(f"{path}: shape {component.shape}, expected ({vectors.dim},) or ({m}, {vectors.dim})")
    return WeightedAverageModel(checked.name, vectors, weights, checked.text, checked.component_fit, component,
                                checked.components, checked.component_weighting, checked.normalisation)
