"""Pearson's r and Spearman's ρ as every score here is correlated with its gold ratings (STS, SICK-R, word
similarity, model selection in training), without scipy.stats."""

from __future__ import annotations

import numpy as np
import pandas as pd


def correlations(pred: np.ndarray, gold: np.ndarray) -> tuple[float, float]:
    """Pearson's r and Spearman's ρ, ×100, as pandas computes them: ``Series.corr`` (Pearson), and ρ as Pearson's r
    of the ranks (``Series.rank``, ties given their average rank), which is how scipy.stats.spearmanr defines it.
    The same figures as scipy's to 1e-12 (``tests/test_evaluation.py``) without importing scipy.stats (0.7-1.4 s
    here, for every evaluation and every command that scores a pair).

    Args:
        pred, gold: float, shape (n,).

    Returns:
        ``(r, ρ)``, each ×100. A constant prediction or gold, or fewer than two pairs, has no defined correlation;
        it is reported as ``(0.0, 0.0)`` rather than NaN.
    """
    if len(pred) < 2 or np.ptp(pred) == 0 or np.ptp(gold) == 0:
        return 0.0, 0.0
    p, g = pd.Series(np.asarray(pred, dtype=np.float64)), pd.Series(np.asarray(gold, dtype=np.float64))
    return float(p.corr(g)) * 100, float(p.rank().corr(g.rank())) * 100
