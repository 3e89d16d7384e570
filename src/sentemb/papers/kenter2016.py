"""Kenter et al. 2016, Siamese CBOW: the sets of Table 1."""

from __future__ import annotations

from sentemb.core.evaluation.sts import SetMean

KENTER_GROUPS = ("STS12", "STS13", "STS14", "STS15")
"""Table 1: the 20 sets of STS 2012-2015; 19 staged (2013 SMT is distributed by LDC only)."""

MEAN = SetMean("STS12-15", groups=KENTER_GROUPS)
"""The unweighted mean over Table 1's sets (each of a model's scores over them)."""
