"""The similarity of two sentence embeddings as every STS evaluation here scores it: their cosine, 0 where either has
no known word. numpy only, so that the CLI's ``similarity`` and the inference helpers load nothing else."""

from __future__ import annotations

import numpy as np


def cosine_scores(e1: np.ndarray, e2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row-wise cosine similarity.

    Args:
        e1, e2: float, shape (n, dim).

    Returns:
        ``(scores, undefined)``: float64 (n,) in [-1, 1], and a bool mask of the pairs where either embedding is
        the zero vector (a sentence with no known word); those pairs get similarity 0, never NaN.
    """
    a = np.asarray(e1, dtype=np.float64)
    b = np.asarray(e2, dtype=np.float64)
    na, nb = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
    undefined = (na == 0) | (nb == 0)
    denom = np.where(undefined, 1.0, na * nb)
    scores = np.where(undefined, 0.0, (a * b).sum(axis=1) / denom)
    return np.clip(scores, -1.0, 1.0), undefined
