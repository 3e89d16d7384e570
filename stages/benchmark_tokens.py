"""benchmark-tokens: every distinct sentence of the evaluation benchmarks (params ``evaluate.benchmarks``) tokenised
once, as the split stage tokenised the corpus → data/benchmarks/tokens.json, which every evaluate stage reads instead
of running the tokeniser on each sentence once per model (sentemb.text.write_token_cache)."""

from sentemb.data.benchmarks import load_benchmarks
from sentemb.text import write_token_cache

from _common import params, run, text_config
from _evaluate import Evaluate

OUT = "data/benchmarks/tokens.json"


def main() -> None:
    p = params("evaluate", Evaluate)
    sentences = (s for ds in load_benchmarks("data/raw", p.benchmarks) for s in ds.sentences1 + ds.sentences2)
    n = write_token_cache(OUT, sentences, text_config())
    print(f"benchmark-tokens: {n:,} distinct sentences tokenised → {OUT}")


if __name__ == "__main__":
    run(main)
