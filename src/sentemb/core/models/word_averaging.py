"""The word-averaging model: a sentence embedding is the mean of its words' vectors (Kenter et al. 2016 §2.2;
Wieting et al. 2016 AVG): word2vec and GloVe averages, Siamese CBOW, PARAGRAM and the untrained controls, whose only
parameters are word vectors. Saved as ``vectors.npy`` + ``vocab.tsv`` (:mod:`~sentemb.core.models.word_vectors`)."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field, PositiveInt

from sentemb.core.errors import SentembError
from sentemb.core.models.format import ModelConfig, model_config, read_config, write_model
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.text import TextConfig, TypeRows

WORD_AVERAGE = "word_average"


OOV_MODES = ("drop", "random")
_CHUNK_ROWS = 512  # word rows gathered at a time by segment_mean: small enough to stay in cache


def segment_mean(vectors: np.ndarray, ids: np.ndarray, lengths: np.ndarray, weights: np.ndarray | None = None,
                 extra: np.ndarray | None = None, per_dimension_norm: bool = False) -> np.ndarray:
    """Means of consecutive runs of word vectors: row i of the result is (1/n_i) Σ_j q_j x_j over the ``lengths[i]``
    ids that follow sentence i−1's in ``ids`` (one gather and one ``np.add.reduceat``, summed in float64).

    Args:
        vectors: float, shape (V, dim).
        ids: int64, shape (Σ lengths,): rows of ``vectors``; an id ``V + k`` means row k of ``extra``.
        lengths: int, shape (n,): words per sentence (0: a zero row).
        weights: float, shape (V,): q_w, a weight per word (None: 1); ``extra`` rows get weight 1.
        extra: float, shape (K, dim): vectors of words outside ``vectors`` (random out-of-vocabulary vectors).
        per_dimension_norm: first divide each dimension of a sentence's word vectors by that dimension's norm over
            the sentence, x_jd / (Σ_k x_kd²)^½ (uSIF as its authors' ``usif.py`` computes it,
            ``v_t / np.linalg.norm(v_t, axis=0)``; a dimension that is zero in every word stays zero).

    Returns:
        float32, shape (n, dim).
    """
    vectors = np.asarray(vectors)  # a memory map's rows gathered as a plain array's: no per-gather wrapping
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
                own = slice(None)  # basic indexing below: in place, no copy
            else:
                rows = np.empty((len(chunk_ids), dim), dtype=np.float32)
                rows[own] = vectors[chunk_ids[own]]
                rows[~own] = extra[chunk_ids[~own] - size]
            nonempty = chunk_len > 0
            starts = (np.cumsum(chunk_len) - chunk_len)[nonempty]
            norms = np.sqrt(np.add.reduceat(np.square(rows, dtype=np.float64), starts, axis=0)) \
                if per_dimension_norm else None
            if weights is not None:
                rows[own] *= weights[chunk_ids[own], None]
            sums = np.add.reduceat(rows.astype(np.float64), starts, axis=0)  # cast first: the same sums, faster
            if norms is not None:  # Σ_j q_j x_jd / ‖x_·d‖: the norm is the sentence's, the same for each word
                sums = np.divide(sums, norms, out=np.zeros_like(sums), where=norms > 0)
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

    def __init__(self, name: str, vectors: WordVectors, text: TextConfig, oov: str = "drop",
                 oov_std: float = 0.01) -> None:
        if oov not in OOV_MODES:
            raise SentembError(f"{name}: unknown out-of-vocabulary mode {oov!r} (expected one of {OOV_MODES})")
        self.name = name
        self.vectors = vectors
        self.text = text
        self.dim = vectors.dim
        self.oov = oov
        self.oov_std = oov_std
        self.type_rows = TypeRows(vectors.index)
        self._random_vectors: dict[str, np.ndarray] = {}

    def ids_and_lengths(self, sentences: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The known words' rows of every sentence, concatenated (int64), and the count per sentence (int64, (n,))."""
        return self.type_rows.known_rows(sentences, self.text)

    def random_vector(self, word: str) -> np.ndarray:
        """The fixed random vector of an out-of-vocabulary word: float32 (dim,), N(0, oov_std²); drawn once a model
        and kept (read-only)."""
        vector = self._random_vectors.get(word)
        if vector is None:
            rng = np.random.default_rng(zlib.crc32(word.encode("utf-8")))
            vector = self._random_vectors[word] = rng.normal(0.0, self.oov_std, self.dim).astype(np.float32)
            vector.flags.writeable = False
        return vector

    def encode(self, sentences: list[str]) -> np.ndarray:
        """Embed raw sentences.

        Returns:
            float32, shape (len(sentences), dim); all-zero rows for sentences with no word left.
        """
        return self.mean_vectors(sentences)

    def mean_vectors(self, sentences: list[str], weights: np.ndarray | None = None,
                     per_dimension_norm: bool = False) -> np.ndarray:
        """:func:`segment_mean` of each sentence's words (unknown words dropped or given their random vectors, as
        ``oov`` says), each distinct sentence averaged once.

        Args:
            sentences: raw sentences.
            weights, per_dimension_norm: as :func:`segment_mean`'s.

        Returns:
            float32, shape (len(sentences), dim).
        """
        distinct = list(dict.fromkeys(sentences))
        if self.oov == "drop":
            out = segment_mean(self.vectors.vectors, *self.ids_and_lengths(distinct), weights=weights,
                               per_dimension_norm=per_dimension_norm)
        else:
            types, type_ids, rows, lengths = self.type_rows.rows(distinct, self.text)
            unknown = rows < 0
            words, slot = np.unique(type_ids[unknown], return_inverse=True)
            rows[unknown] = len(self.vectors.vectors) + slot
            extra = (np.stack([self.random_vector(types[w]) for w in words]) if len(words)
                     else np.zeros((0, self.dim), dtype=np.float32))
            out = segment_mean(self.vectors.vectors, rows, lengths, weights=weights, extra=extra,
                               per_dimension_norm=per_dimension_norm)
        if len(distinct) == len(sentences):
            return out
        row = {s: i for i, s in enumerate(distinct)}
        return out[np.fromiter(map(row.__getitem__, sentences), dtype=np.int64, count=len(sentences))]


