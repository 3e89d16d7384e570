"""What the two reports of the paraphrastic papers share (Wieting et al. 2016; Wieting & Gimpel 2017, transfer
setting): the evaluation sets, each model's name and regularisation as the papers write them (from the saved
model's record, so the report names what was trained), the per-dataset table, the training pairs, the training
length and the claims "A beats B"."""

from __future__ import annotations

import pandas as pd

from sentemb.papers.wieting2017 import GRAN_GROUPS
from sentemb.reporting.claims import comparison_claim
from sentemb.reporting.figures import curves, dataset_bars
from sentemb.reporting.significance import paired_over_datasets
from sentemb.reporting.tables import to_markdown
from sentemb.reporting.workspace import Workspace

# --- Wieting & Gimpel 2017 (GRAN) -------------------------------------------------------------------------------


def paper_model_name(encoder: str, args: dict) -> str:
    """The name Wieting et al. give a configuration: AVG, PROJ, DAN, RNN, iRNN, LSTM, LSTM (no o.g.), LSTMAVG,
    BiLSTMAVG, GRAN, GRAN-2 … GRAN-5, BiGRAN."""
    bi = "Bi" if args.get("bidirectional") else ""
    if encoder == "rnn":
        return "iRNN" if args.get("activation") == "identity" else "RNN"
    if encoder == "lstm":
        return bi + "LSTM" + ("" if args.get("output_gate", True) else " (no o.g.)")
    if encoder == "lstmavg":
        return bi + "LSTMAVG"
    if encoder == "gran":
        v = int(args.get("variant", 1))
        return bi + "GRAN" + (f"-{v}" if v > 1 else "")
    return encoder.upper()


def regularization(dropout: float, word_dropout: float, scramble: float) -> str:
    """Wieting & Gimpel's label for a regularisation setting: "none", "dropout", "word dropout", "scrambling",
    "dropout, scrambling" …"""
    parts = [n for n, on in (("dropout", dropout > 0), ("word dropout", word_dropout > 0),
                             ("scrambling", scramble > 0)) if on]
    return ", ".join(parts) or "none"


def gran_dataset_table(ours: dict[str, pd.DataFrame], sets: list[str]) -> pd.DataFrame:
    """A row per evaluation set (``group.dataset``) and a column per model: Pearson ×100, with the mean row."""
    table = pd.DataFrame({"set": sets})
    for name, df in ours.items():
        table[name] = table["set"].map(dict(zip(df["set"], df["pearson"], strict=True)))
    mean = {"set": f"mean ({len(sets)} sets)"} | {n: table[n].mean() for n in ours}
    return pd.concat([table, pd.DataFrame([mean])], ignore_index=True).round(2)

SETS_NOTE = """\
Mean Pearson's r ×100 over the evaluation sets of Wieting & Gimpel 2017: the 20 STS 2012-2015 sets, SICK test and the
SemEval 2015 Twitter task (PIT-2015 test, graded labels). 2013 SMT is distributed by LDC only, so our means are over
{n} sets and the paper's over 22. "test" selects the checkpoint by the mean over the five STS 2016 sets (the paper's
"test" mode; the model `evaluate-paraphrastic@MODEL` scores), "oracle" by the 22-set mean itself, both among the
checkpoints taken every 1/`evals_per_epoch` of an epoch.
"""


def evaluation_sets(ws: Workspace, models: list[str]) -> list[str]:
    """The sets of Wieting & Gimpel's 22 (21 staged) that the models were evaluated on (``group.dataset``)."""
    first = ws.datasets(models[0])
    return first[first["group"].isin(GRAN_GROUPS)]["set"].tolist()


def sets_note(sets: list[str]) -> str:
    return SETS_NOTE.format(n=len(sets)) + (
        "" if len(sets) == 21 else f"\nOnly {len(sets)} of the sets were evaluated (`evaluate.benchmarks`): the test "
        "column averages those, the oracle column the 21 of the selection data.\n")


def paper_name(ws: Workspace, model: str) -> tuple[str, str]:
    """A paraphrastic model's name and regularisation label as the papers write them (``GRAN``, ``dropout,
    scrambling``), from the saved model's composition and training settings."""
    composition = ws.model(model)["composition"]
    config = ws.training(model)["config"]
    args = {k: v for k, v in composition.items() if k not in ("encoder", "dropout", "word_dropout")}
    return (paper_model_name(composition["encoder"], args),
            regularization(composition["dropout"], composition["word_dropout"], config["scramble"]))


