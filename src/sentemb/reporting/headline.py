"""The headline: the figures a review compares, in one small DVC metrics file (``metrics/headline.json``).

Per evaluated model (``metrics/models/MODEL.json``): Pearson ×100 averaged over STS 2012-2015 (``STS12-15``, Kenter
et al.'s 19 staged sets) and over every evaluated dataset (``all``); per supervised run
(``metrics/supervised/MODEL-SETTING.json``): the test r ×100 on STS and SICK; per paper (``metrics/claims/PAPER.json``)
each testable claim's verdict as a number (1 reproduced, 0 inconclusive, −1 contradicted), so that ``dvc metrics
diff`` shows a verdict that flips. Every detailed file stays a plain output, so that ``dvc metrics diff`` and ``dvc exp
show`` print these and nothing wider.
"""

from __future__ import annotations

from pathlib import Path

from sentemb.core.atomic import read_json
from sentemb.core.errors import SentembError
from sentemb.reporting.workspace import Workspace

KEYS = ("STS12-15", "all")


def headline(root: str | Path = ".") -> dict:
    """Every model's two means and every supervised run's test r (those of this workspace's run:
    :meth:`~sentemb.reporting.workspace.Workspace.evaluated_models`) and every testable claim's verdict code, models in
    name order.

    Raises:
        SentembError: no evaluated model, or a malformed metrics file.
    """
    root = Path(root)
    ws = Workspace(root)
    models = ws.evaluated_models()
    if not models:
        raise SentembError(f"{root / 'metrics' / 'models'}: no model evaluated in this workspace")
    out = {}
    for name in models:
        metrics = ws.metrics(name)
        out[name] = {k: metrics[k]["pearson"] for k in KEYS if k in metrics}
    for name in ws.supervised_runs():
        m = ws.supervised(name)
        try:
            out[f"supervised/{name}"] = {"sts": m["sts"]["test"], "sick": m["sick"]["test"]}
        except (KeyError, TypeError):
            raise SentembError(f"metrics/supervised/{name}.json: expected the test r of the sts and sick "
                               "tasks") from None
    for path in sorted((root / "metrics" / "claims").glob("*.json")):
        try:
            claims = read_json(path, "missing")["claims"]
            out[f"claims/{path.stem}"] = {c["key"]: c["verdict_code"] for c in claims if c["verdict_code"] is not None}
        except (KeyError, TypeError):
            raise SentembError(f"{path}: expected a claims ledger (claims: key, verdict_code)") from None
    return out
