"""report: every model's scores beside Kenter et al.'s Table 1 → reports/ and metrics/summary.json."""

import json
from pathlib import Path

import pandas as pd

from sentemb.atomic import atomic_open, write_json
from sentemb.report import (
    kenter_table,
    mark_significant,
    read_datasets_csv,
    read_kenter_table,
    to_markdown,
    wilcoxon_table,
)

from _common import params, run

NOTE = """\
Pearson's r ×100 ({metric} table: Spearman's ρ ×100 below). "(paper)" = Kenter et al. 2016, Table 1, trained on the
Toronto Book Corpus (74M sentences); ours are trained on the corpus in `metrics/corpus.json`. 2013 SMT is distributed
by LDC only and is absent here, so the first mean is over the 19 sets both have. Kenter et al.'s 2015 scores were
computed with the unscored pairs (empty gold lines) included; we drop those pairs as the official scorer does, so
2015 is not comparable (see reference/README.md). † marks the datasets where Siamese CBOW's per-pair scores differ
from word2vec CBOW's (Wilcoxon signed-rank, p < 0.0001), the test of Kenter et al. §3.3.
"""


def main() -> None:
    p = params("report")
    reference = read_kenter_table("reference/kenter2016_table1.csv")
    ours = {m: read_datasets_csv(f"metrics/{m}.datasets.csv") for m in p.models}
    parts = ["# Results beside Kenter et al. (2016), Table 1\n", NOTE.format(metric="first"), ""]
    significance = None
    if {"siamese_cbow", "word2vec-cbow"} <= set(p.models):
        significance = wilcoxon_table(*(pd.read_csv(f"results/{m}/pair_scores.tsv", sep="\t")
                                        for m in ("siamese_cbow", "word2vec-cbow")))
    for metric in ("pearson", "spearman"):
        table = kenter_table(ours, reference, metric)
        if significance is not None:
            table = mark_significant(table, significance, "siamese_cbow")
        parts += [f"## {metric.capitalize()} ×100\n", to_markdown(table), ""]
    corpus = json.loads(Path("metrics/corpus.json").read_text())
    parts += ["## Training corpus\n", "| " + " | ".join(corpus) + " |", "|" + "---|" * len(corpus),
              "| " + " | ".join(str(v) for v in corpus.values()) + " |", ""]
    with atomic_open("reports/kenter2016_table1.md") as fh:
        fh.write("\n".join(parts))
    summary = {m: json.loads(Path(f"metrics/{m}.json").read_text()) for m in p.models}
    write_json("metrics/summary.json", {m: {k: (v["pearson"] if isinstance(v, dict) else v) for k, v in s.items()}
                                        for m, s in summary.items()})
    print(to_markdown(kenter_table(ours, reference).tail(3)))


if __name__ == "__main__":
    run(main)
