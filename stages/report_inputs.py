"""report-inputs: what the reports read of DVC's cache, written small into git → reports/inputs/ (params
``report.inputs``): every evaluated model's record, the per-pair scores of the models a report tests pair by pair, every
supervised run's test predictions, the word norms of Siamese CBOW (sentemb.reporting.inputs). With it committed, a
report or a claim changes on a fresh clone without the full run's cache."""

from pathlib import Path

from _common import params, run

from sentemb.reporting.inputs import ReportInputsConfig, write_report_inputs


def main() -> None:
    config = params("report.inputs", ReportInputsConfig)
    counts = write_report_inputs(Path("."), Path("reports/inputs"), config.pair_scores, config.word_norms)
    print("report-inputs: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + " → reports/inputs/")


if __name__ == "__main__":
    run(main)
