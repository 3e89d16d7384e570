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
from sentemb.core.models.encoder import Encoder
from sentemb.core.models.format import ModelConfig, model_config, read_config, write_model
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.text.config import TextConfig
from sentemb.core.text.rows import TypeRows

WORD_AVERAGE = "word_average"


OOV_MODES = ("drop", "random")
_BLOCK = 4096  # sentences summed together: a float64 accumulator of _BLOCK × dim (9.8 MB at 300 d)


def segment_mean(vectors: np.ndarray, ids: np.ndarray, lengths: np.ndarray, weights: np.ndarray | None = None,
                 extra: np.ndarray | None = None, per_dimension_norm: bool = False) -> np.ndarray:
    """Means of consecutive runs of word vectors: row i of the result is (1/n_i) Σ_j q_j x_j over the ``lengths[i]``
    ids that follow sentence i−1's in ``ids``, summed in float64 one word after another (x_0 + x_1 + …), position by
    position over a block of sentences (:func:`_words_by_position`): as many vector operations as the longest
    sentence has words, not one per sentence.

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
    out = np.zeros((len(lengths), vectors.shape[1]), dtype=np.float32)
    for sentences, counts, words in _words_by_position(vectors, extra, ids, lengths):
        sums = squares = None
        for k, rows, word_ids, own in words:
            if per_dimension_norm:  # Σ_j x_jd², of the unweighted vectors
                squares = _accumulate(squares, k, np.square(rows, dtype=np.float64))
            if weights is not None:  # float32 products, then summed in float64; unknown words' rows weigh 1
                if own.all():
                    rows *= weights[word_ids, None]
                else:
                    rows[own] *= weights[word_ids[own], None]
            sums = _accumulate(sums, k, rows)
        if sums is None:
            continue
        if squares is not None:  # Σ_j q_j x_jd / ‖x_·d‖: the norm is the sentence's, the same for each word
            norms = np.sqrt(squares)
            sums = np.divide(sums, norms, out=np.zeros_like(sums), where=norms > 0)
        out[sentences[: len(sums)]] = sums / counts[: len(sums), None]
    return out


def oov_means(vectors: np.ndarray, ids: np.ndarray, lengths: np.ndarray,
              extra: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`segment_mean` under both treatments of unknown words at once: ``(drop, random)``, the means over each
    sentence's known words only and over all its words, unknown ones with their ``extra`` rows. Byte for byte
    ``segment_mean`` of the known ids alone and of all the ids: one gather feeds both sums, the unknown words' rows
    set to −0.0 for the first (x + (−0.0) = x for every float, signed zeros included).

    Args:
        vectors: float, shape (V, dim).
        ids: int64, shape (Σ lengths,): rows of ``vectors``; an id ``V + k`` (an unknown word) means row k of
            ``extra``.
        lengths: int, shape (n,): words per sentence, unknown ones included.
        extra: float, shape (K, dim): the unknown words' (random) vectors.

    Returns:
        float32, shape (n, dim) each; a sentence without a word (known word, for ``drop``) gets a zero row.
    """
    vectors = np.asarray(vectors)
    drop = np.zeros((len(lengths), vectors.shape[1]), dtype=np.float32)
    random = np.zeros_like(drop)
    for sentences, counts, words in _words_by_position(vectors, extra, ids, lengths):
        all_sums = known_sums = known = None
        for k, rows, _, own in words:
            all_sums = _accumulate(all_sums, k, rows)
            if not own.all():
                rows[~own] = -0.0
            known_sums = _accumulate(known_sums, k, rows)
            known = _accumulate(known, k, own)
        if all_sums is None:
            continue
        n = len(all_sums)
        random[sentences[:n]] = all_sums / counts[:n, None]
        some = known > 0
        drop[sentences[:n][some]] = known_sums[some] / known[some, None]
    return drop, random


