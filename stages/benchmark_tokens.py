"""benchmark-tokens: the evaluation benchmarks (params ``evaluate.benchmarks``) read once from the raw files →
data/benchmarks/sets.json (sentences and gold scores: the one input of every evaluate stage,
sentemb.core.data.benchmarks.write_benchmark_sets), and every distinct sentence tokenised once, as the split stage
tokenised the corpus → data/benchmarks/tokens.json, which every evaluate stage reads instead of running the tokeniser
on each sentence once per model (sentemb.core.text.cache.write_token_cache)."""

from _common import corpus_text, params, run

from sentemb.core.data.benchmarks import load_benchmarks, write_benchmark_sets
from sentemb.core.evaluation.config import EvaluateConfig
from sentemb.core.text.cache import write_token_cache

OUT = "data/benchmarks/tokens.json"
SETS = "data/benchmarks/sets.json"


def main() -> None:
    config = params("evaluate", EvaluateConfig)
    datasets = load_benchmarks("data/raw", config.benchmarks)
    write_benchmark_sets(SETS, datasets)
    n = write_token_cache(OUT, (s for ds in datasets for s in ds.sentences1 + ds.sentences2), corpus_text())
    print(f"benchmark-tokens: {n:,} distinct sentences tokenised → {OUT}")


if __name__ == "__main__":
    run(main)
