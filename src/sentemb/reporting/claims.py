"""A paper's claims judged on our runs: the claims ledger (``metrics/claims/PAPER.json``) and the claims lists of the
reports, both from one record per claim.

A report builds its claims where it has their evidence and places them in its text as :class:`ClaimsBlock` parts;
:func:`resolve_claims` then adjusts the p-values of all the paper's testable claims together (Holm 1979, the paper's
claims one family; a "level" claim adds its equivalence test's p to the family) and judges each claim on its adjusted
p:

- "A beats B" (``expects="better"``; a correlation claim ``"positive"`` or ``"negative"``): *reproduced* when the
  effect points the paper's way with adjusted p < α; *contradicted* when it points the other way with adjusted p < α;
  *inconclusive* otherwise (the observed effect and its 95% interval say how far the runs are from either);
- "A and B are level" (``expects="level"``, the paper reports the two level, or a correlation near zero): an
  equivalence test (two one-sided tests, TOST; Schuirmann 1987) against a stated ``margin`` (:data:`LEVEL_MARGIN`
  points of Pearson ×100 between two models, :data:`R_MARGIN` for a correlation): *reproduced* when the difference
  lies within ±margin with adjusted p < α; *contradicted* when, not so, the two differ (either way) with adjusted
  p < α; *inconclusive* otherwise: a test without the power to tell is no evidence for the paper;
- *not testable*: the claim needs a system or data the project does not have (``p`` is None; ``reason`` says what).

A model trained under several seeds enters a test as its runs (``seeds``: model → run names), the test on the runs'
mean (over datasets) or on runs and pairs resampled together (supervised runs); ``seed_effects`` holds the effect of
every run of A against every run of B, and a claim is *reproduced* or *contradicted* only when they all agree with the
verdict (the same sign; for a level claim all within the margin, or all beyond it on one side): otherwise the seeds
disagree (``seeds_agree`` false) and the claim is *inconclusive*.

Each claim also records the paper's own effect (``paper_effect``, on our effect's scale) and whether our 95% interval
holds it (``paper_effect_in_ci95``): a claim can be reproduced in direction and still miss the paper's size.

The verdict is also a number (``verdict_code``: 1 reproduced, 0 inconclusive, −1 contradicted; None when not
testable), so that a flip shows as a change of a number in ``dvc metrics diff``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

Expects = Literal["better", "level", "positive", "negative"]
VERDICT_CODES = {"reproduced": 1, "inconclusive": 0, "contradicted": -1, "not testable": None}
ALPHA = 0.05
LEVEL_MARGIN = 1.0  # points of Pearson ×100: the papers print one decimal and call rows this close level
R_MARGIN = 0.1  # a correlation "near zero": |r| < 0.1, the conventional bound of a negligible correlation (Cohen 1988)


SEEDS_NOTE = ("A model with several training seeds (its `-seedS` runs) enters each test as all its runs, on each "
              "dataset's mean over them, and a verdict stands only when every run of one model against every run of "
              "the other points its way (each line names the runs when there are several); the other models were "
              "trained once.")


class ClaimsBlock(list):
    """The claims of one section of a report, in order (each a dict from :func:`claim`), rendered in place by
    :func:`resolve_claims`."""


def claim(key: str, source: str, statement: str, paper: str, evidence: str, *, expects: Expects = "better",
          effect: float | None = None, ci95: Sequence[float] | None = None, p: float | None = None,
          test: str = "", seeds: dict[str, list[str]] | None = None, reason: str = "",
          paper_effect: float | None = None, p_equivalence: float | None = None, margin: float | None = None,
          seed_effects: Sequence[float] | None = None) -> dict:
    """One claim's record, before the family's adjustment.

    Args:
        key: a short identifier, unique within the paper (the key in ``metrics/claims/PAPER.json``).
        source: where the paper makes it (``Table 1``, ``§4.4``).
        statement: the claim in words ("NWS over GloVe beats AVG over GloVe").
        paper: the paper's figures for it (``57.5 vs 38.0``), from ``reference/``.
        evidence: our figures in words (means, wins, the test's statistic).
        expects: the direction the paper reports (see the module's docstring).
        effect: ours, A − B (Pearson ×100) or the correlation r; positive = A better / r > 0.
        ci95: the 95% interval of ``effect``.
        p: the two-sided p-value of the test of a difference; None for a claim that is not testable.
        test: the test's name.
        seeds: each model the claim compares → its runs (one per training seed; one run for a model without
            training or trained once).
        seed_effects: the effect of every run of A against every run of B (judged to agree with the verdict).
        reason: why a claim is not testable.
        paper_effect: the paper's own effect on the scale of ``effect`` (A − B from its table, or its r); None where
            the paper gives no number.
        p_equivalence: a "level" claim's equivalence test (TOST) p: the difference lies within ±``margin``.
        margin: the equivalence margin of a "level" claim, on the scale of ``effect``.

    Raises:
        ValueError: a testable "level" claim without ``p_equivalence`` and ``margin`` (a report's own error).
    """
    if expects == "level" and p is not None and (p_equivalence is None or margin is None):
        raise ValueError(f"claim {key}: a level claim needs its equivalence test (p_equivalence, margin)")
    inside = None
    if paper_effect is not None and ci95 is not None:
        inside = bool(min(ci95) <= paper_effect <= max(ci95))
    return {"key": key, "source": source, "claim": statement, "paper": paper, "evidence": evidence,
            "expects": expects, "effect": None if effect is None else round(float(effect), 4),
            "ci95": None if ci95 is None else [round(float(v), 4) for v in ci95],
            "paper_effect": None if paper_effect is None else round(float(paper_effect), 4),
            "paper_effect_in_ci95": inside,
            "p": None if p is None else float(p), "test": test, "seeds": seeds or {}, "reason": reason,
            "margin": margin, "p_equivalence": None if p_equivalence is None else float(p_equivalence),
            "seed_effects": None if seed_effects is None else [round(float(v), 4) for v in seed_effects]}


def not_testable(key: str, source: str, statement: str, paper: str, reason: str) -> dict:
    """A claim that needs a system or data the project does not have."""
    return claim(key, source, statement, paper, "", reason=reason)


def judge(expects: Expects, effect: float, p: float, alpha: float = ALPHA,
          p_equivalence: float | None = None) -> str:
    """The verdict of a testable claim from its effect (positive = A better, or r > 0), its adjusted p and, for a
    "level" claim, its adjusted equivalence p (see the module's docstring).

    Raises:
        ValueError: a "level" claim without ``p_equivalence``.
    """
    significant = p < alpha
    if expects == "level":
        if p_equivalence is None:
            raise ValueError("a level claim is judged by its equivalence test: p_equivalence is None")
        if p_equivalence < alpha:
            return "reproduced"
        return "contradicted" if significant else "inconclusive"
    toward = effect < 0 if expects == "negative" else effect > 0
    if not significant or effect == 0:
        return "inconclusive"
    return "reproduced" if toward else "contradicted"


def seeds_agree(verdict: str, expects: Expects, effect: float, seed_effects: Sequence[float] | None,
                margin: float | None) -> bool:
    """Whether every run pair's effect agrees with a verdict (see the module's docstring); True for a verdict that
    asserts nothing (inconclusive) and for one pair of runs."""
    if verdict not in ("reproduced", "contradicted") or not seed_effects or len(seed_effects) < 2:
        return True
    e = np.asarray(seed_effects, dtype=np.float64)
    if expects == "level":
        return bool(np.all(np.abs(e) < margin)) if verdict == "reproduced" else bool(
            np.all(e >= margin) or np.all(e <= -margin))
    return bool(np.all(np.sign(e) == np.sign(effect)))


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (statsmodels ``multipletests(method="holm")``)."""
    if not p:
        return []
    from statsmodels.stats.multitest import multipletests

    return [float(v) for v in multipletests(np.asarray(p, dtype=np.float64), method="holm")[1]]


def resolve_claims(parts: list, alpha: float = ALPHA) -> tuple[list[str], list[dict]]:
    """Adjust and judge every claim of a report's ``parts`` (strings and :class:`ClaimsBlock`), one family.

    Returns:
        The parts with each block rendered as its markdown list, and the ledger: every claim's record with
        ``p_holm``, ``verdict`` and ``verdict_code`` added, in the report's order.

    Raises:
        ValueError: two claims of the report share a key (a report's own error, not the user's).
    """
    ledger = [c for part in parts if isinstance(part, ClaimsBlock) for c in part]
    tests = [(c, field) for c in ledger for field in ("p", "p_equivalence") if c[field] is not None]
    for (c, field), adjusted in zip(tests, holm([c[field] for c, field in tests]), strict=True):
        c[field.replace("p", "p_holm", 1)] = adjusted
    for c in ledger:
        if c["p"] is None:
            c["p_holm"], c["verdict"] = None, "not testable"
        else:
            c["verdict"] = judge(c["expects"], c["effect"], c["p_holm"], alpha, c.get("p_holm_equivalence"))
        c["seeds_agree"] = None if c["p"] is None else seeds_agree(c["verdict"], c["expects"], c["effect"],
                                                              c.get("seed_effects"), c.get("margin"))
        if c["p"] is not None and not c["seeds_agree"]:
            c["verdict"] = "inconclusive"
        c.setdefault("p_holm_equivalence", None)
        c["verdict_code"] = VERDICT_CODES[c["verdict"]]
    keys = [c["key"] for c in ledger]
    if len(set(keys)) != len(keys):
        raise ValueError(f"claim keys repeat: {sorted(k for k in set(keys) if keys.count(k) > 1)}")
    return [claims_markdown(p) if isinstance(p, ClaimsBlock) else p for p in parts], ledger


def claims_markdown(claims: list[dict]) -> str:
    """A claims list: one line per judged claim: verdict, claim, the paper's figures, ours, the effect with its 95%
    interval, the test's p and the Holm-adjusted p."""
    lines = []
    for c in claims:
        head = f"- **{c['verdict']}**: {c['claim']} ({c['source']}, paper: {c['paper']})"
        if c["verdict"] == "not testable":
            lines.append(f"{head}: {c['reason']}")
            continue
        # a correlation r (a sign claim, or a level one with a margin in r), or points of Pearson ×100
        digits = 3 if c["expects"] in ("positive", "negative") or (c["margin"] or 1) < 1 else 2
        interval = f" [{c['ci95'][0]:+.{digits}f}, {c['ci95'][1]:+.{digits}f}]" if c["ci95"] else ""
        seeds = ""
        if any(len(runs) > 1 for runs in c["seeds"].values()):
            seeds = "; seeds " + ", ".join(f"{m} {len(runs)}" for m, runs in c["seeds"].items()) + (
                "" if c["seeds_agree"] else ", which disagree")
        equivalence = (f"; within ±{c['margin']:g}: TOST p = {c['p_equivalence']:.2g}, Holm "
                       f"{c['p_holm_equivalence']:.2g}" if c["expects"] == "level" else "")
        size = ""
        if c["paper_effect_in_ci95"] is not None:
            size = (f"; the paper's {c['paper_effect']:+.{digits}f} "
                    f"{'inside' if c['paper_effect_in_ci95'] else 'outside'} our interval")
        lines.append(f"{head}: {c['evidence']}; effect {c['effect']:+.{digits}f}{interval}{size}; p = {c['p']:.2g}, "
                     f"Holm {c['p_holm']:.2g}{equivalence}{seeds}")
    return "\n".join(lines) + "\n"


def comparison_evidence(name_a: str, name_b: str, c: dict) -> str:
    """Means and wins of a :func:`~sentemb.reporting.significance.paired_over_datasets` result."""
    return (f"{name_a} {c['mean_a']:.2f} vs {name_b} {c['mean_b']:.2f} mean Pearson ×100 over {c['datasets']} "
            f"datasets, {name_a} higher on {c['wins_a']}")


def comparison_claim(key: str, source: str, statement: str, paper: str, name_a: str, name_b: str, c: dict,
                     expects: Expects = "better", extra: str = "", paper_effect: float | None = None) -> dict:
    """The claim "A beats B" (or "A and B are level") over datasets, from a
    :func:`~sentemb.reporting.significance.paired_over_datasets` result ``c`` (its TOST p judges a level claim);
    ``paper_effect``: the paper's A − B (Pearson ×100)."""
    test = ("Wilcoxon signed-rank over the per-dataset Pearson r, two-sided; 95% BCa bootstrap interval of the mean "
            "difference over datasets")
    if expects == "level":
        test += f"; equivalence: two one-sided Wilcoxon tests of the differences against ±{c['margin']:g}"
    if any(len(c[f"runs_{x}"]) > 1 for x in "ab"):
        test += "; a model with several training seeds by each dataset's mean over its runs"
    return claim(key, source, statement, paper, comparison_evidence(name_a, name_b, c) + extra, expects=expects,
                 effect=c["mean_a"] - c["mean_b"], ci95=c["ci95"], p=c["p"], test=test, paper_effect=paper_effect,
                 p_equivalence=c["p_equivalence"] if expects == "level" else None,
                 margin=c["margin"] if expects == "level" else None,
                 seeds={name_a: c["runs_a"], name_b: c["runs_b"]}, seed_effects=c["seed_effects"])
