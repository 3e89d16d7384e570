"""A paper's claims judged on our runs: the verdict, the evidence line and the claims list of a report."""

from __future__ import annotations


def claim_verdict(expected_better: bool, comparison: dict, alpha: float = 0.05) -> str:
    """A paper's claim "A beats B" (``expected_better``) or "A does not beat B", judged on our runs by
    :func:`~sentemb.reporting.significance.paired_over_datasets`: reproduced when our means point the paper's way
    with p < alpha; otherwise not reproduced, saying whether the difference goes the other way."""
    a_better = comparison["mean_a"] > comparison["mean_b"]
    significant = comparison["p"] < alpha
    if expected_better == a_better and significant:
        return "reproduced"
    if expected_better != a_better and significant:
        return "not reproduced (significantly the other way)"
    return "not reproduced (no significant difference)" if expected_better else "reproduced (no significant difference)"


def claims_markdown(claims: list[dict]) -> str:
    """A claims list: one line per claim with its verdict and evidence (``claim``, ``verdict``, ``evidence``)."""
    return "\n".join(f"- **{c['verdict']}**: {c['claim']} ({c['evidence']})" for c in claims) + "\n"


def comparison_evidence(name_a: str, name_b: str, c: dict) -> str:
    """Means, wins and the p-value of a :func:`~sentemb.reporting.significance.paired_over_datasets` result."""
    return (f"{name_a} {c['mean_a']:.2f} vs {name_b} {c['mean_b']:.2f} mean Pearson ×100 over {c['datasets']} "
            f"datasets, {name_a} higher on {c['wins_a']}; Wilcoxon signed-rank p = {c['p']:.2g}")
