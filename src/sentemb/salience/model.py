"""Weighted-average sentence embeddings over fixed word vectors: the saved model of Neural Word Salience and of the
ISF/SIF baselines (Bollegala et al. Eq. 1; Arora et al. 2017 Algorithm 1).

A weighted model stores only what it adds: ``weights.npy`` (one float32 weight a word of its base, in the base's
vocabulary order, checked against the base's words by ``config["vocabulary_crc32"]``), the common component
(``component.npy``) when one is fitted once, and ``config["vectors"]``, the sibling word-averaging model whose vectors
it weights (``../glove``: :func:`sentemb.core.models.format.sibling_model`).
"""

from __future__ import annotations

import zlib
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
from sentemb.core.text.config import TextConfig
from sentemb.salience.weighting import (
    first_principal_component,
    remove_component,
    weighted_principal_components,
)

WEIGHTS = "weights.npy"
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
        self.batch_independent = component_fit != "per_set"
        self.component = component
        self.components = components
        self.component_weighting = component_weighting
        self.normalisation = normalisation

    def embed(self, sentences: list[str]) -> np.ndarray:
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
        return self.mean_vectors(sentences, weights=self.weights,
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
    vocabulary_crc32: int = Field(ge=0, description="CRC-32 of the base model's words, UTF-8, one a line: the words "
                                  "weights.npy weights, in its order")
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
    text: TextConfig, weighting: str, component_fit: str, info: dict[str, Any],
    component: np.ndarray | None = None, components: int = 1, component_weighting: str = "unit",
    normalisation: str = "none",
) -> None:
    """Write ``config.json``, ``weights.npy`` (float32, one weight a word of ``vectors_model``, in its vocabulary's
    order) and, for ``component_fit="corpus"``, ``component.npy`` into ``directory``, replacing it atomically.

    Args:
        vectors_model: the word-averaging model directory whose vectors are weighted, a sibling of ``directory``.
        words, weights: one weight a word, in any order: matched to the base's words by word; a base word without a
            weight gets 0, a word the base lacks is dropped.
        weighting: what the weights are (``isf``, ``sif``, ``usif``, ``nws`` …), recorded in the config.
        component: float32 (dim,) or (m, dim), for ``component_fit="corpus"``.
        components, component_weighting, normalisation: see :class:`WeightedAverageModel`.

    Raises:
        SentembError: ``vectors_model`` is not a sibling of ``directory`` or not a word-averaging model, or
            ``words`` and ``weights`` differ in length.
    """
    reference = sibling_reference(directory, vectors_model)
    base = load_word_vectors(vectors_model, what=f"the vectors of {name}").vocab
    if len(words) != len(weights):
        raise SentembError(f"{name}: {len(weights)} weights for {len(words)} words")
    ordered = np.zeros(len(base), dtype=np.float32)
    if list(words) == base.words:
        ordered[:] = weights
    else:
        rows = np.array([base.index.get(w, -1) for w in words], dtype=np.int64)
        known = rows >= 0
        ordered[rows[known]] = np.asarray(weights, dtype=np.float64)[known]
    config = WeightedAverageConfig(type="weighted_average", name=name, vectors=reference,
                                   vocabulary_crc32=vocabulary_crc32(base.words), weighting=weighting,
                                   component_fit=component_fit, components=components,
                                   component_weighting=component_weighting, normalisation=normalisation, text=text,
                                   info=info)

    def files(tmp: Path) -> None:
        np.save(tmp / WEIGHTS, ordered, allow_pickle=False)
        if component_fit == "corpus":
            np.save(tmp / COMPONENT, np.asarray(component, dtype=np.float32), allow_pickle=False)

    write_model(directory, config.model_dump(), files)


def vocabulary_crc32(words: list[str]) -> int:
    """CRC-32 of ``words`` joined by newlines, UTF-8 (zlib's): which vocabulary, in which order, ``weights.npy``
    weights (7 ms for 190k words)."""
    return zlib.crc32("\n".join(words).encode("utf-8"))


def load(directory: Path, config: dict) -> WeightedAverageModel:
    """The loader of ``weighted_average`` models: ``weights.npy`` weights the base's words in its vocabulary's order.

    Raises:
        SentembError: a model saved with ``weights.tsv`` (before ``weights.npy``), a bad config, a base that is not a
            sibling word-averaging model or whose words are not the ones the weights were saved for, a missing or
            malformed weights file or component.
    """
    if (directory / "weights.tsv").exists() and not (directory / WEIGHTS).exists():
        raise SentembError(f"{directory}: a weighted model saved by an older sentemb (weights.tsv, now weights.npy); "
                           "rebuild it with `dvc repro`")
    checked = model_config(WeightedAverageConfig, directory, config)
    base = sibling_model(directory, checked.vectors)
    vectors = load_word_vectors(base, what=f"{directory}/config.json: vectors")
    if vocabulary_crc32(vectors.words) != checked.vocabulary_crc32:
        raise SentembError(f"{directory}/config.json: vocabulary_crc32: the words of {base} are not the ones its "
                           "weights were saved for (another vocabulary or order)")
    path = model_file(directory, WEIGHTS)
    weights = load_array(path, f"{len(vectors)} float32 weights", mmap=False)
    if weights.dtype != np.float32 or weights.shape != (len(vectors),):
        raise SentembError(f"{path}: {weights.dtype} of shape {weights.shape}, expected float32 of shape "
                           f"({len(vectors)},), one weight a word of {base}")
    if not np.isfinite(weights).all():
        row = int(np.flatnonzero(~np.isfinite(weights))[0])
        raise SentembError(f"{path}: weight {row} ({vectors.words[row]!r}) is not a finite number")
    component = None
    if checked.component_fit == "corpus":
        path = model_file(directory, COMPONENT)
        component = np.asarray(load_array(path, f"a float32 component of {vectors.dim} values", mmap=False))
        m = checked.components
        if component.shape not in ((vectors.dim,), (m, vectors.dim)):
            raise SentembError(f"{path}: shape {component.shape}, expected ({vectors.dim},) or ({m}, {vectors.dim})")
    return WeightedAverageModel(checked.name, vectors, weights, checked.text, checked.component_fit, component,
                                checked.components, checked.component_weighting, checked.normalisation)
