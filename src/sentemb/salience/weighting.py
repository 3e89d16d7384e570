"""Word weights for weighted word-vector averages, and common-component removal.

The baselines of Bollegala et al. (NWS paper §4.1) and Arora et al. 2017 (SIF), computed from corpus statistics:

- ISF, inverse sentence frequency: NWS paper Eq. 13, "the reciprocal of the number of sentences in which that
  word appears in a corpus", 1/sf(w) (:func:`isf_weights`); the paper's equation is lost in our copy, so the
  IDF-style log(N/sf(w)) is offered as well (:func:`log_isf_weights`), under its own name ``isf-log``.
- SIF, smooth inverse frequency: a / (a + p(w)) with p(w) the unigram probability (Arora et al. 2017 §4, the NWS
  paper's SMOOTH / "GloVe-W") (:func:`sif_weights`).
- Common-component removal (Arora et al. 2017, Algorithm 1, line 3): v_s ← v_s − u uᵀ v_s, with u the first
  singular vector of the matrix of sentence embeddings (not centred, as ``TruncatedSVD`` in the authors' code)
  (:func:`first_principal_component`, :func:`remove_component`).
- uSIF (Ethayarajh 2018, "Unsupervised Random Walk Sentence Embeddings"): weights a / (a/2 + p(w)) with a set by
  the vocabulary size and the mean sentence length (:func:`usif_weights`), and the first m singular vectors removed,
  each weighted by its share of the squared singular values, v_s ← v_s − Σ_i λ_i u_i u_iᵀ v_s
  (:func:`weighted_principal_components`, :func:`remove_component`). The authors' ``usif.py`` also divides each
  dimension of a sentence's word vectors by its norm over the sentence (``np.linalg.norm(v_t, axis=0)``), which
  the weighted model does when asked (``normalisation="per_dimension"``,
  :func:`sentemb.core.models.word_averaging.segment_mean`); fse's ``uSIF`` does not.
"""

from __future__ import annotations

import numpy as np

from sentemb.core.errors import SentembError

WEIGHTINGS = ("isf", "isf-log", "sif", "sif-pc", "sif-pc-corpus", "usif")


def isf_weights(sf: np.ndarray) -> np.ndarray:
    """ISF = 1 / sf(w) (NWS paper, Eq. 13); a word in no sentence gets 0.

    Args:
        sf: int, shape (V,): sentence frequencies.

    Returns:
        float32, shape (V,).
    """
    sf = np.asarray(sf, dtype=np.float64)
    return np.divide(1.0, sf, out=np.zeros_like(sf), where=sf > 0).astype(np.float32)


def log_isf_weights(sf: np.ndarray, n_sentences: int) -> np.ndarray:
    """log(N / sf(w)), the IDF-style variant of ISF (natural log); a word in no sentence gets 0.

    Raises:
        SentembError: ``n_sentences`` smaller than a sentence frequency.
    """
    sf = np.asarray(sf, dtype=np.float64)
    if len(sf) and sf.max() > n_sentences:
        raise SentembError(f"log ISF: a sentence frequency ({int(sf.max())}) exceeds the sentences ({n_sentences})")
    ratio = np.divide(float(n_sentences), sf, out=np.ones_like(sf), where=sf > 0)
    return np.log(ratio).astype(np.float32)


def sif_weights(counts: np.ndarray, a: float) -> np.ndarray:
    """SIF = a / (a + p(w)), p(w) = count(w) / Σ counts (Arora et al. 2017, §4).

    Args:
        counts: int, shape (V,): corpus counts.
        a: the smoothing parameter (``baselines.sif_a``; the SIF paper's default 1e-3).

    Raises:
        SentembError: ``a`` not positive, or no counts.
    """
    if not a > 0:
        raise SentembError(f"SIF parameter a must be positive (got {a})")
    counts = np.asarray(counts, dtype=np.float64)
    if counts.sum() <= 0:
        raise SentembError("SIF: the word counts sum to zero")
    return (a / (a + counts / counts.sum())).astype(np.float32)