class WordAverageConfig(ModelConfig):
    """``config.json`` of a word-averaging model."""

    type: Literal["word_average"] = Field(description="the saved type")
    dim: PositiveInt = Field(description="the vectors' dimension")
    vocab_size: PositiveInt = Field(description="rows of vectors.npy, words of vocab.tsv")


def save_word_averaging_model(directory: str | Path, name: str, vectors: WordVectors, text: TextConfig,
                              info: dict[str, Any]) -> None:
    """Write ``config.json``, ``vectors.npy`` and ``vocab.tsv`` into ``directory``, replacing it atomically."""
    config = WordAverageConfig(type=WORD_AVERAGE, name=name, dim=vectors.dim, vocab_size=len(vectors), text=text,
                               info=info)
    write_model(directory, config.model_dump(), vectors.save)


def load_word_vectors(directory: str | Path, what: str | None = None) -> WordVectors:
    """The word vectors of a word-averaging model directory (word2vec, GloVe, Siamese CBOW, PARAGRAM).

    Args:
        what: how the caller names the directory in an error (e.g. the params key that chose it).

    Raises:
        SentembError: a missing or malformed model, or one that is not a word-averaging model (a weighting or an
            encoder), naming the directory and ``what``.
    """
    d = Path(directory)
    config = read_config(d)
    if config.get("type") != WORD_AVERAGE:
        raise SentembError(f"{what + ': ' if what else ''}{d} is a {config.get('type')!r} model, not word vectors "
                           f"(a word-averaging model such as models/glove)")
    checked = model_config(WordAverageConfig, d, config)
    vectors = WordVectors.load(d)
    if vectors.dim != checked.dim:
        raise SentembError(f"{d / 'vectors.npy'}: {vectors.dim}-d vectors where config.json says dim {checked.dim}")
    return vectors


def load(directory: Path, config: dict) -> WordAveragingModel:
    """The loader of ``word_average`` models; unknown words are dropped."""
    checked = model_config(WordAverageConfig, directory, config)
    return WordAveragingModel(checked.name, load_word_vectors(directory), checked.text)
