"""Bollegala et al., Neural Word Salience: the sets of Tables 1-2."""

from __future__ import annotations

from sentemb.core.evaluation.sts import SetMean

NWS_SETS = tuple(
    f"{g}.{d}" for g, ds in {
        "STS12": ("MSRpar", "OnWN", "SMTeuroparl", "SMTnews"), "STS13": ("FNWN", "OnWN", "headlines"),
        "STS14": ("OnWN", "deft-forum", "deft-news", "headlines", "images", "tweet-news"),
        "STS15": ("answers-forums", "answers-students", "belief", "headlines", "images"),
    }.items() for d in ds
)
"""Tables 1-2: the 18 sets of STS 2012-2015 without 2012 MSRvid and 2013 SMT (``group.dataset``)."""

MEAN = SetMean("NWS-18", sets=NWS_SETS)
"""The unweighted mean over the 18 sets."""
