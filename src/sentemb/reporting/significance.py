"""Significance tests: Kenter et al.'s Wilcoxon signed-rank test on per-pair scores (§3.3), the Fisher-z confidence
interval of a correlation behind the NWS paper's mark, Williams' test for two dependent correlations that share
the gold scores (Steiger 1980), the test for "model A correlates better with gold than model B", with Zou's (2007)
interval of their difference, the paired comparison over datasets with a bootstrap interval, and the Mann-Whitney
test of one sample against another with its rank-biserial correlation."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats

from sentemb.core.errors import SentembError
from sentemb.reporting.claims import LEVEL_MARGIN


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


def pearson_p(r: float, n: int) -> float:
    """The two-sided p of Pearson's r over n pairs (t = r √((n − 2)/(1 − r²)) on n − 2 degrees of freedom)."""
    t = r * np.sqrt((n - 2) / max(1e-12, 1 - r**2))
    return float(min(1.0, 2 * stats.t.sf(abs(t), n - 2)))


def williams_test(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    """Williams' t for the difference of two dependent correlations with a variable in common (Steiger 1980,
    Eq. 7): is gold (1) correlated more with system A (2) than with system B (3)?

    t = (r12 − r13) · √[(n − 1)(1 + r23) / (2 (n − 1)/(n − 3) |R| + r̄² (1 − r23)³)], with |R| = 1 − r12² − r13² − r23²
    + 2 r12 r13 r23 and r̄ = (r12 + r13)/2, on n − 3 degrees of freedom.

    Args:
        r12, r13: Pearson's r of gold with A and with B (on the −1…1 scale).
        r23: Pearson's r between A and B.
        n: pairs.

    Returns:
        ``(t, p)``: the statistic and the one-sided p-value of "r12 > r13".

    Raises:
        SentembError: fewer than 4 pairs, or a correlation outside [−1, 1].
    """
    if n < 4:
        raise SentembError(f"Williams' test needs at least 4 pairs (got {n})")
    if not all(-1 <= r <= 1 for r in (r12, r13, r23)):
        raise SentembError(f"Williams' test: correlations must lie in [-1, 1] (got {r12}, {r13}, {r23})")
    det = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    mean = (r12 + r13) / 2
    t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23) / (2 * (n - 1) / (n - 3) * det + mean**2 * (1 - r23) ** 3))
    return float(t), float(stats.t.sf(t, n - 3))


