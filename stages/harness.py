"""senteval-tokens (``tokens``): the STS 2012-2016 sentences as SentEval prepares them (Moses tokens, lower-cased),
tokenised once as the corpus was → data/harness/senteval_tokens.json. harness-TYPE: every evaluated model of one saved
type (word_average, weighted_average, paraphrastic) scored on STS 2012-2016 under the field's conventions (per-set
mean, SentEval's wmean, pooled Pearson, MTEB's pooled Spearman), on the raw text and on SentEval's Moses tokens →
metrics/harness/TYPE.csv; ``report``: those tables and each static student beside its teacher → reports/harness.md
(:mod:`sentemb.reporting.harness`). Encoding speeds are clock readings, kept out of the outputs:
benchmarks/encode_speed.py."""

from _common import corpus_text, params, run

import pandas as pd

from sentemb.core.atomic import atomic_open
from sentemb.core.data.benchmarks import STS_YEARS, load_benchmarks
from sentemb.core.errors import SentembError
from sentemb.core.evaluation.config import EvaluateConfig
from sentemb.core.text.cache import load_token_cache
from sentemb.reporting.harness import harness_report, harness_tables, write_senteval_token_cache
from sentemb.reporting.workspace import Workspace

TYPES = ("word_average", "weighted_average", "paraphrastic")
TOKENS = "data/harness/senteval_tokens.json"


def main(kind: str) -> None:
    if kind == "report":
        frame = pd.concat([pd.read_csv(f"metrics/harness/{t}.csv") for t in TYPES])
        harness_report(frame, Workspace().means("STS12-15")).write("reports", "harness")
        print(f"harness: reports/harness.md, {frame['model'].nunique()} models")
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
    frame = harness_tables(models, load_benchmarks("data/raw", years), config.oov)
    with atomic_open(f"metrics/harness/{kind}.csv", newline="") as fh:
        frame.to_csv(fh, index=False)
    print(f"harness {kind}: {len(models)} models, STS {', '.join(years)}")


if __name__ == "__main__":
    run(main)
