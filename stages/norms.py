"""norms@MODEL: Pearson's r between a model's learnt word saliences and psycholinguistic norms (NWS paper §4.2,
Table 3), and of log word frequency over the same words for reference → metrics/norms/MODEL.json."""

from _common import run

from sentemb.core.atomic import write_json
from sentemb.core.errors import SentembError
from sentemb.core.models import load_model
from sentemb.salience.model import WeightedAverageModel
from sentemb.salience.norms import load_norms, norm_report


def main(name: str) -> None:
    model = load_model(f"models/{name}")
    if not isinstance(model, WeightedAverageModel):
        raise SentembError(f"models/{name}: norms need a model with learnt word weights (got {type(model).__name__})")
    out = norm_report(model.vectors.words, model.weights, model.vectors.counts, load_norms("data/raw/norms"))
    write_json(f"metrics/norms/{name}.json", out)
    print(f"norms {name}: " + ", ".join(f"{k} r={v['pearson']:+.3f} (n={v['words']})" for k, v in out.items()))


if __name__ == "__main__":
    run(main)