def zou_interval(r12: float, r13: float, r23: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Confidence interval of r12 − r13, two correlations with a variable in common (Zou 2007, Psychological Methods
    12(4), §"Overlapping correlations", Eqs. 14-15): built from each r's Fisher-z interval (l, u) and the correlation c
    of the two estimates, c = ((r23 − r12 r13 / 2)(1 − r12² − r13² − r23²) + r23³) / ((1 − r12²)(1 − r13²)):
    L = r12 − r13 − √((r12 − l12)² + (u13 − r13)² − 2c (r12 − l12)(u13 − r13)),
    U = r12 − r13 + √((u12 − r12)² + (r13 − l13)² − 2c (u12 − r12)(r13 − l13)).

    Args:
        r12, r13: Pearson's r of gold with A and with B (−1…1); r23: between A and B; n: pairs (> 3).

    Returns:
        ``(low, high)`` on the −1…1 scale.
    """
    (l12, l13), (u12, u13) = fisher_interval(np.array([r12, r13]), np.array([n, n]), level)
    c = ((r23 - r12 * r13 / 2) * (1 - r12**2 - r13**2 - r23**2) + r23**3) / ((1 - r12**2) * (1 - r13**2))
    low = r12 - r13 - np.sqrt(max(0.0, (r12 - l12) ** 2 + (u13 - r13) ** 2 - 2 * c * (r12 - l12) * (u13 - r13)))
    high = r12 - r13 + np.sqrt(max(0.0, (u12 - r12) ** 2 + (r13 - l13) ** 2 - 2 * c * (u12 - r12) * (r13 - l13)))
    return float(low), float(high)


def williams_scores(gold: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """:func:`williams_test` on per-pair scores: does system A's score correlate better with gold than B's?

    Args:
        gold, a, b: float, shape (n,): gold similarities and the two systems' scores for the same pairs.

    Returns:
        ``(t, p)``, p one-sided for "A better than B".
    """
    r = np.corrcoef(np.vstack([gold, a, b]))
    return williams_test(r[0, 1], r[0, 2], r[1, 2], len(gold))


def williams_table(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """:func:`williams_scores` per dataset: does model A's per-pair score correlate better with gold than B's?

    Args:
        a, b: per-pair scores (``results/MODEL/pair_scores.tsv``: group, dataset, pair, gold, score).

    Returns:
        Rows (group, dataset, pairs, r_a, r_b, t, p): Pearson's r ×100 of each with gold, Williams' t and the
        two-sided p of "r_a ≠ r_b".

    Raises:
        SentembError: when the two files do not hold the same pairs.
    """
    merged = a.merge(b, on=["group", "dataset", "pair", "gold"], suffixes=("_a", "_b"))
    if len(merged) != len(a) or len(merged) != len(b):
        raise SentembError("pair scores of the two models cover different pairs; evaluate both on the same benchmarks")
    rows = []
    for (group, dataset), sub in merged.groupby(["group", "dataset"], sort=False):
        gold, sa, sb = (sub[c].to_numpy() for c in ("gold", "score_a", "score_b"))
        t, _ = williams_scores(gold, sa, sb)
        rows.append({"group": group, "dataset": dataset, "pairs": len(sub),
                     "r_a": float(np.corrcoef(gold, sa)[0, 1]) * 100, "r_b": float(np.corrcoef(gold, sb)[0, 1]) * 100,
                     # two-sided from the upper tail of |t| (1 − sf(t) would round a tiny p to 0), df = n − 3
                     "t": t, "p": min(1.0, 2 * float(stats.t.sf(abs(t), len(sub) - 3)))})
    return pd.DataFrame(rows)


Runs = pd.Series | Mapping[str, pd.Series]


def _runs(x: Runs) -> dict[str, pd.Series]:
    return {"" if x.name is None else str(x.name): x} if isinstance(x, pd.Series) else dict(x)


def seed_mean(runs: Runs) -> pd.Series:
    """Each dataset's score averaged over a model's runs (one per training seed; a Series: one run)."""
    return pd.concat(_runs(runs).values(), axis=1).mean(axis=1)


def paired_over_datasets(a: Runs, b: Runs, margin: float = LEVEL_MARGIN) -> dict:
    """Is model A better than model B across datasets? Wilcoxon signed-rank over the per-dataset scores (the unit
    of the papers' means), two-sided; and are the two level within ±``margin``? (two one-sided Wilcoxon tests of the
    differences against −margin and +margin, TOST; Schuirmann 1987).

    A model trained under several seeds enters as its runs: the tests take each dataset's mean over the runs (the
    datasets stay the unit), and ``seed_effects`` gives the mean difference of every run of A against every run of B,
    so that a verdict can require every pair of seeds to point the same way (:func:`~sentemb.reporting.claims.judge`).

    Args:
        a, b: the two models' scores on the same datasets (same index), Pearson ×100: a Series (one run) or run name
            → Series (one per training seed).
        margin: the equivalence margin, in the scores' unit (points of Pearson ×100).

    Returns:
        ``{"datasets", "mean_a", "mean_b", "wins_a", "p", "ci95", "margin", "p_equivalence", "runs_a", "runs_b",
        "seed_effects"}``; p is 1.0 when the two are equal everywhere; ``ci95``: the 95% interval of the mean
        difference of the run means (:func:`mean_interval`); ``p_equivalence``: the larger of the two one-sided p (1.0
        with fewer than 2 datasets); ``runs_a``, ``runs_b``: the run names.

    Raises:
        SentembError: runs of one model over different datasets.
    """
    ra, rb = _runs(a), _runs(b)
    for runs in (ra, rb):
        first = next(iter(runs.values())).sort_index()
        for name, run in runs.items():
            if not run.sort_index().index.equals(first.index):
                raise SentembError(f"{name}: scored on other datasets than {next(iter(runs))}")
    a, b = seed_mean(ra), seed_mean(rb)
    a, b = a.align(b, join="inner")
    diff = (a - b).to_numpy()
    p = 1.0 if np.all(diff == 0) or len(diff) < 2 else float(stats.wilcoxon(a, b).pvalue)
    seed_effects = [float((x.reindex(a.index) - y.reindex(a.index)).mean()) for x in ra.values() for y in rb.values()]
    return {"datasets": len(diff), "mean_a": float(a.mean()), "mean_b": float(b.mean()),
            "wins_a": int((diff > 0).sum()), "p": p, "ci95": mean_interval(diff), "margin": margin,
            "p_equivalence": equivalence_over_datasets(diff, margin), "runs_a": list(ra), "runs_b": list(rb),
            "seed_effects": seed_effects}


def equivalence_over_datasets(diff: np.ndarray, margin: float) -> float:
    """TOST p that per-dataset differences lie within ±``margin``: the larger of the one-sided Wilcoxon signed-rank
    p-values of "diff + margin > 0" and "diff − margin < 0" (1.0 with fewer than 2 datasets)."""
    diff = np.asarray(diff, dtype=np.float64)
    if len(diff) < 2:
        return 1.0
    above = stats.wilcoxon(diff + margin, alternative="greater").pvalue
    below = stats.wilcoxon(diff - margin, alternative="less").pvalue
    return float(max(above, below))


def correlation_equivalence(r: float, n: int, margin: float) -> float:
    """TOST p that a correlation lies within ±``margin`` of zero: two one-sided z-tests on Fisher's z of r,
    standard error 1/√(n − 3).

    Args:
        r: Pearson's r (−1…1); n: pairs behind it (> 3); margin: 0 < margin < 1.
    """
    z, se = np.arctanh(np.clip(r, -0.999999, 0.999999)), 1 / np.sqrt(n - 3)
    above = stats.norm.sf((z - np.arctanh(-margin)) / se)  # H0: rho <= -margin
    below = stats.norm.cdf((z - np.arctanh(margin)) / se)  # H0: rho >= margin
    return float(max(above, below))


def highest_of(table: pd.DataFrame, model: str) -> int:
    """On how many rows (sets) of ``table`` (a column per model) ``model`` scores strictly highest."""
    others = table.drop(columns=model).max(axis=1)
    return int((table[model] > others).sum())


def count_above_chance(k: int, n: int, chance: float) -> dict:
    """How often an event happened (``k`` of ``n`` datasets, e.g. "the model scores highest of m") against the rate
    ``chance`` it has when the models are exchangeable: the exact binomial test, two-sided (``scipy.stats.binomtest``).

    Returns:
        ``{"k", "n", "chance", "effect", "ci95", "p"}``: effect = k/n − chance, with the Clopper-Pearson 95% interval
        of k/n shifted by the same ``chance``.
    """
    res = stats.binomtest(k, n, chance)
    ci = res.proportion_ci(confidence_level=0.95, method="exact")
    return {"k": k, "n": n, "chance": chance, "effect": k / n - chance,
            "ci95": (float(ci.low) - chance, float(ci.high) - chance), "p": float(res.pvalue)}


def seeds_and_pairs_bootstrap(gold: np.ndarray, a: np.ndarray, b: np.ndarray, resamples: int = 4000,
                              seed: int = 0) -> dict:
    """Does model A correlate better with gold than model B over training seeds and test pairs? A two-level
    (hierarchical) bootstrap: each resample draws the test pairs with replacement (the same pairs for every run) and,
    independently for A and B, the training runs with replacement, and takes the difference of the runs' mean
    Pearson r; the interval is the resamples' 2.5th-97.5th percentiles, the two-sided p twice the smaller tail share
    at zero (Davison & Hinkley 1997, §5 and §4.4). With one run each it counts only the pairs, as Williams' test does.

    Args:
        gold: float, shape (n,): the gold scores of the n test pairs.
        a, b: float, shape (runs, n): each run's predictions for the same pairs (one row per training seed).
        resamples: bootstrap resamples; seed: the generator's seed (a report is the same bytes on a rerun).

    Returns:
        ``{"r_a", "r_b", "pairs", "p", "ci95", "seed_effects"}``: r ×100 as the mean over runs; the interval of
        r_a − r_b ×100; ``seed_effects``: r_a − r_b ×100 of every run of A against every run of B.

    Raises:
        SentembError: predictions of another length than ``gold``.
    """
    gold = np.asarray(gold, dtype=np.float64)
    a, b = (np.atleast_2d(np.asarray(x, dtype=np.float64)) for x in (a, b))
    if a.shape[1] != len(gold) or b.shape[1] != len(gold):
        raise SentembError(f"predictions for {a.shape[1]} and {b.shape[1]} pairs against {len(gold)} gold scores")

    def r(x: np.ndarray, g: np.ndarray) -> np.ndarray:  # Pearson r of each row of x with g
        xc, gc = x - x.mean(axis=1, keepdims=True), g - g.mean()
        return (xc @ gc) / np.sqrt((xc * xc).sum(axis=1) * (gc @ gc))

    ra, rb = r(a, gold), r(b, gold)
    rng = np.random.default_rng(seed)
    n, effects = len(gold), np.empty(resamples)
    for i in range(resamples):
        pairs = rng.integers(0, n, n)
        g = gold[pairs]
        runs_a, runs_b = rng.integers(0, len(a), len(a)), rng.integers(0, len(b), len(b))
        effects[i] = r(a[runs_a][:, pairs], g).mean() - r(b[runs_b][:, pairs], g).mean()
    tail = min((np.sum(effects <= 0) + 1) / (resamples + 1), (np.sum(effects >= 0) + 1) / (resamples + 1))
    low, high = np.percentile(effects, [2.5, 97.5])
    return {"r_a": float(ra.mean() * 100), "r_b": float(rb.mean() * 100), "pairs": n, "p": float(min(1.0, 2 * tail)),
            "ci95": [float(low * 100), float(high * 100)],
            "seed_effects": [float((x - y) * 100) for x in ra for y in rb]}


def mean_interval(values: np.ndarray, level: float = 0.95, resamples: int = 9999, seed: int = 0) -> tuple[float, float]:
    """BCa bootstrap interval of a mean over units (``scipy.stats.bootstrap``; a fixed seed, so a report is the same
    bytes on a rerun): the paired differences of two models over datasets (each dataset resampled with its two
    scores together), or the per-word terms of a rank-biserial correlation (:func:`rank_biserial`).

    Args:
        values: float, shape (n,): one value per unit.

    Returns:
        ``(low, high)``; both the mean when fewer than 3 units or all values are equal.
    """
    values = np.asarray(values, dtype=np.float64)
    if len(values) < 3 or np.all(values == values[0]):
        return float(values.mean()), float(values.mean())
    res = stats.bootstrap((values,), np.mean, confidence_level=level, n_resamples=resamples, method="BCa",
                          rng=np.random.default_rng(seed))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def rank_biserial(a: np.ndarray, b: np.ndarray) -> dict:
    """Whether the values of a small sample ``a`` (e.g. the norms of the words a paper names) lie below or above
    those of a large one ``b`` (every other word): the Mann-Whitney U test and its effect size, the rank-biserial
    correlation r = 2U / (n_a n_b) − 1 (Kerby 2014; −1: every value of ``a`` below every value of ``b``, +1: above).

    r is the mean over the units of ``a`` of 2 q_i − 1, q_i the fraction of ``b`` below a_i (ties counted half);
    its 95% interval is the BCa bootstrap over the units of ``a`` (:func:`mean_interval`), ``b`` held fixed: with
    n_b in the hundreds of thousands its own sampling error is negligible beside that of n_a = 10 words.

    Args:
        a: float, shape (n_a,), n_a ≥ 1.
        b: float, shape (n_b,), n_b ≥ 1.

    Returns:
        ``{"r", "ci95", "p", "quantiles"}``: p two-sided (``scipy.stats.mannwhitneyu``), ``quantiles`` the q_i.
    """
    a, b = np.asarray(a, dtype=np.float64), np.sort(np.asarray(b, dtype=np.float64))
    below = np.searchsorted(b, a, side="left")
    q = (below + 0.5 * (np.searchsorted(b, a, side="right") - below)) / len(b)
    return {"r": float(2 * q.mean() - 1), "ci95": mean_interval(2 * q - 1),
            "p": float(stats.mannwhitneyu(a, b, alternative="two-sided").pvalue), "quantiles": q}
