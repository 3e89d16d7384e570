"""norms@MODEL: Pearson's r between a model's learnt word saliences and psycholinguistic norms (NWS paper §4.2,
Table 3) → metrics/MODEL.norms.json; log word frequency is correlated over the same words, for reference."""

import json
from pathlib import Path

import numpy as np

from sentemb.atomic import write_json
from sentemb.errors import SentembError
from sentemb.models import read_weights
from sentemb.norms import load_norms, norm_correlations

from _common import run


def main(name: str) -> None:
    model_dir = Path("models") / name
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    if config.get("type") != "weighted_average":
        raise SentembError(f"{model_dir}: norms need a model with learnt word weights (got {config.get('type')!r})")
    weights = read_weights(model_dir / config["weights"])
    norms = load_norms("data/raw/norms")
    words = weights["word"].tolist()
    ours = norm_correlations(words, weights["weight"].to_numpy(), norms)
    freq = norm_correlations(words, np.log(weights["count"].to_numpy(dtype=np.float64)), norms)
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
