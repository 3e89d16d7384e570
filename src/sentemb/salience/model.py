"""Weighted-average sentence embeddings over fixed word vectors: the saved model of Neural Word Salience and of the
ISF/SIF baselines (Bollegala et al. Eq. 1; Arora et al. 2017 Algorithm 1).

A weighted model stores only what it adds: a readable ``weights.tsv`` (word, weight, count), the common component
when one is removed, and the path of the word-averaging model whose vectors it weights (``config["vectors"]``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from gensim.models import KeyedVectors

from sentemb.atomic import atomic_path
from sentemb.errors import SentembError
from sentemb.models import CONFIG, WordAveragingModel, base_reference, base_vectors, model_text, segment_mean
from sentemb.salience.weighting import first_principal_component, remove_component
from sentemb.text import TextConfig

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
            ``"per_set"``: fit u on the sentences of each :meth:`encode` call and remove it, as the SIF authors'
            code does per evaluation set (the evaluator encodes both sides of a dataset in one call).
        component: float32, shape (dim,), for ``component_fit="corpus"``.

    Raises:
        SentembError: weights of the wrong length, or a component missing for ``"corpus"``.
    """

    def __init__(self, name: str, vectors: KeyedVectors, weights: np.ndarray, text: TextConfig,
                 component_fit: str = "none", component: np.ndarray | None = None) -> None:
        super().__init__(name, vectors, text)
        if len(weights) != len(vectors):
            raise SentembError(f"{name}: {len(weights)} weights for {len(vectors)} word vectors")
        if component_fit not in COMPONENT_FITS:
            raise SentembError(f"{name}: unknown component fit {component_fit!r} (expected one of {COMPONENT_FITS})")
        if component_fit == "corpus" and component is None:
            raise SentembError(f"{name}: component_fit 'corpus' needs the fitted component")
        self.weights = np.asarray(weights, dtype=np.float32)
        self.component_fit = component_fit
        self.component = component

    def encode(self, sentences: list[str]) -> np.ndarray:
        """Embed raw sentences.

        Returns:
            float32, shape (len(sentences), dim); all-zero rows for sentences with no known word.
        """
        out = self.weighted_average(sentences)
        if self.component_fit == "corpus":
            out = remove_component(out, self.component)
        elif self.component_fit == "per_set":
            out = remove_component(out, first_principal_component(out))
        return out

    def weighted_average(self, sentences: list[str]) -> np.ndarray:
        """Eq. 1 without component removal; float32, shape (len(sentences), dim)."""
        return segment_mean(self.vectors.vectors, *self.ids_and_lengths(sentences), weights=self.weights)

    def weighted_average_ids(self, sentences: Sequence[Sequence[int] | np.ndarray]) -> np.ndarray:
        """Eq. 1 without component removal, for sentences given as row indices into ``vectors``.

        Returns:
            float32, shape (len(sentences), dim); all-zero rows for empty sentences.
        """
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        ids = (np.concatenate([np.asarray(s, dtype=np.int64) for s in sentences]) if len(sentences)
               else np.zeros(0, dtype=np.int64))
        return segment_mean(self.vectors.vectors, ids, lengths, weights=self.weights)


def save_weighted_average_model(
    directory: str | Path, name: str, vectors_model: str | Path, words: list[str], weights: np.ndarray,
    counts: np.ndarray, text: TextConfig, weighting: str, component_fit: str = "none",
    component: np.ndarray | None = None, info: dict | None = None,
) -> None:
    """Write ``config.json``, ``weights.tsv`` (word, weight, count) and, for ``component_fit="corpus"``,
    ``component.npy`` into ``directory``, replacing it atomically.

    Args:
        vectors_model: the word-averaging model directory whose vectors are weighted; stored relative to
            ``directory``.
        words, weights, counts: one row per word (any order; matched to the vectors by word when loading).
        weighting: what the weights are (``isf``, ``sif``, ``nws`` …), recorded in the config.
    """
    directory = Path(directory)
    rel = base_reference(directory, vectors_model)
    with atomic_path(directory) as tmp:
        tmp.mkdir(parents=True)
        frame = pd.DataFrame({"word": words, "weight": np.asarray(weights, dtype=np.float64),
                              "count": np.asarray(counts, dtype=np.int64)})
        frame.to_csv(tmp / WEIGHTS, sep="\t", index=False, float_format="%.8g", quoting=csv.QUOTE_NONE)
        if component_fit == "corpus":
            np.save(tmp / COMPONENT, np.asarray(component, dtype=np.float32))
        config = {"name": name, "type": "weighted_average", "loader": __name__, "weighting": weighting,
                  "vectors": rel,
                  "weights": WEIGHTS, "component_fit": component_fit, "text": text.to_dict()}
        config |= {"component": COMPONENT} if component_fit == "corpus" else {}
        config |= {"info": info} if info else {}
        (tmp / CONFIG).write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def read_weights(path: str | Path) -> pd.DataFrame:
    """A ``weights.tsv`` as a DataFrame (word, weight, count).

    Raises:
        SentembError: a missing file, missing columns, or a non-numeric weight (naming the line).
    """
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing weights file")
    frame = pd.read_csv(p, sep="\t", quoting=csv.QUOTE_NONE, keep_default_na=False, dtype={"word": str})
    if list(frame.columns[:3]) != ["word", "weight", "count"]:
        raise SentembError(f"{p}: expected the columns word, weight, count (got {list(frame.columns)})")
    weight = pd.to_numeric(frame["weight"], errors="coerce")
    if weight.isna().any():
        bad = int(np.flatnonzero(weight.isna().to_numpy())[0])
        raise SentembError(f"{p}:{bad + 2}: weight is not a number ({frame['weight'].iloc[bad]!r})")
    return frame.assign(weight=weight)





def load(directory: Path, config: dict) -> WeightedAverageModel:
    """The loader of weighted-average models (``"loader": "sentemb.salience.model"``): the weights are matched to the
    base vectors by word; a word without a vector is ignored, a vector without a weight gets 0."""
    vectors = base_vectors(directory, config)
    frame = read_weights(directory / config["weights"])
    weights = np.zeros(len(vectors), dtype=np.float32)
    rows = frame["word"].map(vectors.key_to_index)
    known = rows.notna().to_numpy()
    weights[rows[known].astype(np.int64).to_numpy()] = frame["weight"].to_numpy()[known]
    fit = config.get("component_fit", "none")
    component = np.load(directory / config["component"]) if fit == "corpus" else None
    return WeightedAverageModel(config.get("name", directory.name), vectors, weights, model_text(directory, config),
                                fit, component)
