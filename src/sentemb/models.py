"""Saved models: one directory layout and one loader for every model.

``models/NAME/config.json`` says what the model is; :func:`load_model` returns an object with
``encode(sentences) -> numpy.ndarray (n, dim)``. Evaluation, the CLI and the report see only that.

Word-averaging models (the word2vec and GloVe averages and Siamese CBOW, whose only parameters are word vectors) are
stored as gensim KeyedVectors (``vectors.kv``), so they also open directly in gensim.

Weighted-average models (ISF, SIF and Neural Word Salience over fixed word vectors) store only what they add: a
readable ``weights.tsv`` (word, weight, count), the common component when one is removed, and the path of the
word-averaging model whose vectors they weight (relative to their own directory, e.g. ``../glove``), so that the
300-d vectors are not copied once per weighting.

Paraphrastic models (AVG, LSTM, GRAN … trained on paraphrase pairs, :mod:`sentemb.paraphrastic`) likewise store the
word-vector rows they trained, their composition parameters and the path of the word-averaging model they started
from.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Protocol

import numpy as np
import pandas as pd
from gensim.models import KeyedVectors

from sentemb.atomic import atomic_path
from sentemb.errors import SentembError
from sentemb.text import TextConfig, tokenize
from sentemb.weighting import first_principal_component, remove_component
from sentemb.wordvectors import load_keyed_vectors

CONFIG = "config.json"
VECTORS = "vectors.kv"
WEIGHTS = "weights.tsv"
COMPONENT = "component.npy"
COMPONENT_FITS = ("none", "corpus", "per_set")


class SentenceEncoder(Protocol):
    name: str
    dim: int

    def encode(self, sentences: list[str]) -> np.ndarray: ...


class WordAveragingModel:
    """Sentence embedding = mean of the vectors of its in-vocabulary words (unknown words dropped,
    Kenter et al. §3); a sentence with no known word encodes to the zero vector.

    Args:
        name: model name.
        vectors: the word vectors.
        text: the tokenisation the vectors were trained with.
    """

    def __init__(self, name: str, vectors: KeyedVectors, text: TextConfig) -> None:
        self.name = name
        self.vectors = vectors
        self.text = text
        self.dim = vectors.vector_size

    def token_ids(self, sentence: str) -> list[int]:
        get = self.vectors.key_to_index.get
        return [i for i in map(get, tokenize(sentence, self.text)) if i is not None]

    def encode(self, sentences: list[str]) -> np.ndarray:
        """Embed raw sentences.

        Returns:
            float32, shape (len(sentences), dim); all-zero rows for sentences with no known word.
        """
        out = np.zeros((len(sentences), self.dim), dtype=np.float32)
        vecs = self.vectors.vectors
        for row, sentence in enumerate(sentences):
            ids = self.token_ids(sentence)
            if ids:
                out[row] = vecs[ids].mean(axis=0)
        return out


def save_word_averaging_model(
    directory: str | Path, name: str, vectors: KeyedVectors, text: TextConfig, info: dict | None = None
) -> None:
    """Write ``config.json`` and ``vectors.kv`` into ``directory``, replacing it atomically."""
    with atomic_path(directory) as tmp:
        tmp.mkdir(parents=True)
        vectors.save(str(tmp / VECTORS))
        config = {"name": name, "type": "word_average", "dim": vectors.vector_size, "vocab_size": len(vectors),
                  "text": text.to_dict(), "vectors": VECTORS} | ({"info": info} if info else {})
        (tmp / CONFIG).write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


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
        out = np.zeros((len(sentences), self.dim), dtype=np.float32)
        vecs = self.vectors.vectors
        for row, sentence in enumerate(sentences):
            ids = self.token_ids(sentence)
            if ids:
                out[row] = self.weights[ids] @ vecs[ids] / len(ids)
        return out


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
    rel = Path(os.path.relpath(Path(vectors_model).resolve(), directory.resolve()))
    with atomic_path(directory) as tmp:
        tmp.mkdir(parents=True)
        frame = pd.DataFrame({"word": words, "weight": np.asarray(weights, dtype=np.float64),
                              "count": np.asarray(counts, dtype=np.int64)})
        frame.to_csv(tmp / WEIGHTS, sep="\t", index=False, float_format="%.8g", quoting=csv.QUOTE_NONE)
        if component_fit == "corpus":
            np.save(tmp / COMPONENT, np.asarray(component, dtype=np.float32))
        config = {"name": name, "type": "weighted_average", "weighting": weighting, "vectors": rel.as_posix(),
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


def _base_vectors(d: Path, config: dict, cfg_path: Path) -> KeyedVectors:
    """The vectors of the word-averaging model that ``config["vectors"]`` names (relative to ``d``)."""
    base = (d / config["vectors"]).resolve()
    base_cfg = _read_config(base)
    if base_cfg.get("type") != "word_average":
        raise SentembError(f"{cfg_path}: 'vectors' must name a word-averaging model ({base} is not)")
    return load_keyed_vectors(base / base_cfg["vectors"])


def _load_weighted(d: Path, config: dict, cfg_path: Path) -> WeightedAverageModel:
    vectors = _base_vectors(d, config, cfg_path)
    frame = read_weights(d / config["weights"])
    weights = np.zeros(len(vectors), dtype=np.float32)
    index = vectors.key_to_index
    rows = frame["word"].map(index)
    known = rows.notna().to_numpy()
    weights[rows[known].astype(np.int64).to_numpy()] = frame["weight"].to_numpy()[known]
    fit = config.get("component_fit", "none")
    component = np.load(d / config["component"]) if fit == "corpus" else None
    return WeightedAverageModel(config.get("name", d.name), vectors, weights, _text(config, cfg_path), fit, component)


def _text(config: dict, cfg_path: Path) -> TextConfig:
    try:
        return TextConfig(**config["text"])
    except (KeyError, TypeError) as e:
        raise SentembError(f"{cfg_path}: bad 'text' entry ({e})") from None


def _read_config(d: Path) -> dict:
    cfg_path = d / CONFIG
    if not cfg_path.is_file():
        raise SentembError(f"{cfg_path}: missing model config (is {d} a model directory written by `dvc repro`?)")
    try:
        return json.loads(cfg_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise SentembError(f"{cfg_path}:{e.lineno}: malformed JSON ({e.msg})") from None


MODEL_TYPES = ("word_average", "weighted_average", "paraphrastic")


def load_model(directory: str | Path) -> SentenceEncoder:
    """Load any saved model.

    Raises:
        SentembError: a missing directory or config, malformed JSON, or an unknown model type.
    """
    d = Path(directory)
    cfg_path = d / CONFIG
    config = _read_config(d)
    kind = config.get("type")
    if kind == "word_average":
        return WordAveragingModel(config.get("name", d.name), load_keyed_vectors(d / config["vectors"]),
                                  _text(config, cfg_path))
    if kind == "weighted_average":
        return _load_weighted(d, config, cfg_path)
    if kind == "paraphrastic":
        from sentemb.paraphrastic import load_paraphrastic_model  # torch and the encoders, only when needed

        return load_paraphrastic_model(d, config, _base_vectors(d, config, cfg_path), _text(config, cfg_path))
    raise SentembError(f"{cfg_path}: unknown model type {kind!r} (expected one of {MODEL_TYPES})")
