"""benchmark-tokens: every distinct sentence of the evaluation benchmarks (params ``evaluate.benchmarks``) tokenised
once, as the split stage tokenised the corpus → data/benchmarks/tokens.json, which every evaluate stage reads instead
of running the tokeniser on each sentence once per model (sentemb.core.text.cache.write_token_cache)."""

from _common import corpus_text, params, run

from sentemb.core.data.benchmarks import load_benchmarks
from sentemb.core.evaluation.config import EvaluateConfig
from sentemb.core.text.cache import write_token_cache

OUT = "data/benchmarks/tokens.json"


def main() -> None:
    config = params("evaluate", EvaluateConfig)
    sentences = (s for ds in load_benchmarks("data/raw", config.benchmarks) for s in ds.sentences1 + ds.sentences2)
    n = write_token_cache(OUT, sentences, corpus_text())
    print(f"benchmark-tokens: {n:,} distinct sentences tokenised → {OUT}")


if __name__ == "__main__":
    run(main)
