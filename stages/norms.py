"""norms@MODEL: Pearson's r between a model's learnt word saliences and psycholinguistic norms (NWS paper §4.2,
Table 3) → metrics/MODEL.norms.json; log word frequency is correlated over the same words, for reference."""

from pathlib import Path

import numpy as np

from sentemb.atomic import write_json
from sentemb.errors import SentembError
from sentemb.models import load_model
from sentemb.salience.model import WeightedAverageModel
from sentemb.salience.norms import load_norms, norm_correlations

from _common import run


def main(name: str) -> None:
    model = load_model(Path("models") / name)
    if not isinstance(model, WeightedAverageModel):
        raise SentembError(f"models/{name}: norms need a model with learnt word weights (got {type(model).__name__})")
    kv = model.vectors
    words = list(kv.index_to_key)
    counts = np.array([kv.get_vecattr(w, "count") for w in words], dtype=np.float64)
    norms = load_norms("data/raw/norms")
    ours = norm_correlations(words, model.weights, norms)
    freq = norm_correlations(words, np.log(counts), norms)
    out = {}
    for (_, row), (_, ref) in zip(ours.iterrows(), freq.iterrows(), strict=True):
        out[f"{row['source']} {row['norm']}"] = {
            "pearson": round(row["pearson"], 4), "words": int(row["words"]),
            "pearson_log_frequency": round(ref["pearson"], 4),
        }
    write_json(f"metrics/{name}.norms.json", out)
    print(f"norms {name}: " + ", ".join(f"{k} r={v['pearson']:+.3f} (n={v['words']})" for k, v in out.items()))


if __name__ == "__main__":
    run(main)
