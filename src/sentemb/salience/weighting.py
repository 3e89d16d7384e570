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
"""

from __future__ import annotations

import numpy as np

from sentemb.core.errors import SentembError

WEIGHTINGS = ("isf", "isf-log", "sif", "sif-pc")


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
    """v ← v − u uᵀ v for every row (SIF, Algorithm 1, line 3). Returns float32, shape (n, dim)."""
    e = np.asarray(embeddings, dtype=np.float32)
    u = np.asarray(u, dtype=np.float32)
    return e - np.outer(e @ u, u)
