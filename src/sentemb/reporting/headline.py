"""The headline: the figures a review compares, in one small DVC metrics file (``metrics/headline.json``).

Per evaluated model (``metrics/models/MODEL.json``): Pearson ×100 averaged over STS 2012-2015 (``STS12-15``, Kenter
et al.'s 19 staged sets) and over every evaluated dataset (``all``); per supervised run
(``metrics/supervised/MODEL-SETTING.json``): the test r ×100 on STS and SICK. A model or run trained under several
seeds (its ``-seedS`` runs) is one row: each figure its mean over the seeds, with ``FIGURE sd`` (the standard
deviation, ddof 1) and ``seeds`` beside it, so that an experiment's change can be read against the seeds' spread.
Per paper (``metrics/claims/PAPER.json``) each testable claim's verdict as a number (1 reproduced, 0 inconclusive, −1
contradicted), so that ``dvc metrics diff`` shows a verdict that flips. Every detailed file stays a plain output,
so that ``dvc metrics diff`` and ``dvc exp show`` print these and nothing wider.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sentemb.core.atomic import read_json
from sentemb.core.errors import SentembError
from sentemb.reporting.workspace import Workspace, base_name

KEYS = ("STS12-15", "all")


def over_seeds(rows: list[dict[str, float]]) -> dict[str, float]:
    """One row from the rows of a model's runs over seeds: each figure's mean, and with several runs its ``sd`` and
    ``seeds``."""
    if len(rows) == 1:
        return rows[0]
    out: dict[str, float] = {}
    for k in rows[0]:
        values = np.array([r[k] for r in rows if k in r], dtype=np.float64)
        out[k] = round(float(values.mean()), 4)
        out[f"{k} sd"] = round(float(values.std(ddof=1)), 4)
    return out | {"seeds": len(rows)}


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
    for name in (n for n in models if base_name(n) == n or base_name(n) not in models):  # a seed: its model's row
        out[name] = over_seeds([{k: m[k]["pearson"] for k in KEYS if k in m} for m in map(ws.metrics, ws.seeds(name))])
    supervised = ws.supervised_runs()
    for name in (n for n in supervised if base_name(n) == n or base_name(n) not in supervised):
        rows = []
        for run in ws.supervised_seeds(name):
            m = ws.supervised(run)
            try:
                rows.append({"sts": m["sts"]["test"], "sick": m["sick"]["test"]})
            except (KeyError, TypeError):
                raise SentembError(f"metrics/supervised/{run}.json: expected the test r of the sts and sick "
                                   "tasks") from None
        out[f"supervised/{name}"] = over_seeds(rows)
    for path in sorted((root / "metrics" / "claims").glob("*.json")):
        try:
            claims = read_json(path, "missing")["claims"]
            out[f"claims/{path.stem}"] = {c["key"]: c["verdict_code"] for c in claims if c["verdict_code"] is not None}
        except (KeyError, TypeError):
            raise SentembError(f"{path}: expected a claims ledger (claims: key, verdict_code)") from None
    return out
