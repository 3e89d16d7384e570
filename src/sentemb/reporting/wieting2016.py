"""The report of Wieting, Bansal, Gimpel & Livescu 2016 (Paragram-phrase): the encoders compared in the transfer
setting, AVG (PARAGRAM-PHRASE) against PROJ, DAN, RNN and LSTM, and the paper's claims on our runs."""

from __future__ import annotations

import pandas as pd

from sentemb.reporting.claims import claims_markdown
from sentemb.reporting.config import Wieting2016Report
from sentemb.reporting.figures import Report, report_with_figures
from sentemb.reporting.tables import to_markdown
from sentemb.reporting.transfer import (
    baselines_line,
    beats_claims,
    dataset_table,
    evaluation_sets,
    model_rows,
    pairs_section,
    paper_name,
    sets_note,
    training_section,
    transfer_figures,
)
from sentemb.reporting.workspace import Workspace

DATA_NOTE = """\
Training data differ. The paper trained on PPDB XL phrase pairs, from PARAGRAM-SL999 vectors (Wieting et al. 2015:
PPDB XL lexical pairs from GloVe 840B), and evaluated in transfer on the STS tasks; it reports no 22-set mean, so there
is no paper column here (its tables are not staged in `reference/`). Ours are the {pairs} positive sentence pairs of
`metrics/pairs.json` (Twitter URL corpus, MSRP, TurkCorpus, see below), from our PARAGRAM vectors
(`paraphrastic@paragram`: PPDB XL lexical pairs from our GloVe).
"""


def wieting2016_report(ws: Workspace, config: Wieting2016Report) -> Report:
    """``reports/wieting2016.md`` with its figures.

    Raises:
        SentembError: a missing output file, naming it.
    """
    sets = evaluation_sets(ws, config.models)
    per_set = dataset_table(ws, config.models, config.baselines, sets)
    rows, times = model_rows(ws, config.models, per_set)
    avg, *others = config.models
    spec = [(avg, m, f"Paragram-phrase AVG beats {'the ' if name.startswith(('LSTM', 'RNN')) else ''}{name} "
                     "(Wieting et al. 2016, transfer)")
            for m in others for name in [paper_name(ws, m)[0]]]
    parts = ["# Results beside Wieting et al. 2016 (Paragram-phrase, transfer setting)\n", sets_note(sets),
             DATA_NOTE.format(pairs=ws.json("metrics/pairs.json")["total"]["kept"]),
             "## The encoders: mean Pearson ×100, test and oracle selection\n", to_markdown(pd.DataFrame(rows)), "",
             baselines_line(per_set, config.baselines),
             "## Per dataset (Pearson ×100; the selected checkpoint of each model)\n", to_markdown(per_set), "",
             *pairs_section(ws), *training_section(times),
             "## Claims of Wieting et al. 2016, on our runs\n",
             f"Judged on the {len(sets)} staged evaluation sets by a two-sided Wilcoxon signed-rank test over the "
             "per-dataset Pearson r (α = 0.05), test selection.\n",
             claims_markdown(beats_claims(ws, config.models, spec, sets))]
    return report_with_figures("wieting2016", parts, transfer_figures(ws, config.models, per_set))
