"""report@PAPER: one paper's tables and claims beside its published numbers (reference/*.csv), from the evaluated
models (metrics/, results/): kenter2016, bollegala2018, wieting2016 or wieting2017 (params ``report.PAPER``; wieting2017
also ``supervised``) → reports/PAPER.md, its figures reports/figures/PAPER/*.svg and its claims ledger
metrics/claims/PAPER.json (kenter2016 also reports/kenter2016_training_amount.csv)."""

from _common import params, run

from sentemb.core.atomic import atomic_open, write_json
from sentemb.core.errors import SentembError
from sentemb.reporting.bollegala2018 import bollegala2018_report
from sentemb.reporting.claims import ALPHA
from sentemb.reporting.config import Bollegala2018Report, Kenter2016Report, Wieting2016Report, Wieting2017Report
from sentemb.reporting.kenter2016 import kenter2016_report
from sentemb.reporting.wieting2016 import wieting2016_report
from sentemb.reporting.wieting2017 import wieting2017_report
from sentemb.reporting.workspace import Workspace
from sentemb.supervised.config import SupervisedConfig

SCHEMAS = {"kenter2016": Kenter2016Report, "bollegala2018": Bollegala2018Report, "wieting2016": Wieting2016Report,
           "wieting2017": Wieting2017Report}


def main(paper: str) -> None:
    if paper not in SCHEMAS:
        raise SentembError(f"unknown paper {paper!r} (reports: {', '.join(SCHEMAS)})")
    config, ws = params(f"report.{paper}", SCHEMAS[paper]), Workspace()
    if paper == "kenter2016":
        report, curve = kenter2016_report(ws, config)
        with atomic_open("reports/kenter2016_training_amount.csv", newline="") as fh:
            curve.to_csv(fh, index=False)
    elif paper == "bollegala2018":
        report = bollegala2018_report(ws, config)
    elif paper == "wieting2016":
        report = wieting2016_report(ws, config)
    else:
        report = wieting2017_report(ws, config, params("supervised", SupervisedConfig))
    report.write("reports", paper)
    write_json(f"metrics/claims/{paper}.json", {"paper": paper, "alpha": ALPHA, "claims": report.claims})
    print(f"report {paper}: reports/{paper}.md, {len(report.claims)} claims, {len(report.figures)} figures")


if __name__ == "__main__":
    run(main)
