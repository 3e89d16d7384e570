"""The report of Wieting & Gimpel 2017 (GRAN, LSTMAVG): Tables 1-3 of the transfer setting beside ours, and the
supervised STS and SICK results of §4.3 (Tables 5, 6 and 8) with Williams' test on the pooled test splits."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sentemb.core.errors import SentembError
from sentemb.reporting.claims import ALPHA, LEVEL_MARGIN, SEEDS_NOTE, ClaimsBlock, claim, not_testable
from sentemb.reporting.config import Wieting2017Report
from sentemb.reporting.figures import Report, dataset_bars, report_with_figures
from sentemb.reporting.significance import seeds_and_pairs_bootstrap, williams_table, zou_interval
from sentemb.reporting.tables import gaps_section, read_reference, to_markdown
from sentemb.reporting.transfer import (
    baselines_line,
    beats_claims,
    dataset_table,
    evaluation_sets,
    model_rows,
    pairs_section,
    paper_model_name,
    regularization,
    sets_note,
    training_section,
    transfer_figures,
)
from sentemb.reporting.workspace import Workspace
from sentemb.supervised.config import SETTINGS, SupervisedConfig, transfer_model
from sentemb.supervised.data import DATASETS


def read_gran_tables(path: str | Path) -> pd.DataFrame:
    """Wieting & Gimpel 2017 Tables 1-3 (transfer setting) as rows (table, model, training_data, regularization,
    selection, value), mean Pearson ×100 over their 22 sets; selection is ``test`` (STS 2016) or ``oracle``.

    Raises:
        SentembError: a missing file or missing columns.
    """
    df = read_reference(path, {"table", "model", "training_data", "regularization", "selection", "value"},
                         "Wieting & Gimpel 2017, Tables 1-3")
    df = df[df["table"].isin([1, 2, 3])].copy()
    df["selection"] = df["selection"].str.replace("test(STS2016)", "test", regex=False)
    df["regularization"] = df["regularization"].fillna("none")
    return df


def gran_paper_values(reference: pd.DataFrame, model: str, reg: str) -> dict:
    """The published test- and oracle-mode means for a model and regularisation (SimpWiki training); where the paper
    has no row for that regularisation, its unregularised SimpWiki row (Table 1) and the label it was found under."""
    rows = reference[(reference["model"] == model) & (reference["training_data"] == "SimpWiki")]
    exact = rows[rows["regularization"] == reg]
    use = exact if len(exact) else rows[rows["regularization"] == "none"]
    out = {"paper regularization": (use["regularization"].iloc[0] if len(use) else "—")}
    for mode in ("test", "oracle"):
        v = use[use["selection"] == mode]["value"]
        out[f"paper {mode}"] = float(v.iloc[0]) if len(v) else float("nan")
    ppdb = reference[(reference["model"] == model) & (reference["training_data"] == "PPDB")]["value"]
    out["paper PPDB test"] = float(ppdb.iloc[0]) if len(ppdb) else float("nan")
    return out

DATA_NOTE = """\
Training data differ. The paper trained on SimpWiki (167,689 simple/standard Wikipedia sentence pairs) or PPDB XL
phrase pairs, from PARAGRAM-SL999 vectors (PPDB XL lexical pairs from GloVe 840B, SimLex-999 ≈ 0.68). Neither corpus
could be staged; ours are the {pairs} positive sentence pairs of `metrics/pairs.json` (Twitter URL corpus, MSRP,
TurkCorpus, see below), from our PARAGRAM vectors (`paraphrastic@paragram`: PPDB XL lexical pairs from our GloVe).
Where the paper has no row for our regularisation, its unregularised SimpWiki row is shown and named. The paper chose
every negative by MAX.
"""

# the comparisons of Tables 1-3, each with the paper's test-mode SimpWiki rows that match our runs' regularisation:
# (key, A, its regularisation, B, its regularisation, the paper's direction, the claim). Our LSTM is regularised (word
# dropout and scrambling), so it is set beside the paper's regularised LSTM (dropout and scrambling, its best), not its
# unregularised one (59.3): with regularisation the paper has LSTMAVG and the LSTM level.
TRANSFER_CLAIMS = (
    ("lstmavg-level-regularised-lstm", "LSTMAVG", "dropout, scrambling", "LSTM", "dropout, scrambling", "level",
     "with regularisation, LSTMAVG does not beat the LSTM"),
    ("gran-beats-avg", "GRAN", "dropout, scrambling", "AVG", "none", "better", "GRAN beats AVG"),
    ("gran-beats-lstmavg", "GRAN", "dropout, scrambling", "LSTMAVG", "dropout, scrambling", "better",
     "GRAN beats LSTMAVG"),
    ("gran-beats-lstm", "GRAN", "dropout, scrambling", "LSTM", "dropout, scrambling", "better",
     "GRAN beats the LSTM"))
# §4.2, Table 4: "both the LSTMAVG and GRAN significantly outperform AVG in the datasets focused on comparing glosses
# like OnWN and FNWN"
GLOSS_SETS = ("STS12.OnWN", "STS13.OnWN", "STS13.FNWN", "STS14.OnWN")
# the paper's claims the project cannot test yet: (key, source, claim, the paper's figures, why)
NOT_TESTABLE = (
    ("lstmavg-beats-lstm-unregularised", "Table 1", "without regularisation, averaging the LSTM's hidden states "
     "(LSTMAVG) beats its last state (LSTM)", "67.5 vs 59.3 (SimpWiki, test mode)",
     "the unregularised LSTM and LSTMAVG are not staged yet"),
    ("regularisation-helps-lstm", "Table 2", "dropout and scrambling improve the LSTM, letting it overtake AVG",
     "68.4 vs 59.3 without", "the unregularised LSTM is not staged yet"),
    ("dropout-does-not-help-avg", "Table 2", "neither kind of dropout improves AVG", "its Table 2 rows",
     "AVG with dropout is not staged yet"),
    ("gran-beats-its-variants", "Tables 3 and 6", "the GRAN beats GRAN-2…5 in transfer and supervised",
     "its Tables 3 and 6", "GRAN-2…5 are not staged yet (`-S paraphrastic.para-gran.variant=3` builds one)"),
)


def transfer_part(ws: Workspace, config: Wieting2017Report) -> tuple[list[str], dict[str, tuple[str, str]]]:
    """Tables 1-3 of the transfer setting, per dataset, training pairs and length, and the claims; the figures."""
    reference = read_gran_tables(ws.reference("gran2017_tables.csv"))
    sets = evaluation_sets(ws, config.models)
    per_set = dataset_table(ws, config.models, config.baselines, sets)
    rows, times = model_rows(ws, config.models, per_set)
    rows = [r | gran_paper_values(reference, r["model"], r["regularization"]) for r in rows]
    ours = {r["model"]: r["ours"].strip("`") for r in rows}
    spec = []
    for key, a, reg_a, b, reg_b, expects, statement in TRANSFER_CLAIMS:
        if a in ours and b in ours:
            pa, pb = (gran_paper_values(reference, m, reg)["paper test"] for m, reg in ((a, reg_a), (b, reg_b)))
            spec.append((key, ours[a], ours[b], "Tables 1-3", f"{statement} in transfer",
                         f"{a} ({reg_a}) {pa:.1f} vs {b} ({reg_b}) {pb:.1f}, test mode", expects, pa - pb))
    if "GRAN" in ours:  # "improves upon both AVG and LSTMs": against what scores without training on pairs too
        spec += [(f"gran-beats-control-{c}", ours["GRAN"], c, "§1", f"GRAN beats the training-free control `{c}` in "
                  "transfer", "its gains over AVG (a control the paper did not run)", "better", None)
                 for c in config.controls if ws.evaluated(c)]
    figures = transfer_figures(ws, config.models, per_set)
    return ["# Results beside Wieting & Gimpel 2017\n", "## Transfer setting (Tables 1-3)\n", sets_note(sets),
            DATA_NOTE.format(pairs=ws.json("metrics/pairs.json")["total"]["kept"]),
            "### Tables 1-3 layout: mean Pearson ×100, test and oracle selection\n", to_markdown(pd.DataFrame(rows)),
            "", baselines_line(per_set, config.baselines),
            "### Per dataset (Pearson ×100; the selected checkpoint of each model)\n", to_markdown(per_set), "",
            *pairs_section(ws), *training_section(times),
            *gaps_section([{"what": f"{r['model']} ({r['regularization']}; the paper's {r['paper regularization']} "
                                    "row), test mode", "ours": r["test"], "paper": r["paper test"], "control": ""}
                           for r in rows if not np.isnan(r["paper test"])], "Wieting & Gimpel's Tables 1-3", "###"),
            "### Claims of Wieting & Gimpel 2017 (transfer), on our runs\n",
            f"Judged on the {len(sets)} staged evaluation sets by a two-sided Wilcoxon signed-rank test over the "
            "per-dataset Pearson r, test selection (the effect: the difference of the means, with its 95% BCa "
            "bootstrap interval over the sets), a level claim by two one-sided Wilcoxon tests against "
            f"±{LEVEL_MARGIN:g} point (TOST); the gloss claims by Williams' test on the gloss sets' pairs pooled. "
            "Every p of this report is Holm-adjusted over all its claims, transfer and supervised "
            f"(α = {ALPHA}); each line says whether the paper's own effect lies inside our interval. " + SEEDS_NOTE
            + "\n",
            ClaimsBlock([*beats_claims(ws, [*config.models, *config.controls], spec, sets),
                         *[gloss_claim(ws, ours[a], ours["AVG"], a) for a in ("LSTMAVG", "GRAN")
                           if a in ours and "AVG" in ours],
                         not_testable(
                "simpwiki-beats-ppdb", "Table 1", "training on SimpWiki beats training on PPDB",
                "AVG 68.4 vs 67.7, LSTMAVG 67.5 vs 64.2, test mode",
                "neither SimpWiki nor the PPDB phrase pairs are staged; every model here trains on the same pairs"),
                         *[not_testable(*c) for c in NOT_TESTABLE]])
            ], figures


def gloss_claim(ws: Workspace, a: str, b: str, name: str) -> dict:
    """§4.2: ``a`` (LSTMAVG or GRAN) beats AVG ``b`` on the gloss sets (:data:`GLOSS_SETS`): Williams' test on their
    pairs pooled (all on STS's 0-5 scale), with Zou's interval."""
    def pooled(model: str) -> pd.DataFrame:
        df = ws.pair_scores(model)
        df = df[(df["group"] + "." + df["dataset"]).isin(GLOSS_SETS)].sort_values(["group", "dataset", "pair"])
        return pd.DataFrame({"group": "gloss", "dataset": "pooled", "pair": range(len(df)),
                             "gold": df["gold"].to_numpy(), "score": df["score"].to_numpy()})
    w = williams_pooled(pooled(a), pooled(b)) | {"runs_a": [a], "runs_b": [b]}
    return williams_claim(f"{name.lower()}-beats-avg-on-glosses", "§4.2, Table 4", f"{name} beats AVG on the "
                          f"gloss sets ({', '.join(GLOSS_SETS)})", "\"significantly outperform\" (Table 4's rows)", w,
                          pool="pooled gloss-set")


def read_supervised_reference(ws: Workspace) -> pd.DataFrame:
    """Rows of Tables 6 and 8 of reference/gran2017_tables.csv: model, regularization, dataset (STS, SICK), value
    (Pearson ×100).

    Raises:
        SentembError: a missing file or column.
    """
    df = read_reference(ws.reference("gran2017_tables.csv"), {"table", "model", "regularization", "metric", "value"},
                        "Wieting & Gimpel 2017, Tables 6 and 8")
    df = df[df["table"].isin([6, 8])].copy()
    df["regularization"] = df["regularization"].fillna("")
    df["dataset"] = df["metric"].map({"sts_pearson_x100": "STS", "sick_pearson_x100": "SICK"})
    return df


def paper_value(ref: pd.DataFrame, table: int, model: str, reg: str, dataset: str) -> float:
    rows = ref[(ref["table"] == table) & (ref["model"] == model) & (ref["regularization"] == reg)
               & (ref["dataset"] == dataset)]["value"]
    return float(rows.iloc[0]) if len(rows) else float("nan")


def predictions(ws: Workspace, name: str, task: str) -> pd.DataFrame:
    """A supervised run's test predictions as williams_table's frame (group, dataset, pair, gold, score)."""
    df = ws.supervised_predictions(name, task)
    return pd.DataFrame({"group": DATASETS[task], "dataset": "test", "pair": range(len(df)),
                         "gold": df["gold"].astype(float), "score": df["prediction"].astype(float)})


def test_r(ws: Workspace, name: str, task: str) -> float:
    """Pearson's r ×100 on the pooled test split, from the stage's full-precision predictions: the value the Williams
    test uses (metrics/supervised/NAME.json keeps 3 decimals, and rounding that again to 2 could differ by 0.01)."""
    df = predictions(ws, name, task)
    return float(np.corrcoef(df["gold"], df["score"])[0, 1]) * 100  # as williams_table computes r_a and r_b


def williams(ws: Workspace, a: str, b: str, task: str) -> dict:
    """Williams' test of run a against b on a task's pooled test split: r_a, r_b (×100), t, two-sided p, and the 95%
    interval of r_a − r_b (×100, :func:`~sentemb.reporting.significance.zou_interval`)."""
    return williams_pooled(predictions(ws, a, task), predictions(ws, b, task))


def williams_pooled(pa: pd.DataFrame, pb: pd.DataFrame) -> dict:
    """Williams' test of ``pa`` against ``pb`` (williams_table's frames, one group and dataset) on all their pairs:
    r_a, r_b (×100), t, two-sided p, and the 95% interval of r_a − r_b (×100,
    :func:`~sentemb.reporting.significance.zou_interval`)."""
    w = williams_table(pa, pb).iloc[0].to_dict()
    r_ab = float(np.corrcoef(pa["score"], pb["score"])[0, 1])
    w["ci95"] = [v * 100 for v in zou_interval(w["r_a"] / 100, w["r_b"] / 100, r_ab, int(w["pairs"]))]
    return w


def williams_claim(key: str, source: str, statement: str, paper: str, w: dict, paper_effect: float | None = None,
                   pool: str = "test") -> dict:
    """The claim that run a beats run b, judged by Williams' test ``w`` on ``pool`` pairs, or, where ``w`` comes from
    :func:`supervised_test` over several training seeds, by its bootstrap over seeds and pairs; ``paper_effect``: the
    paper's A − B."""
    seeds = {w["runs_a"][0]: w["runs_a"], w["runs_b"][0]: w["runs_b"]} if "runs_a" in w else None
    if "t" not in w:
        return claim(key, source, statement, paper,
                     f"{w['r_a']:.2f} vs {w['r_b']:.2f} Pearson ×100 on {int(w['pairs'])} {pool} pairs, the mean over "
                     f"{len(w['runs_a'])} and {len(w['runs_b'])} training seeds", effect=w["r_a"] - w["r_b"],
                     ci95=w["ci95"], p=w["p"], paper_effect=paper_effect, seeds=seeds, seed_effects=w["seed_effects"],
                     test="bootstrap over training seeds and test pairs (4,000 resamples: the pairs, and each model's "
                          "runs, drawn with replacement), two-sided; its 95% percentile interval of the difference")
    return claim(key, source, statement, paper,
                 f"{w['r_a']:.2f} vs {w['r_b']:.2f} Pearson ×100 on {int(w['pairs'])} {pool} pairs, Williams' t = "
                 f"{w['t']:.2f}", effect=w["r_a"] - w["r_b"], ci95=w["ci95"], p=w["p"], paper_effect=paper_effect,
                 seeds=seeds, test="Williams' t for dependent correlations with gold in common (Steiger 1980), "
                                   "two-sided; Zou's (2007) 95% interval of the difference")


