"""The verdict a report gives a paper's claim, from the means and the p-value of the paired test."""

import pytest

from sentemb.reporting.claims import claim_verdict


@pytest.mark.parametrize("mean_a, mean_b, p, verdict", [
    (65.9, 63.8, 0.01, "reproduced"),
    (65.9, 63.8, 0.37, "inconclusive (the paper's direction, not significant)"),  # a weak test, not a contradiction
    (63.8, 65.9, 0.37, "not reproduced (no significant difference)"),
    (63.8, 65.9, 0.01, "not reproduced (significantly the other way)"),
    (65.9, 65.9, 0.99, "not reproduced (no significant difference)"),  # a tie does not point the paper's way
])
def test_a_claim_that_a_beats_b(mean_a, mean_b, p, verdict):
    assert claim_verdict(True, {"mean_a": mean_a, "mean_b": mean_b, "p": p}) == verdict


@pytest.mark.parametrize("mean_a, mean_b, p, verdict", [
    (65.9, 63.8, 0.01, "not reproduced (significantly the other way)"),
    (65.9, 63.8, 0.37, "reproduced (no significant difference)"),
    (63.8, 65.9, 0.01, "reproduced"),
])
def test_a_claim_that_a_does_not_beat_b(mean_a, mean_b, p, verdict):
    assert claim_verdict(False, {"mean_a": mean_a, "mean_b": mean_b, "p": p}) == verdict


def test_alpha_is_the_threshold():
    c = {"mean_a": 66.0, "mean_b": 64.0, "p": 0.03}
    assert claim_verdict(True, c) == "reproduced"
    assert claim_verdict(True, c, alpha=0.01).startswith("inconclusive")
