"""evaluate@MODEL: cosine similarity on the STS benchmarks (params ``evaluate``) → metrics/models/MODEL.json (the
aggregates), metrics/models/MODEL.datasets.csv (per dataset) and results/MODEL/ (the score of every pair, and the
record of the model scored); word similarity (SimLex-999, WordSim-353) for models that own their word vectors."""

import json

from _common import params, run

from sentemb.core.atomic import atomic_open, atomic_path, write_json
from sentemb.core.data.benchmarks import read_benchmark_sets
from sentemb.core.evaluation.config import EvaluateConfig
from sentemb.core.evaluation.sts import score_model
from sentemb.core.models import load_model
from sentemb.core.models.format import read_config
from sentemb.core.text.cache import load_token_cache
from sentemb.papers import MEANS, kenter2016


def main(name: str) -> None:
    config = params("evaluate", EvaluateConfig)
    model = load_model(f"models/{name}")
    load_token_cache("data/benchmarks/tokens.json")  # the benchmark sentences tokenised once (benchmark-tokens)
    # the benchmarks of evaluate.benchmarks as benchmark-tokens read them from data/raw
    metrics, evaluation = score_model(name, model, read_benchmark_sets("data/benchmarks/sets.json"), config,
                                      MEANS, oov_means=(kenter2016.MEAN.name, "all"))  # §3.3: CBOW's unknown words
    write_json(f"metrics/models/{name}.json", metrics)
    with atomic_open(f"metrics/models/{name}.datasets.csv", newline="") as fh:
        evaluation.datasets.round(4).to_csv(fh, index=False)
    with atomic_path(f"results/{name}") as tmp:
        tmp.mkdir()
        evaluation.pairs.to_csv(tmp / "pair_scores.tsv", sep="\t", index=False, float_format="%.6f")
        (tmp / "model.json").write_text(json.dumps(read_config(f"models/{name}"), indent=2) + "\n", encoding="utf-8")
    means = {k: v["pearson"] for k, v in metrics.items() if isinstance(v, dict) and "pearson" in v}
    print(f"evaluate {name}: Pearson x100 " + ", ".join(f"{k} {v:.2f}" for k, v in means.items()))


if __name__ == "__main__":
    run(main)
