"""A paper's claims judged on our runs: the verdict, the evidence line and the claims list of a report."""

from __future__ import annotations


def claim_verdict(expected_better: bool, comparison: dict, alpha: float = 0.05) -> str:
    """A paper's claim "A beats B" (``expected_better``) or "A does not beat B", judged on our runs by a paired test
    (:func:`~sentemb.reporting.significance.paired_over_datasets`, or Williams' test for the supervised claims).

    "A beats B": reproduced when our means point the paper's way with p < alpha; inconclusive when they point its
    way without significance (a weak test does not contradict the paper); not reproduced when they point the other
    way, significantly or not. "A does not beat B": reproduced unless A is significantly better.

    Args:
        comparison: ``mean_a``, ``mean_b`` (Pearson ×100) and the two-sided ``p`` of the test.
    """
    a_better = comparison["mean_a"] > comparison["mean_b"]
    significant = comparison["p"] < alpha
    if not expected_better:
        if a_better and significant:
            return "not reproduced (significantly the other way)"
        return "reproduced" if significant else "reproduced (no significant difference)"
    if a_better:
        return "reproduced" if significant else "inconclusive (the paper's direction, not significant)"
    if significant:
        return "not reproduced (significantly the other way)"
    return "not reproduced (no significant difference)"


def claims_markdown(claims: list[dict]) -> str:
    """A claims list: one line per claim with its verdict and evidence (``claim``, ``verdict``, ``evidence``)."""
    return "\n".join(f"- **{c['verdict']}**: {c['claim']} ({c['evidence']})" for c in claims) + "\n"


def comparison_evidence(name_a: str, name_b: str, c: dict) -> str:
    """Means, wins and the p-value of a :func:`~sentemb.reporting.significance.paired_over_datasets` result."""
    return (f"{name_a} {c['mean_a']:.2f} vs {name_b} {c['mean_b']:.2f} mean Pearson ×100 over {c['datasets']} "
            f"datasets, {name_a} higher on {c['wins_a']}; Wilcoxon signed-rank p = {c['p']:.2g}")
