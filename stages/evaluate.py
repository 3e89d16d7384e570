"""evaluate@MODEL: cosine similarity on the STS benchmarks → metrics/MODEL.json, per-dataset table, pair scores;
word similarity (SimLex-999, WordSim-353) for models that own their word vectors."""

from pathlib import Path

from sentemb.atomic import atomic_open, write_json
from sentemb.evaluation import aggregate, evaluate, load_benchmarks, word_similarity
from sentemb.models import WeightedAverageModel, WordAveragingModel, load_model

from _common import params, run


def main(name: str) -> None:
    p = params("evaluate")
    model = load_model(Path("models") / name)
    ev = evaluate(model, load_benchmarks("data/raw", p.benchmarks))
    metrics = aggregate(ev)
    if isinstance(model, WordAveragingModel) and not isinstance(model, WeightedAverageModel):
        metrics["word_similarity"] = word_similarity(model.vectors)  # the vectors are this model's own
    write_json(f"metrics/{name}.json", metrics)
    with atomic_open(f"metrics/{name}.datasets.csv", newline="") as fh:
        ev.datasets.round(4).to_csv(fh, index=False)
    with atomic_open(f"results/{name}/pair_scores.tsv", newline="") as fh:
        ev.pairs.to_csv(fh, sep="\t", index=False, float_format="%.6f")
    year = {k: v["pearson"] for k, v in metrics.items() if isinstance(v, dict) and "pearson" in v}
    print(f"evaluate {name}: Pearson x100 " + ", ".join(f"{k} {v:.2f}" for k, v in year.items()))


if __name__ == "__main__":
    run(main)
