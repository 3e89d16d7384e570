"""Significance tests the papers use: Kenter et al.'s Wilcoxon signed-rank test on per-pair scores (§3.3) and the
Fisher-z confidence interval of a correlation behind the NWS paper's mark."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from sentemb.errors import SentembError


def wilcoxon_table(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """Wilcoxon signed-rank test between two models' per-pair similarity scores on each dataset, as Kenter et al.
    §3.3 test Siamese CBOW against word2vec CBOW (they call p < 0.0001 significant).

    Args:
        a, b: per-pair scores (``results/MODEL/pair_scores.tsv``: group, dataset, pair, gold, score).

    Returns:
        Rows (group, dataset, p); p is 1.0 where the two models score every pair alike.

    Raises:
        SentembError: when the two files do not hold the same pairs.
    """
    merged = a.merge(b, on=["group", "dataset", "pair"], suffixes=("_a", "_b"))
    if len(merged) != len(a) or len(merged) != len(b):
        raise SentembError("pair scores of the two models cover different pairs; evaluate both on the same benchmarks")
    rows = []
    for (group, dataset), sub in merged.groupby(["group", "dataset"], sort=False):
        diff = sub["score_a"].to_numpy() - sub["score_b"].to_numpy()
        p = 1.0 if np.all(diff == 0) else float(stats.wilcoxon(sub["score_a"], sub["score_b"]).pvalue)
        rows.append({"group": group, "dataset": dataset, "p": p})
    return pd.DataFrame(rows)


def fisher_interval(r: np.ndarray, n: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Confidence interval of Pearson's r by the Fisher z-transformation: tanh(atanh(r) ± z_{(1+level)/2}/√(n−3)).

    Args:
        r: Pearson's r on the −1…1 scale, any shape.
        n: pairs behind each r (> 3).

    Returns:
        ``(low, high)``, arrays shaped like ``r``.
    """
    z = np.arctanh(np.clip(np.asarray(r, dtype=np.float64), -0.999999, 0.999999))
    half = stats.norm.ppf((1 + level) / 2) / np.sqrt(np.asarray(n, dtype=np.float64) - 3)
    return np.tanh(z - half), np.tanh(z + half)
