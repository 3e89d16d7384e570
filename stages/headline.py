"""headline: the figures a review compares, in one small DVC metrics file → metrics/headline.json.

Per evaluated model (metrics/summary.json, the report's): Pearson ×100 averaged over STS 2012-2015 (``STS12-15``,
Kenter et al.'s 19 sets) and over every evaluated dataset (``all``); per supervised run
(metrics/supervised/MODEL-SETTING.json): the test r ×100 on STS and SICK. Every detailed file stays a plain output,
so that ``dvc metrics diff`` and ``dvc exp show --only-changed`` print these and nothing wider.
"""

from pathlib import Path

from pydantic import ConfigDict, Field

from sentemb.atomic import read_json, write_json

from _common import Section, params, run
from _supervised import SETTINGS

SUMMARY = Path("metrics/summary.json")
OUT = "metrics/headline.json"
KEYS = ("STS12-15", "all")


class SupervisedNames(Section):
    """The names of the supervised models (the rest of the section is validated by the supervise stages)."""

    model_config = ConfigDict(extra="ignore")
    models: dict[str, dict] = Field(min_length=1)


def main() -> None:
    summary = read_json(SUMMARY, "missing (run `dvc repro report`)")
    out = {model: {k: values[k] for k in KEYS if k in values} for model, values in summary.items()
           if isinstance(values, dict)}
    for model in params("supervised", SupervisedNames).models:
        for setting in SETTINGS:
            name = f"{model}-{setting}"
            m = read_json(Path("metrics/supervised") / f"{name}.json",
                          f"missing (run `dvc repro pipelines/supervised/dvc.yaml:supervise@{name}`)")
            out[f"supervised/{name}"] = {"sts": m["sts"]["test"], "sick": m["sick"]["test"]}
    write_json(OUT, out)
    print(f"headline: {len(out)} rows → {OUT}")


if __name__ == "__main__":
    run(main)