def usif_weights(counts: np.ndarray, mean_length: float) -> tuple[np.ndarray, float]:
    """uSIF's weights a / (a/2 + p(w)) (Ethayarajh 2018, §3; the authors' ``usif.py`` and fse's ``uSIF``).

    p(w) = count(w) / Σ counts over the V words; a random walk of n = ``mean_length`` steps emits a word with
    p(w) > 1 − (1 − 1/V)^n at least once in expectation; α is the share of such words, Z = V/2, and
    a = (1 − α) / (α Z).

    Args:
        counts: int, shape (V,): corpus counts.
        mean_length: the mean sentence length in tokens (the authors' n, about 11 for STS).

    Returns:
        ``(weights, a)``: float32, shape (V,), and a.

    Raises:
        SentembError: no counts, a non-positive length, or no word above the threshold (α = 0).
    """
    counts = np.asarray(counts, dtype=np.float64)
    if counts.sum() <= 0:
        raise SentembError("uSIF: the word counts sum to zero")
    if not mean_length > 0:
        raise SentembError(f"uSIF: the mean sentence length must be positive (got {mean_length})")
    vocab_size = len(counts)
    p = counts / counts.sum()
    threshold = 1 - (1 - 1 / vocab_size) ** mean_length
    alpha = float((p > threshold).sum()) / vocab_size
    if alpha == 0:
        raise SentembError(f"uSIF: no word is more probable than the threshold {threshold:.3g}; a is undefined")
    a = (1 - alpha) / (alpha * vocab_size / 2)
    return (a / (a / 2 + p)).astype(np.float32), float(a)


def weighted_principal_components(embeddings: np.ndarray, m: int) -> np.ndarray:
    """uSIF's common components: the first ``m`` right singular vectors u_i of the (n, dim) embedding matrix E (not
    centred, as ``TruncatedSVD``), each scaled by √λ_i with λ_i = σ_i² / Σ_{j≤m} σ_j², so that
    :func:`remove_component` takes v − Σ λ_i u_i u_iᵀ v (Ethayarajh 2018, piecewise common component removal).

    Returns:
        float32, shape (m, dim); zero rows where E has fewer than m non-zero singular values.
    """
    e = np.asarray(embeddings, dtype=np.float64)
    dim = e.shape[1]
    eigenvalues, eigenvectors = np.linalg.eigh(e.T @ e)  # σ², ascending
    top = np.clip(eigenvalues[::-1][:m], 0, None)
    if top.sum() <= 0:
        return np.zeros((m, dim), dtype=np.float32)
    components = eigenvectors[:, ::-1][:, :m].T * np.sqrt(top / top.sum())[:, None]
    return np.vstack([components, np.zeros((m - len(top), dim))]).astype(np.float32)


def first_principal_component(embeddings: np.ndarray) -> np.ndarray:
    """u, the first right singular vector of the (n, dim) embedding matrix E, not centred (SIF, Algorithm 1).

    Computed as the leading eigenvector of the (dim, dim) Gram matrix EᵀE (``numpy.linalg.eigh``), which is the
    same vector as the SVD's up to sign and rounding, at a fraction of the cost for n ≫ dim. Zero rows (sentences
    with no known word) change nothing. Returns float32, shape (dim,), unit norm; the zero vector when every row
    is zero.
    """
    e = np.asarray(embeddings, dtype=np.float64)
    if not np.any(e):
        return np.zeros(np.shape(embeddings)[1], dtype=np.float32)
    _, eigenvectors = np.linalg.eigh(e.T @ e)  # eigenvalues ascending
    return eigenvectors[:, -1].astype(np.float32)


def remove_component(embeddings: np.ndarray, u: np.ndarray) -> np.ndarray:
    """v ← v − u uᵀ v for every row (SIF, Algorithm 1, line 3), or v ← v − Σ_i c_i c_iᵀ v for components given as
    the rows c_i of a (m, dim) array (uSIF: c_i = √λ_i u_i, :func:`weighted_principal_components`).

    Args:
        embeddings: float, shape (n, dim).
        u: float, shape (dim,) or (m, dim).

    Returns:
        float32, shape (n, dim).
    """
    e = np.asarray(embeddings, dtype=np.float32)
    c = np.atleast_2d(np.asarray(u, dtype=np.float32))
    return e - (e @ c.T) @ c
