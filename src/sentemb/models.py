"""Saved models: one directory layout and one loader for every model.

``models/NAME/config.json`` says what the model is; :func:`load_model` returns an object with
``encode(sentences) -> numpy.ndarray (n, dim)``. Evaluation, the CLI and the report see only that.

Every config has a ``type`` and the ``loader``, the module whose ``load(directory, config)`` rebuilds the model. This
module loads word-averaging models itself; every other type is imported lazily from its family
(``sentemb.salience.model``, ``sentemb.paraphrastic.model`` …), so adding a family never edits this file.

Word-averaging models (the word2vec and GloVe averages, Siamese CBOW and PARAGRAM, whose only parameters are word
vectors) are stored as gensim KeyedVectors (``vectors.kv``), so they also open directly in gensim. Models derived
from word vectors (ISF/SIF/NWS weightings, paraphrastic encoders) store only what they add plus the path of the
word-averaging model they build on (relative to their own directory, e.g. ``../glove``), so that the 300-d vectors
are not copied once per model: :func:`base_vectors` reads it.
"""

from __future__ import annotations

import importlib
import json
import os
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
from gensim.models import KeyedVectors

from sentemb.atomic import atomic_path, read_json
from sentemb.errors import SentembError
from sentemb.text import TextConfig, cached_tokenize

CONFIG = "config.json"
VECTORS = "vectors.kv"
WORD_AVERAGE = "word_average"


class SentenceEncoder(Protocol):
    name: str
    dim: int

    def encode(self, sentences: list[str]) -> np.ndarray: ...


def keyed_vectors(words: Sequence[str], counts: Sequence[int] | np.ndarray, vectors: np.ndarray) -> KeyedVectors:
    """Wrap an array of shape (V, dim) (row i = ``words[i]``, seen ``counts[i]`` times) as gensim KeyedVectors.

    Raises:
        SentembError: ``vectors`` has a number of rows other than ``len(words)``.
    """
    if vectors.shape[0] != len(words):
        raise SentembError(f"vectors: {vectors.shape[0]} rows for a vocabulary of {len(words)} words")
    kv = KeyedVectors(vector_size=vectors.shape[1], count=0, dtype=np.float32)
    kv.add_vectors(list(words), vectors.astype(np.float32))
    for w, c in zip(words, np.asarray(counts).tolist(), strict=True):
        kv.set_vecattr(w, "count", c)
    return kv


def load_keyed_vectors(path: str | Path) -> KeyedVectors:
    """Load gensim KeyedVectors saved with ``KeyedVectors.save``.

    Raises:
        SentembError: missing or unreadable file.
    """
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing word-vector file (gensim KeyedVectors)")
    try:
        return KeyedVectors.load(str(p), mmap="r")
    except Exception as e:  # gensim raises pickle/IO errors of many kinds
        raise SentembError(f"{p}: not a gensim KeyedVectors file ({e})") from None


OOV_MODES = ("drop", "random")
_CHUNK_ROWS = 512  # word rows gathered at a time by segment_mean: small enough to stay in cache


