"""The headline: the figures a review compares, in one small DVC metrics file (``metrics/headline.json``).

Per evaluated model (``metrics/models/MODEL.json``): Pearson ×100 averaged over STS 2012-2015 (``STS12-15``, Kenter
et al.'s 19 staged sets) and over every evaluated dataset (``all``); per supervised run
(``metrics/supervised/MODEL-SETTING.json``): the test r ×100 on STS and SICK. Every detailed file stays a plain
output, so that ``dvc metrics diff`` and ``dvc exp show`` print these and nothing wider.
"""

from __future__ import annotations

from pathlib import Path

from sentemb.core.atomic import read_json
from sentemb.core.errors import SentembError

KEYS = ("STS12-15", "all")


def headline(root: str | Path = ".") -> dict:
    """Every evaluated model's two means and every supervised run's test r, models in name order.

    Raises:
        SentembError: no evaluated model, or a malformed metrics file.
    """
    root = Path(root)
    models = sorted((root / "metrics" / "models").glob("*.json"))
    if not models:
        raise SentembError(f"{root / 'metrics' / 'models'}: no evaluated model")
    out = {}
    for path in models:
        metrics = read_json(path, "missing")
        out[path.stem] = {k: metrics[k]["pearson"] for k in KEYS if k in metrics}
    for path in sorted((root / "metrics" / "supervised").glob("*.json")):
        m = read_json(path, "missing")
        try:
            out[f"supervised/{path.stem}"] = {"sts": m["sts"]["test"], "sick": m["sick"]["test"]}
        except (KeyError, TypeError):
            raise SentembError(f"{path}: expected the test r of the sts and sick tasks") from None
    return out