def supervised_test(ws: Workspace, a: str, b: str, task: str) -> dict:
    """Run a against run b on a task's pooled test split over their training seeds (:meth:`Workspace.supervised_seeds`):
    Williams' test (:func:`williams`) when each has one run, else
    :func:`~sentemb.reporting.significance.seeds_and_pairs_bootstrap`; with ``runs_a`` and ``runs_b``."""
    runs_a, runs_b = ws.supervised_seeds(a), ws.supervised_seeds(b)
    if len(runs_a) == 1 and len(runs_b) == 1:
        return williams(ws, a, b, task) | {"runs_a": runs_a, "runs_b": runs_b}
    pa, pb = ([predictions(ws, r, task) for r in runs] for runs in (runs_a, runs_b))
    return seeds_and_pairs_bootstrap(pa[0]["gold"].to_numpy(), np.stack([p["score"].to_numpy() for p in pa]),
                                     np.stack([p["score"].to_numpy() for p in pb])) | {"runs_a": runs_a,
                                                                                         "runs_b": runs_b}


def supervised_part(ws: Workspace, supervised: SupervisedConfig) -> list[str]:
    """§4.3: Tables 5, 6 and 8 layouts, Williams' test of each setting against random initialisation, the claims
    (those of the models and settings that ``supervised`` lists: a comparison with a setting not run is left out)."""
    models, training = supervised.models, supervised.training
    settings = {s: supervised.settings[s] for s in SETTINGS if s in supervised.settings}
    counts = ws.json("metrics/supervised-data.json")
    ref = read_supervised_reference(ws)
    metrics = {(m, s): ws.supervised(f"{m}-{s}") for m in models for s in settings}
    names, regs = {}, {}
    for m, spec in models.items():
        composition = ws.model(transfer_model(m)).get("composition")
        if composition is None:
            raise SentembError(f"results/{transfer_model(m)}/model.json: supervised.models.{m} needs "
                               f"{transfer_model(m)} to be a paraphrastic sentence encoder")
        names[m] = paper_model_name(composition["encoder"], {k: v for k, v in composition.items()
                                                             if k not in ("encoder", "dropout", "word_dropout")})
        regs[m] = regularization(spec.dropout, spec.word_dropout, spec.scramble)
    seeds = {(m, s): ws.supervised_seeds(f"{m}-{s}") for m in models for s in settings}
    per_seed = {(m, s, d): [test_r(ws, run, d) for run in seeds[(m, s)]] for m in models for s in settings
                for d in DATASETS}
    r = {k: float(np.mean(v)) for k, v in per_seed.items()}  # the mean over the training seeds
    table5 = []
    for m in models if "random" in settings else []:
        paper = {d: paper_value(ref, 8, names[m], regs[m], d) for d in DATASETS.values()}
        sts, sick = r[(m, "random", "sts")], r[(m, "random", "sick")]
        table5.append({"model": names[m], "ours": f"`supervise@{m}-random`", "regularization": regs[m],
                       "STS": sts, "SICK": sick, "avg.": (sts + sick) / 2, "paper STS": paper["STS"],
                       "paper SICK": paper["SICK"], "paper avg.": (paper["STS"] + paper["SICK"]) / 2})
    table6 = [{"model": names[m], "ours STS": r[(m, "random", "sts")], "ours SICK": r[(m, "random", "sick")],
               "paper STS": paper_value(ref, 6, names[m], "", "STS"),
               "paper SICK": paper_value(ref, 6, names[m], "", "SICK")}
              for m in models if names[m].startswith(("GRAN", "BiGRAN")) and "random" in settings]
    table8, tests, claims = [], [], []
    for m in models:
        for s in settings:
            got = metrics[(m, s)]
            label = regs[m] + (", universal" if s == "universal" else "")
            published = s != "initialised"  # the paper has no row for initialisation without the pull back
            table8.append({"model": names[m], "setting": s, "regularization": label,
                           "STS": r[(m, s, "sts")], "SICK": r[(m, s, "sick")], "seeds": len(seeds[(m, s)]),
                           "STS sd": np.std(per_seed[(m, s, "sts")], ddof=1) if len(seeds[(m, s)]) > 1 else None,
                           "SICK sd": np.std(per_seed[(m, s, "sick")], ddof=1) if len(seeds[(m, s)]) > 1 else None,
                           "paper STS": paper_value(ref, 8, names[m], label, "STS") if published else None,
                           "paper SICK": paper_value(ref, 8, names[m], label, "SICK") if published else None,
                           "STS oracle": got["sts"]["oracle"], "SICK oracle": got["sick"]["oracle"],
                           "selected epoch STS / SICK": f"{got['sts']['selected_epoch']:g} / "
                                                        f"{got['sick']['selected_epoch']:g}"})
        for s in [s for s in ("universal", "initialised") if s in settings and "random" in settings]:
            for d, label in DATASETS.items():
                w = williams(ws, f"{m}-{s}", f"{m}-random", d)
                tests.append({"model": names[m], "A": s, "B": "random", "dataset": label, "pairs": int(w["pairs"]),
                              "r A": w["r_a"], "r B": w["r_b"], "t": w["t"], "p": f"{w['p']:.2g}"})
                if s == "universal":
                    paper = {d2: paper_value(ref, 8, names[m], f"{regs[m]}{x}", label)
                             for d2, x in (("universal", ", universal"), ("random", ""))}
                    claims.append(williams_claim(
                        f"{m}-universal-beats-random-{d}", "Table 8", f"{names[m]}: initialising from and "
                        f"regularising to the transfer model beats random initialisation on {label}",
                        f"{paper['universal']:.1f} vs {paper['random']:.1f}",
                        supervised_test(ws, f"{m}-{s}", f"{m}-random", d),
                        paper_effect=paper["universal"] - paper["random"]))
    gran = next((m for m in models if names[m] == "GRAN"), None) if "random" in settings else None
    for d, label in DATASETS.items():
        for other in models if gran is not None else []:
            if other != gran:
                pg, po = (paper_value(ref, 8, names[m], regs[m], label) for m in (gran, other))
                claims.append(williams_claim(
                    f"gran-beats-{other}-supervised-{d}", "Table 5; figures of Table 8", f"GRAN beats "
                    f"{names[other]} in supervised training on {label}", f"{pg:.1f} vs {po:.1f} (Table 8's rows "
                    "of our regularisation)", supervised_test(ws, f"{gran}-random", f"{other}-random", d),
                    paper_effect=pg - po))
    times = [{"stage": f"`supervise@{m}-{s}`", "dataset": DATASETS[d], "train pairs": metrics[(m, s)][d]["train"],
              "words": metrics[(m, s)][d]["words"], "selected epoch": metrics[(m, s)][d]["selected_epoch"],
              "device": metrics[(m, s)][d]["device"]}
             for m in models for s in settings for d in DATASETS]
    split_line = ", ".join(f"{DATASETS[d]}: " + " / ".join(f"{c[s]['pairs']:,}" for s in ("train", "dev", "test"))
                           for d, c in counts.items() if d in DATASETS)
    lam = "; ".join(f"{s}: λw {v.lambda_w:g}, λc {v.lambda_c:g}" for s, v in settings.items())
    every = "every epoch" if training.evals_per_epoch == 1 else f"every 1/{training.evals_per_epoch} epoch"
    note = (
        f"Pearson's r ×100 of ŷ = rᵀp̂ with the gold score on the **pooled test split** of each dataset, at the "
        f"checkpoint with the best dev r (a checkpoint {every}, {training.epochs} epochs, Adam at lr {training.lr:g}, "
        f"mini-batches of {training.batch_size} pairs, h_s of {training.hidden} units; the \"oracle\" columns take the "
        "best test r of any checkpoint). Tai et al.'s head and KL loss (`src/sentemb/supervised/`); STS's gold "
        "[0, 5] is shifted onto [1, 6] (K = 6), SICK's [1, 5] is kept (K = 5).\n\n"
        f"Splits (train / dev / test pairs): {split_line}. The paper's STS split is 4,481 / 1,207 / 6,060 over 20 "
        "sets (2013 SMT is LDC-only: we have 19), its SICK split the same as ours. No test sentence occurs in the "
        "paraphrastic training pairs (`metrics/supervised-data.json`).\n\n"
        "Settings (Table 8): **random**: the composition freshly initialised over our PARAGRAM word vectors; "
        "**initialised**: every parameter from the transfer model (`paraphrastic@para-…`); **universal**: initialised "
        f"so and pulled back to it. L2 weights, not tuned (the paper tuned λw over {{1e-5, 0}}): {lam}. At these "
        "weights the pull back is weak, so universal and initialised differ mostly by training noise. Our transfer "
        "models were trained on our Twitter URL, MSRP and TurkCorpus pairs, not on SimpWiki.\n"
    )
    parts = ["## Supervised STS and SICK (§4.3, Tables 5, 6 and 8)\n", note]
    if table5:
        best = {d: max(models, key=lambda m, d=d: metrics[(m, "random")][d]["test"]) for d in DATASETS}
        parts += ["### Table 5 layout: supervised training from random initialisation\n",
                  "The paper's Table 5 cells are not in the reference file; its Table 8 rows with the same "
                  "regularisation (the same runs) are shown.\n", to_markdown(pd.DataFrame(table5).round(2)), "",
                  f"Best from random initialisation: STS `{best['sts']}`, SICK `{best['sick']}`.\n"]
    if table6:
        parts += ["### Table 6 layout: the GRAN architectures\n",
                  "Only the configured GRAN variant is staged; the others are a switch away "
                  "(`-S paraphrastic.para-gran.variant=N` changes the transfer model and its supervised stages).\n",
                  to_markdown(pd.DataFrame(table6).round(2)), ""]
    parts += ["### Table 8 layout: initialising from (and regularising to) the transfer model\n",
              "STS and SICK: the mean test r over the run's training seeds (`seeds`; sd: their standard deviation); "
              "the oracle and the selected epoch: the run under `supervised.training.seed`.\n",
              to_markdown(pd.DataFrame(table8).round(2)), ""]
    parts += gaps_section([{"what": f"{row['model']} {row['setting']}, {d}", "ours": row[d], "paper": row[f"paper {d}"],
                            "control": ""} for row in table8 for d in ("STS", "SICK")
                           if row[f"paper {d}"] is not None and not np.isnan(row[f"paper {d}"])],
                          "Wieting & Gimpel's Table 8", "###")
    if tests:
        parts += ["### Williams' test: each setting against random initialisation\n",
                  "Dependent correlations with gold in common (Steiger 1980, Eq. 7), on the pooled test split; p "
                  "two-sided.\n", to_markdown(pd.DataFrame(tests).round(2)), ""]
    parts += ["### Training data (clock times: `logs/timings/supervised/NAME.json`, outside the files DVC hashes)\n",
              to_markdown(pd.DataFrame(times)), "",
              "### Claims of Wieting & Gimpel 2017 (supervised), on our runs\n",
              "A run trained under one seed is tested by Williams' test on the pooled test split (it holds the two "
              "trained models fixed: it counts the sampling of the test pairs, not the spread between training runs); "
              "a run with several training seeds (`supervise-seed@`, `pipeline.supervised_seeds`) by a bootstrap over "
              "its seeds and the test pairs together, the effect the difference of the seeds' mean r ×100, and the "
              "verdict holds only when every pair of seeds points its way. Two-sided, each p Holm-adjusted over all "
              f"this report's claims (α = {ALPHA}).\n", ClaimsBlock(claims)]
    return parts


def supervised_figure(ws: Workspace, supervised: SupervisedConfig) -> tuple[str, str]:
    """(caption, SVG): the test r of every supervised run on STS and SICK."""
    runs = [f"{m}-{s}" for m in supervised.models for s in SETTINGS if s in supervised.settings]
    scores = pd.DataFrame({DATASETS[d]: {run: test_r(ws, run, d) for run in runs} for d in DATASETS})
    return "Supervised test r of every run", dataset_bars(scores, "Supervised: test Pearson r × 100, pooled test split")


def wieting2017_report(ws: Workspace, config: Wieting2017Report, supervised: SupervisedConfig) -> Report:
    """``reports/wieting2017.md`` with its figures: the transfer setting and the supervised setting.

    Raises:
        SentembError: a missing output or reference file, naming it.
    """
    transfer, drawn = transfer_part(ws, config)
    return report_with_figures("wieting2017", [*transfer, *supervised_part(ws, supervised)],
                               drawn | {"supervised.svg": supervised_figure(ws, supervised)})
