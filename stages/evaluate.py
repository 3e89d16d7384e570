"""evaluate@MODEL: cosine similarity on the STS benchmarks → metrics/MODEL.json, per-dataset table, pair scores;
word similarity (SimLex-999, WordSim-353) for models that own their word vectors."""

from pathlib import Path

from sentemb.atomic import atomic_open, write_json
from sentemb.data.benchmarks import load_benchmarks
from sentemb.evaluation.sts import aggregate, evaluate
from sentemb.models import WordAveragingModel, load_model
from sentemb.text import load_token_cache

from _common import params, run
from _evaluate import Evaluate

TOKENS = "data/benchmarks/tokens.json"  # the benchmark sentences tokenised once (stage benchmark-tokens)


def _means(metrics: dict) -> dict:
    """The two means the report compares unknown-word treatments on: STS12-15 and all datasets."""
    return {k: metrics[k]["pearson"] for k in ("STS12-15", "all") if k in metrics}


def main(name: str) -> None:
    p = params("evaluate", Evaluate)
    model = load_model(Path("models") / name)
    load_token_cache(TOKENS)
    benchmarks = load_benchmarks("data/raw", p.benchmarks)
    own_vectors = type(model) is WordAveragingModel  # not a weighting or an encoder over another model's vectors
    if own_vectors:
        model.oov = p.oov
    ev = evaluate(model, benchmarks)
    metrics = aggregate(ev)
    if own_vectors:
        from sentemb.evaluation.word_similarity import word_similarity  # a dependency of these stages only

        metrics["word_similarity"] = word_similarity(model.vectors)
        if name in p.oov_both:  # the other treatment of unknown words, for the report
            model.oov = "random" if p.oov == "drop" else "drop"
            metrics["oov"] = {p.oov: _means(metrics), model.oov: _means(aggregate(evaluate(model, benchmarks)))}
    write_json(f"metrics/{name}.json", metrics)
    with atomic_open(f"metrics/{name}.datasets.csv", newline="") as fh:
        ev.datasets.round(4).to_csv(fh, index=False)
    with atomic_open(f"results/{name}/pair_scores.tsv", newline="") as fh:
        ev.pairs.to_csv(fh, sep="\t", index=False, float_format="%.6f")
    year = {k: v["pearson"] for k, v in metrics.items() if isinstance(v, dict) and "pearson" in v}
    print(f"evaluate {name}: Pearson x100 " + ", ".join(f"{k} {v:.2f}" for k, v in year.items()))


if __name__ == "__main__":
    run(main)