def model_rows(ws: Workspace, models: list[str], per_set: pd.DataFrame) -> tuple[list[dict], list[dict]]:
    """For each model: its row of the results table (name, regularisation, negatives, test mean, oracle mean) and of
    the training table (device, epochs, selected and oracle epoch)."""
    rows, times = [], []
    for m in models:
        name, reg = paper_name(ws, m)
        training = ws.training(m)
        log = ws.training_log(m)
        oracle = log.loc[log["GRAN-22"].idxmax()]
        rows.append({"model": name, "ours": f"`{m}`", "regularization": reg,
                     "negatives": training["config"]["negatives"].upper(), "test": per_set[m].iloc[-1],
                     "oracle": round(float(oracle["GRAN-22"]), 2)})
        times.append({"model": f"`{m}`", "device": training["device"], "epochs": training["config"]["epochs"],
                      "selected epoch": training["selected"]["epoch"], "oracle epoch": float(oracle["epoch"])})
    return rows, times


def dataset_table(ws: Workspace, models: list[str], baselines: list[str], sets: list[str]) -> pd.DataFrame:
    """Pearson ×100 per set and model (baselines first), the mean over the sets in the last row."""
    return gran_dataset_table({m: ws.datasets(m) for m in [*baselines, *models]}, sets)


def baselines_line(per_set: pd.DataFrame, baselines: list[str]) -> str:
    return ("Averaged word vectors without training on pairs (test column): "
            + ", ".join(f"`{b}` {per_set[b].iloc[-1]:.2f}" for b in baselines) + ".\n")


def pairs_section(ws: Workspace) -> list[str]:
    """The training pairs: the counts per source (``metrics/pairs.json``) and how they were filtered."""
    pairs = ws.json("metrics/pairs.json")
    src = pd.DataFrame([{"source": k} | v for k, v in pairs["sources"].items()]
                       + [{"source": "total"} | pairs["total"]])
    return ["## Training pairs (the pairs stage)\n",
            "Positives only (negatives come from the mini-batch). Twitter URL: label 1 of the tokenised train set and "
            "raw test pairs with ≥ 4 of 6 paraphrase votes (Lan et al. 2017); MSRP: label 1 of train and test; "
            "TurkCorpus: every (complex, simple) pair. Identical = the two sentences equal up to case and "
            "punctuation; duplicates in either order are dropped; a pair with a sentence found in any STS, SICK, "
            f"STS-B or PIT-2015 file ({pairs['evaluation_sentences']} sentences) is removed. "
            f"PPDB XL lexical: {pairs['ppdb_lexical_pairs']} word pairs for PARAGRAM.\n", to_markdown(src), ""]


def training_section(times: list[dict]) -> list[str]:
    return ["## Training length and selection (`metrics/train/MODEL.csv` has every checkpoint; clock times are in "
            "`logs/timings/MODEL.json`, outside the files DVC hashes)\n", to_markdown(pd.DataFrame(times)), ""]


def on_sets(ws: Workspace, model: str, sets: list[str]) -> pd.Series:
    """Pearson ×100 of a model on ``sets``, indexed by set."""
    d = ws.datasets(model)
    d = d[d["set"].isin(sets)]
    return pd.Series(d["pearson"].to_numpy(), index=d["set"])


def beats_claims(ws: Workspace, models: list[str], spec: list[tuple], sets: list[str]) -> list[dict]:
    """The claim "A beats B" (or "A and B are level") for each ``(key, A, B, source, statement, paper, expects,
    paper_effect)`` of ``spec`` (``paper_effect``: the paper's A − B, or None) whose two models are among ``models``
    (a baseline of the report counts as a model), judged by a Wilcoxon signed-rank test over the per-set Pearson r of
    ``sets`` (:func:`~sentemb.reporting.claims.comparison_claim`)."""
    out = []
    for key, a, b, source, statement, paper, expects, paper_effect in spec:
        if a in models and b in models:
            c = paired_over_datasets({r: on_sets(ws, r, sets) for r in ws.seeds(a)},
                                     {r: on_sets(ws, r, sets) for r in ws.seeds(b)})
            out.append(comparison_claim(key, source, statement, paper, a, b, c, expects, paper_effect=paper_effect))
    return out


def transfer_figures(ws: Workspace, models: list[str], per_set: pd.DataFrame) -> dict[str, tuple[str, str]]:
    """The transfer setting's figures, name → (caption, SVG): Pearson per evaluation set (and the mean) of the
    baselines and models, and each model's STS 2016 selection score at every checkpoint."""
    return {"datasets.svg": ("Pearson r per evaluation set", dataset_bars(
                per_set.set_index("set"), "Transfer: Pearson r × 100 per evaluation set (selected checkpoints)")),
            "selection.svg": ("STS 2016 at every checkpoint", curves(
                {m: ws.training_log(m).set_index("epoch")["STS16"] for m in models},
                "Selection score during training", "epoch", "STS 2016 mean Pearson r × 100", marker="."))}
