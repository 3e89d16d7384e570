"""A static student of a sentence encoder: each vocabulary word encoded alone by the teacher, the table optionally
reduced by PCA and weighted by SIF, then read as a word-averaging model (model2vec's distillation: Tulkens & van
Dongen 2024, "Model2Vec: fast state-of-the-art static embeddings"; ``model2vec.distill``).

A student encodes a sentence as the mean of its words' rows: no recurrence, no matrix product per word, so it runs at
the speed of the averaging baselines whatever the teacher costs. For an encoder that is itself a mean of per-word
terms (AVG) the plain student (no PCA, no weights) is the teacher; for a recurrent one (LSTM, GRAN) it keeps what the
encoder does to a word out of context.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models import SentenceEncoder
from sentemb.core.models.word_vectors import WordVectors
from sentemb.distillation.config import StudentConfig


def principal_components(table: np.ndarray, dims: int) -> np.ndarray:
    """The rows of ``table`` centred and projected on its ``dims`` leading principal components.

    Args:
        table: float64, shape (V, dim).
        dims: 1 ≤ dims ≤ dim.

    Returns:
        float64, shape (V, dims); each component's sign fixed so that its largest-magnitude loading is positive (as
        scikit-learn's ``svd_flip``), so the same table gives the same bytes.
    """
    centred = table - table.mean(axis=0)
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred)  # ascending; the covariance up to a factor
    components = eigenvectors[:, np.argsort(eigenvalues)[::-1][:dims]]
    signs = np.sign(components[np.abs(components).argmax(axis=0), np.arange(dims)])
    return centred @ (components * signs)


def distil(teacher: SentenceEncoder, vocab: Vocabulary, config: StudentConfig) -> tuple[WordVectors, dict[str, Any]]:
    """The static student of ``teacher`` over ``vocab``.

    Each word of ``vocab`` is encoded alone, as a one-word sentence (``teacher.encode``: the teacher's own
    tokenisation); a word it cannot encode (no known token: a zero vector) is left out. Then PCA
    (:func:`principal_components`) and the SIF weight, as ``config`` says.

    Args:
        teacher: any loaded model (:func:`sentemb.core.models.load_model`).
        vocab: the words and their corpus counts (the corpus vocabulary, ``data/vocab.tsv``).

    Returns:
        The student's words (with their counts) and float32 rows, shape (V', min(pca_dims, dim) or dim), and a
        record: ``teacher``, ``words`` (V'), ``left_out`` (V − V'), ``pca_dims`` (the components kept),
        ``sif_coefficient``.

    Raises:
        SentembError: a teacher that encodes no word of ``vocab``.
    """
    dims = None if config.pca_dims is None else min(config.pca_dims, teacher.dim)
    table = np.asarray(teacher.encode(vocab.words), dtype=np.float64)
    known = np.any(table != 0, axis=1)
    if not known.any():
        raise SentembError(f"{teacher.name}: encodes none of the {len(vocab):,} words of the vocabulary")
    words = [w for w, k in zip(vocab.words, known.tolist(), strict=True) if k]
    counts, table = vocab.counts[known], table[known]
    if dims is not None:
        table = principal_components(table, dims)
    if config.sif_coefficient is not None:
        frequency = counts / vocab.counts.sum()
        table *= (config.sif_coefficient / (config.sif_coefficient + frequency))[:, None]
    record = {"teacher": teacher.name, "words": len(words), "left_out": int((~known).sum()),
              "pca_dims": dims, "sif_coefficient": config.sif_coefficient}
    return WordVectors.from_arrays(words, counts, table), record
