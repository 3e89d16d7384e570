"""baseline@VECTORS-WEIGHTING: a weighted average over the fixed vectors of models/VECTORS, weights from corpus
statistics, no training (params ``baselines``) → models/VECTORS-WEIGHTING/: isf (1/sf), isf-log (log N/sf), sif
(a/(a + p(w)), the NWS paper's SMOOTH) or sif-pc (SIF with the first principal component removed;
sentemb.salience.baselines)."""

from pathlib import Path

from _common import corpus_text, params, run

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.salience.baselines import build_baseline, check_weighting
from sentemb.salience.config import BaselinesConfig


def main(vectors: str, weighting: str) -> None:
    check_weighting(weighting)  # before the corpus is read
    info = build_baseline(Path("models") / f"{vectors}-{weighting}", Path("models") / vectors, weighting,
                          Vocabulary.load("data/vocab.tsv"), TokenCorpus.load("data/corpus"),
                          params("baselines", BaselinesConfig), corpus_text())
    print(f"baseline {vectors}-{weighting}: {info}")


if __name__ == "__main__":
    run(main)
