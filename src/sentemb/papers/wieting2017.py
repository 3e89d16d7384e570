"""Wieting & Gimpel 2017, GRAN: the sets of Tables 1-3, and the STS data of the supervised task (§4.3)."""

from __future__ import annotations

from sentemb.core.evaluation.sts import SetMean

STS_GROUPS = ("STS12", "STS13", "STS14", "STS15")
"""STS 2012-2015: part of the 22 evaluation sets, and the data of the supervised STS task (§4.3, Table 5)."""

GRAN_GROUPS = (*STS_GROUPS, "SICK-R", "PIT-2015")
"""Tables 1-3: the 22 sets of STS 2012-2015, SICK test and PIT-2015 test; 21 staged (no 2013 SMT)."""

MEAN = SetMean("GRAN-22", groups=GRAN_GROUPS, complete=True)
"""The unweighted mean over the 22 sets, recorded only when every group of them was evaluated."""

SELECTION = {"STS16": ("STS16",), "GRAN-22": GRAN_GROUPS, "STS12-15": STS_GROUPS}
"""The paraphrastic models' selection scores, each the mean over the sets of its groups: STS 2016 (the papers'
"test" mode), the 22 sets (the "oracle" mode) and STS 2012-2015; ``paraphrastic.NAME.select`` names one."""

SELECTION_GROUPS = ("STS16", *GRAN_GROUPS)
"""Every group of :data:`SELECTION`: the model-selection data (the pairs stage's ``selection.tsv``)."""
