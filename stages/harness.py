"""senteval-tokens (``tokens``): the STS 2012-2016 sentences as SentEval prepares them (Moses tokens, lower-cased),
tokenised once as the corpus was → data/harness/senteval_tokens.json. harness-TYPE: every evaluated model of one saved
type (word_average, weighted_average, paraphrastic) scored on STS 2012-2016 under the field's conventions (per-set
mean, SentEval's wmean, pooled Pearson, MTEB's pooled Spearman), on the raw text and on SentEval's Moses tokens →
metrics/harness/TYPE.csv, and each one's encoding speed (params ``speed``; this machine's, varying by run) →
metrics/speed/TYPE.csv; ``report``: those tables and the static frontier → reports/harness.md and
reports/figures/harness/ (:mod:`sentemb.reporting.harness`, :mod:`sentemb.reporting.frontier`)."""

from _common import corpus_text, params, run

import pandas as pd

from sentemb.core.atomic import atomic_open
from sentemb.core.data.benchmarks import STS_YEARS, load_benchmarks
from sentemb.core.errors import SentembError
from sentemb.core.evaluation.config import EvaluateConfig
from sentemb.core.text import load_token_cache
from sentemb.reporting.config import EncodeSpeedConfig
from sentemb.reporting.frontier import speed_sentences
from sentemb.reporting.harness import harness_report, harness_tables, write_senteval_token_cache
from sentemb.reporting.workspace import Workspace

TYPES = ("word_average", "weighted_average", "paraphrastic")
TOKENS = "data/harness/senteval_tokens.json"
TABLES = ("harness", "speed")  # metrics/TABLE/TYPE.csv: the scores under each convention, the encoding speed


def main(kind: str) -> None:
    if kind == "report":
        frame, speed = (pd.concat([pd.read_csv(f"metrics/{what}/{t}.csv") for t in TYPES]) for what in TABLES)
        harness_report(frame, speed, Workspace().means("STS12-15")).write("reports", "harness")
        print(f"harness: reports/harness.md, {frame['model'].nunique()} models, the static frontier")
        return
    if kind not in (*TYPES, "tokens"):
        raise SentembError(f"unknown model type {kind!r} (expected one of {', '.join(TYPES)}, tokens or report)")
    config = params("evaluate", EvaluateConfig)
    years = [b for b in config.benchmarks if b in STS_YEARS]
    if kind == "tokens":
        n = write_senteval_token_cache(TOKENS, load_benchmarks("data/raw", years), corpus_text())
        print(f"senteval-tokens: {n:,} distinct sentences tokenised → {TOKENS}")
        return
    for cache in ("data/benchmarks/tokens.json", TOKENS):  # both texts tokenised once, not once per model
        load_token_cache(cache)
    models = [f"models/{n}" for n in Workspace().evaluated_models(kind)]
    datasets, speed = load_benchmarks("data/raw", years), params("speed", EncodeSpeedConfig)
    timed = speed_sentences(datasets, speed.sentences)
    frame, rates = harness_tables(models, datasets, config.oov, timed, speed.rounds)
    for what, table in zip(TABLES, (frame, rates), strict=True):
        with atomic_open(f"metrics/{what}/{kind}.csv", newline="") as fh:
            table.to_csv(fh, index=False)
    print(f"harness {kind}: {len(models)} models, STS {', '.join(years)}, speed on {speed.sentences:,} sentences")


if __name__ == "__main__":
    run(main)