def _words_by_position(vectors: np.ndarray, extra: np.ndarray | None, ids: np.ndarray, lengths: np.ndarray):
    """The sentences in blocks of ``_BLOCK``, each block's sentences longest first, so that those with a j-th word
    are the block's first k_j: for each block ``(sentences, counts, words)``, int64 (m,) the sentences' indices,
    int64 (m,) their lengths, and an iterator over j = 0, 1, … of ``(k_j, rows, word_ids, own)``: the j-th word of
    each of the first k_j sentences, float32 (k_j, dim) (a fresh array), its id (int64, (k_j,)), and whether the id
    is a row of ``vectors`` rather than of ``extra`` (bool, (k_j,))."""
    lengths = np.asarray(lengths, dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    for block in range(0, len(lengths), _BLOCK):
        sentences = block + np.argsort(-lengths[block : block + _BLOCK], kind="stable")
        counts = lengths[sentences]
        yield sentences, counts, _position_rows(vectors, extra, ids, starts[sentences], counts)


def _position_rows(vectors, extra, ids, starts, counts):
    """:func:`_words_by_position`'s iterator over positions, for one block (``counts`` descending)."""
    descending = -counts
    for j in range(int(counts[0]) if len(counts) else 0):
        k = int(np.searchsorted(descending, -j, side="left"))  # the sentences with more than j words
        word_ids = ids[starts[:k] + j]
        own = word_ids < len(vectors)
        yield k, _gather(vectors, extra, word_ids, own), word_ids, own


def _gather(vectors: np.ndarray, extra: np.ndarray | None, ids: np.ndarray, own: np.ndarray) -> np.ndarray:
    """float32 (len(ids), dim), a fresh array: row ``i`` of ``vectors`` for an id i < V, row ``i − V`` of ``extra``
    otherwise."""
    if own.all():
        return vectors[ids].astype(np.float32, copy=False)
    rows = vectors[np.where(own, ids, 0)].astype(np.float32, copy=False)  # one gather; unknown words' rows replaced
    rows[~own] = extra[ids[~own] - len(vectors)]
    return rows


def _accumulate(total: np.ndarray | None, k: int, rows: np.ndarray) -> np.ndarray:
    """``rows`` added to the first k rows of ``total`` (the first position: ``rows`` in float64, or a bool mask as
    int64 counts)."""
    if total is None:
        return rows.astype(np.int64 if rows.dtype.kind in "bi" else np.float64)
    total[:k] += rows
    return total


class WordAveragingModel(Encoder):
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

    def embed(self, sentences: list[str]) -> np.ndarray:
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
        rows, lengths, extra = ((*self.ids_and_lengths(distinct), None) if self.oov == "drop"
                                else self._rows_with_random(distinct))
        out = segment_mean(self.vectors.vectors, rows, lengths, weights=weights, extra=extra,
                           per_dimension_norm=per_dimension_norm)
        return _expand(out, distinct, sentences)

    def mean_vectors_by_oov(self, sentences: list[str]) -> dict[str, np.ndarray]:
        """:meth:`encode` under both treatments of unknown words, from one pass over the sentences' words
        (:func:`oov_means`): the same bytes as ``encode`` with ``oov`` set to each.

        Returns:
            ``{"drop": …, "random": …}``, float32, shape (len(sentences), dim) each.
        """
        distinct = list(dict.fromkeys(sentences))
        drop, random = oov_means(self.vectors.vectors, *self._rows_with_random(distinct))
        return {"drop": _expand(drop, distinct, sentences), "random": _expand(random, distinct, sentences)}

    def _rows_with_random(self, sentences: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every token's row, ``V + k`` for the k-th distinct unknown word, the tokens per sentence, and the unknown
        words' random vectors: int64 (Σ lengths,), int64 (n,), float32 (K, dim)."""
        types, type_ids, rows, lengths = self.type_rows.rows(sentences, self.text)
        unknown = rows < 0
        words, slot = np.unique(type_ids[unknown], return_inverse=True)
        rows[unknown] = len(self.vectors.vectors) + slot
        extra = (np.stack([self.random_vector(types[w]) for w in words]) if len(words)
                 else np.zeros((0, self.dim), dtype=np.float32))
        return rows, lengths, extra


def _expand(out: np.ndarray, distinct: list[str], sentences: list[str]) -> np.ndarray:
    """Rows of ``out`` (one per distinct sentence) in the order of ``sentences``, repeats included."""
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