def segment_mean(vectors: np.ndarray, ids: np.ndarray, lengths: np.ndarray, weights: np.ndarray | None = None,
                 extra: np.ndarray | None = None) -> np.ndarray:
    """Means of consecutive runs of word vectors: row i of the result is (1/n_i) Σ_j q_j x_j over the ``lengths[i]``
    ids that follow sentence i−1's in ``ids`` (one gather and one ``np.add.reduceat``, summed in float64).

    Args:
        vectors: float, shape (V, dim).
        ids: int64, shape (Σ lengths,): rows of ``vectors``; an id ``V + k`` means row k of ``extra``.
        lengths: int, shape (n,): words per sentence (0: a zero row).
        weights: float, shape (V,): q_w, a weight per word (None: 1); ``extra`` rows get weight 1.
        extra: float, shape (K, dim): vectors of words outside ``vectors`` (random out-of-vocabulary vectors).

    Returns:
        float32, shape (n, dim).
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    n, dim, size = len(lengths), vectors.shape[1], len(vectors)
    out = np.zeros((n, dim), dtype=np.float32)
    ends = np.cumsum(lengths)
    start_row = 0
    while start_row < n:  # chunks of whole sentences, about _CHUNK_ROWS word rows each
        first = ends[start_row] - lengths[start_row]
        stop_row = max(start_row + 1, int(np.searchsorted(ends, first + _CHUNK_ROWS, side="right")))
        chunk_ids = ids[first : ends[stop_row - 1]]
        chunk_len = lengths[start_row:stop_row]
        if len(chunk_ids):
            own = chunk_ids < size
            if own.all():  # one gather (float32); the sums below are taken in float64
                rows = vectors[chunk_ids]
                if weights is not None:
                    rows *= weights[chunk_ids, None]
            else:
                rows = np.empty((len(chunk_ids), dim), dtype=np.float32)
                rows[own] = vectors[chunk_ids[own]]
                rows[~own] = extra[chunk_ids[~own] - size]
                if weights is not None:
                    rows[own] *= weights[chunk_ids[own], None]
            nonempty = chunk_len > 0
            starts = (np.cumsum(chunk_len) - chunk_len)[nonempty]
            sums = np.add.reduceat(rows, starts, axis=0, dtype=np.float64)
            out[start_row:stop_row][nonempty] = sums / chunk_len[nonempty, None]
        start_row = stop_row
    return out


class WordAveragingModel:
    """Sentence embedding = mean of the vectors of its words (Kenter et al. §3; Wieting et al. 2016 AVG).

    Out-of-vocabulary words are dropped (``oov="drop"``, the paper: "unknown words are ignored"), or each gets a
    fixed random vector drawn from N(0, oov_std²) (``oov="random"``, the default of the authors' evaluation code,
    wordEmbeddings.py, ``lasagne.init.Normal()``: std 0.01), the same vector for the same word on every run (its
    generator is seeded from the word's CRC-32). A sentence with no word left encodes to the zero vector.

    Args:
        name: model name.
        vectors: the word vectors.
        text: the tokenisation the vectors were trained with.
        oov: ``"drop"`` or ``"random"``.
        oov_std: the standard deviation of the random vectors.

    Raises:
        SentembError: an unknown ``oov`` mode.
    """

    def __init__(self, name: str, vectors: KeyedVectors, text: TextConfig, oov: str = "drop",
                 oov_std: float = 0.01) -> None:
        if oov not in OOV_MODES:
            raise SentembError(f"{name}: unknown out-of-vocabulary mode {oov!r} (expected one of {OOV_MODES})")
        self.name = name
        self.vectors = vectors
        self.text = text
        self.dim = vectors.vector_size
        self.oov = oov
        self.oov_std = oov_std

    def token_ids(self, sentence: str) -> list[int]:
        get = self.vectors.key_to_index.get
        return [i for i in map(get, cached_tokenize(sentence, self.text)) if i is not None]

    def ids_and_lengths(self, sentences: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The known words' rows of every sentence, concatenated (int64), and the count per sentence (int64, (n,))."""
        per = [self.token_ids(s) for s in sentences]
        lengths = np.fromiter(map(len, per), dtype=np.int64, count=len(per))
        ids = np.fromiter((i for row in per for i in row), dtype=np.int64, count=int(lengths.sum()))
        return ids, lengths

    def random_vector(self, word: str) -> np.ndarray:
        """The fixed random vector of an out-of-vocabulary word: float32 (dim,), N(0, oov_std²)."""
        rng = np.random.default_rng(zlib.crc32(word.encode("utf-8")))
        return rng.normal(0.0, self.oov_std, self.dim).astype(np.float32)

    def encode(self, sentences: list[str]) -> np.ndarray:
        """Embed raw sentences.

        Returns:
            float32, shape (len(sentences), dim); all-zero rows for sentences with no word left.
        """
        vecs = self.vectors.vectors
        if self.oov == "drop":
            return segment_mean(vecs, *self.ids_and_lengths(sentences))
        index, size, unknown = self.vectors.key_to_index, len(vecs), {}
        ids, lengths = [], []
        for sentence in sentences:
            tokens = cached_tokenize(sentence, self.text)
            lengths.append(len(tokens))
            ids += [index[w] if w in index else size + unknown.setdefault(w, len(unknown)) for w in tokens]
        extra = (np.stack([self.random_vector(w) for w in unknown]) if unknown
                 else np.zeros((0, self.dim), dtype=np.float32))
        return segment_mean(vecs, np.asarray(ids, dtype=np.int64), np.asarray(lengths, dtype=np.int64), extra=extra)


def save_word_averaging_model(
    directory: str | Path, name: str, vectors: KeyedVectors, text: TextConfig, info: dict | None = None
) -> None:
    """Write ``config.json`` and ``vectors.kv`` into ``directory``, replacing it atomically.

    gensim's lifecycle log (a list of events with the date, Python version and platform, pickled with the vectors) is
    switched off on ``vectors`` before saving, so that equal vectors give equal bytes and DVC sees an unchanged output.
    """
    vectors.lifecycle_events = None
    with atomic_path(directory) as tmp:
        tmp.mkdir(parents=True)
        vectors.save(str(tmp / VECTORS))
        config = {"name": name, "type": WORD_AVERAGE, "dim": vectors.vector_size, "vocab_size": len(vectors),
                  "text": text.to_dict(), "vectors": VECTORS,
                  "loader": __name__} | ({"info": info} if info else {})
        (tmp / CONFIG).write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def read_config(directory: str | Path) -> dict:
    """``directory/config.json`` as a dict.

    Raises:
        SentembError: a missing file or malformed JSON, naming the file (and line).
    """
    d = Path(directory)
    return read_json(d / CONFIG, f"missing model config (is {d} a model directory written by `dvc repro`?)")


def model_text(directory: str | Path, config: dict) -> TextConfig:
    """The tokenisation a saved model was trained with (its config's ``text`` entry).

    Raises:
        SentembError: a missing or malformed ``text`` entry.
    """
    try:
        return TextConfig(**config["text"])
    except (KeyError, TypeError) as e:
        raise SentembError(f"{Path(directory) / CONFIG}: bad 'text' entry ({e})") from None


def base_path(directory: str | Path, config: dict) -> Path:
    """The word-averaging model a derived model builds on: ``config["vectors"]``, relative to ``directory``."""
    return Path(os.path.normpath(Path(directory) / config["vectors"]))


def base_reference(directory: str | Path, vectors_model: str | Path) -> str:
    """What a derived model in ``directory`` stores as ``config["vectors"]``: the path of the word-averaging model it
    builds on, relative to ``directory`` (the inverse of :func:`base_path`)."""
    return Path(os.path.relpath(Path(vectors_model).resolve(), Path(directory).resolve())).as_posix()


def base_vectors(directory: str | Path, config: dict) -> KeyedVectors:
    """The word vectors of the word-averaging model that a derived model's ``config["vectors"]`` names.

    Raises:
        SentembError: that directory is not a word-averaging model, or its files are missing.
    """
    return load_word_vectors(base_path(directory, config), what=f"{Path(directory) / CONFIG}: 'vectors'")


def load_word_vectors(directory: str | Path, what: str | None = None) -> KeyedVectors:
    """The word vectors of a word-averaging model directory (word2vec, GloVe, Siamese CBOW, PARAGRAM).

    Args:
        what: how the caller names the directory in an error (e.g. the params key that chose it).

    Raises:
        SentembError: a missing model, or one that is not a word-averaging model (a weighting or an encoder).
    """
    d = Path(directory)
    config = read_config(d)
    if config.get("type") != WORD_AVERAGE:
        raise SentembError(f"{what or d}: {d} is a {config.get('type')!r} model, not word vectors "
                           f"(a word-averaging model such as models/glove)")
    return load_keyed_vectors(d / config["vectors"])


def load(directory: Path, config: dict) -> WordAveragingModel:
    """The loader of word-averaging models (``"loader": "sentemb.models"``); unknown words are dropped."""
    return WordAveragingModel(config.get("name", directory.name), load_keyed_vectors(directory / config["vectors"]),
                              model_text(directory, config))


def load_model(directory: str | Path) -> SentenceEncoder:
    """Load any saved model: import the module its config names as ``loader`` and call its ``load``.

    Returns:
        An object with ``name``, ``dim`` and ``encode(list[str]) -> float32 (n, dim)``.

    Raises:
        SentembError: a missing directory or config, malformed JSON, or a loader outside ``sentemb``.
    """
    d = Path(directory)
    config = read_config(d)
    loader = config.get("loader")
    if not isinstance(loader, str) or not loader.startswith("sentemb."):
        raise SentembError(f"{d / CONFIG}: 'loader' must name a sentemb module (got {loader!r}; model type "
                           f"{config.get('type')!r}); rebuild the model with `dvc repro`")
    try:
        module = importlib.import_module(loader)
    except ImportError as e:
        raise SentembError(f"{d / CONFIG}: unknown loader {loader!r} ({e})") from None
    return module.load(d, config)
