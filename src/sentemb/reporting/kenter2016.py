"""The report of Kenter, Borisov & de Rijke 2016 (Siamese CBOW): Table 1 beside ours, Williams' test per dataset, the
unknown-word treatments, the untrained controls, the training-amount curve, in-batch negatives and the paper's claims.
"""

from __future__ import annotations

import pandas as pd

from sentemb.reporting.claims import ALPHA, ClaimsBlock, comparison_claim, comparison_evidence, not_testable
from sentemb.reporting.config import Kenter2016Report
from sentemb.reporting.figures import Report, curves, dataset_bars, report_with_figures
from sentemb.reporting.significance import paired_over_datasets, wilcoxon_table, williams_table
from sentemb.reporting.tables import kenter_table, mark_significant, read_kenter_table, to_markdown
from sentemb.reporting.workspace import Workspace

KENTER_SETS = ("STS12", "STS13", "STS14", "STS15")

NOTE = """\
Pearson's r ×100 (first table; Spearman's ρ ×100 below). "(paper)" = Kenter et al. 2016, Table 1, trained on the
Toronto Book Corpus (74M sentences); ours are trained on the corpus in `metrics/corpus.json`. 2013 SMT is distributed
by LDC only and is absent here, so the first mean is over the 19 sets both have. Kenter et al.'s 2015 scores were
computed with the unscored pairs (empty gold lines) included; we drop those pairs as the official scorer does, so
2015 is not comparable (see reference/README.md). † marks the datasets where Siamese CBOW's per-pair scores differ
from word2vec CBOW's (Wilcoxon signed-rank, p < 0.0001), the test of Kenter et al. §3.3.
"""


def per_set(ws: Workspace, model: str, groups: tuple[str, ...] = KENTER_SETS) -> pd.Series:
    """Pearson ×100 of a model on the sets of ``groups``, indexed by set (``group.dataset``)."""
    d = ws.datasets(model)
    d = d[d["group"].isin(groups)]
    return pd.Series(d["pearson"].to_numpy(), index=d["set"])


def paper_means(reference: pd.DataFrame) -> dict[str, float]:
    """Each system's mean Pearson ×100 in Table 1 over the sets other than 2013 SMT (absent here)."""
    shared = reference[~((reference["group"] == "STS13") & (reference["dataset"] == "SMT"))]
    return shared.groupby("system")["pearson"].mean().to_dict()


def training_amount_curve(ws: Workspace, models: list[str]) -> pd.DataFrame:
    """STS12-15 against Σ lr, the learning rate summed over the run as the model's training record gives it (0 for
    an untrained model); the table ``reports/kenter2016_training_amount.csv`` plots."""
    rows = []
    for m in models:
        training = ws.training(m)
        rows.append({"model": m, "optimizer": training.get("config", {}).get("optimizer", "none"),
                     "lr_sum": training.get("lr_sum", 0.0), "STS12-15": ws.metrics(m)["STS12-15"]["pearson"]})
    return pd.DataFrame(rows).sort_values("lr_sum", kind="stable")


def williams_per_set(ws: Workspace, a: str, b: str) -> tuple[pd.DataFrame, int, int]:
    """Williams' test of model ``a`` against ``b`` on each of Kenter's sets: the table, and on how many sets ``a`` is
    significantly better (p < 0.05) and significantly worse."""
    w = williams_table(ws.pair_scores(a), ws.pair_scores(b))
    w = w[w["group"].isin(KENTER_SETS)]
    better, worse = int(((w["p"] < 0.05) & (w["t"] > 0)).sum()), int(((w["p"] < 0.05) & (w["t"] < 0)).sum())
    return w, better, worse


def in_batch_evidence(ws: Workspace, model: str) -> list[str]:
    """Siamese CBOW trained with in-batch negatives beside the paper's sampler: Wilcoxon over Kenter's sets and
    Williams' test per set."""
    c = paired_over_datasets(per_set(ws, model), per_set(ws, "siamese_cbow"))
    w, better, worse = williams_per_set(ws, model, "siamese_cbow")
    verdict = "no significant difference" if c["p"] >= 0.05 else "a significant difference"
    return ["## In-batch negatives: the faster sampler beside the paper's\n",
            f"`{model}` is `siamese_cbow` with each centre's negatives drawn from the batch's other tuples, reweighted "
            "to be uniform over the corpus (`model.negatives: batch`, docs/choices.md), where the paper draws them "
            f"from the whole corpus. Over Kenter's {c['datasets']} sets: {verdict} "
            f"({comparison_evidence('in-batch', 'corpus', c)}); Williams' t per set: in-batch significantly better "
            f"(p < 0.05) on {better} of {len(w)} sets, significantly worse on {worse}.\n"]


def evidence(ws: Workspace, config: Kenter2016Report, paper: dict[str, float]) -> tuple[list[str], pd.DataFrame]:
    """Williams' test per dataset, the unknown-word treatments, the controls, the training-amount curve and the
    claims of Kenter et al.; the curve's table."""
    parts: list = []
    claims = []
    models = set(config.models)
    scbow = per_set(ws, "siamese_cbow") if "siamese_cbow" in models else None
    sets = f"its {len(KENTER_SETS) * 5 - 1} sets other than 2013 SMT"
    if {"siamese_cbow", "word2vec-cbow"} <= models:
        w, better, worse = williams_per_set(ws, "siamese_cbow", "word2vec-cbow")
        table = w.rename(columns={"r_a": "Siamese CBOW r", "r_b": "word2vec CBOW r", "p": "p (two-sided)"}).round(
            {"Siamese CBOW r": 4, "word2vec CBOW r": 4, "t": 4})
        table["p (two-sided)"] = table["p (two-sided)"].map(lambda v: f"{v:.2g}")  # small p: 2 significant digits
        parts += ["## Williams' test: does Siamese CBOW correlate better with gold than word2vec CBOW?\n",
                  "Williams' t for two correlations that share the gold scores (Steiger 1980), per dataset; it tests "
                  "the paper's claim directly, where the Wilcoxon test above only says that the two models' scores "
                  f"differ. Siamese CBOW significantly better (p < 0.05) on {better} of {len(w)} sets, "
                  f"significantly worse on {worse}.\n", to_markdown(table), ""]
        c = paired_over_datasets(scbow, per_set(ws, "word2vec-cbow"))
        claims.append(comparison_claim(
            "siamese_cbow-beats-cbow", "Table 1", "Siamese CBOW beats averaged word2vec CBOW vectors on STS 2012-2015",
            f"{paper['siamese_cbow']:.2f} vs {paper['word2vec_cbow']:.2f} over {sets}", "Siamese CBOW", "CBOW", c,
            extra=f"; Williams per set: better on {better}, worse on {worse} of {len(w)}"))
    if {"siamese_cbow", "word2vec-sg"} <= models:
        c = paired_over_datasets(scbow, per_set(ws, "word2vec-sg"))
        claims.append(comparison_claim(
            "siamese_cbow-beats-skipgram", "Table 1", "Siamese CBOW beats averaged word2vec skip-gram vectors",
            f"{paper['siamese_cbow']:.2f} vs {paper['word2vec_skipgram']:.2f} over {sets}", "Siamese CBOW",
            "skip-gram", c))
    oov = {m: v for m in config.models if (v := ws.metrics(m).get("oov"))}
    if oov:
        rows = [{"model": m, **{f"{mode}, {k}": v[mode][k] for mode in ("drop", "random") for k in v[mode]}}
                for m, v in oov.items()]
        parts += ["## Unknown words: dropped (the paper) or a fixed random vector each (the authors' code)\n",
                  "Mean Pearson ×100 over Kenter's 19 staged sets (STS12-15) and over every dataset (all).\n",
                  to_markdown(pd.DataFrame(rows)), ""]
    if config.controls:
        frame = pd.DataFrame([{"model": m, "STS12-15": s["STS12-15"]["pearson"], "all": s["all"]["pearson"]}
                              for m in config.controls for s in [ws.metrics(m)]])
        seeds = frame[frame["model"].str.fullmatch(r"untrained-\d+")]
        summary = ""
        if len(seeds) > 1:
            summary = (f" The untrained initialisation over {len(seeds)} seeds: STS12-15 {seeds['STS12-15'].mean():.2f}"
                       f" ± {seeds['STS12-15'].std():.2f} (mean ± sd).")
        parts += ["## Controls: what a model scores without training\n",
                  "`untrained-K`: Siamese CBOW's N(0, 0.01²) initialisation with seed K (`untrained-1` is where "
                  "`siamese_cbow` starts); `untrained-frequent`: seed 1 with the 100 most frequent words' vectors "
                  "scaled by 0.2; `untrained-idf`: seed 1 with every vector scaled by log(N/sf)." + summary + "\n",
                  to_markdown(frame), ""]
        if scbow is not None and "untrained-1" in config.controls:
            c = paired_over_datasets(scbow, per_set(ws, "untrained-1"))
            claims.append(comparison_claim(
                "siamese_cbow-beats-untrained", "§4", "Training matters: Siamese CBOW beats its own untrained "
                "initialisation", "implied, the trained embeddings and not the averaging carry the scores",
                "Siamese CBOW", "untrained", c))
    curve = training_amount_curve(ws, config.training_amount) if config.training_amount else pd.DataFrame()
    if config.training_amount:
        parts += ["## Training amount (Kenter et al. Figure 2's analogue)\n",
                  "Mean Pearson ×100 over the 19 staged STS 2012-2015 sets against Σ lr, the learning rate summed over "
                  "the run (the authors' released vectors: 1e-4 over 740k batches of a 5-epoch decay, Σ lr ≈ 67). "
                  "`dvc plots show reports/kenter2016_training_amount.csv` draws it.\n", to_markdown(curve), ""]
    claims.append(not_testable(
        "siamese_cbow-beats-skipthought", "Table 1", "Siamese CBOW beats skip-thought vectors",
        f"{paper['siamese_cbow']:.2f} vs {paper['skip_thought']:.2f} over {sets}",
        "skip-thought (Kiros et al. 2015: a GRU encoder-decoder trained for weeks on the Toronto Book Corpus) is not "
        "part of this project"))
    parts += ["## Claims of Kenter et al. (2016), on our runs\n",
              "Each claim is judged on the 19 staged STS 2012-2015 sets by a two-sided Wilcoxon signed-rank test over "
              f"the per-dataset Pearson r, its p Holm-adjusted over this paper's claims (α = {ALPHA}); the effect is "
              "the difference of the means with its 95% BCa bootstrap interval over the sets. One training seed "
              "each.\n",
              ClaimsBlock(claims)]
    return parts, curve


def figures(ws: Workspace, config: Kenter2016Report, curve: pd.DataFrame) -> dict[str, tuple[str, str]]:
    """The report's figures, name → (caption, SVG): Table 1's models per set, the training-amount curve, the loss
    of each Siamese CBOW run."""
    out = {"table1.svg": ("Pearson r per STS 2012-2015 set", dataset_bars(
        pd.DataFrame({m: per_set(ws, m) for m in config.models}), "Kenter et al.'s sets: Pearson r × 100 per set"))}
    if not curve.empty:
        out["training_amount.svg"] = ("STS12-15 against the summed learning rate", curves(
            {"STS12-15": curve.set_index("lr_sum")["STS12-15"]}, "Training amount (Figure 2's analogue)",
            "Σ lr over the run (symmetric log scale)", "mean Pearson r × 100, 19 sets", log_x=True, marker="o"))
    runs = [m for m in ("siamese_cbow" if "siamese_cbow" in config.models else None, config.in_batch) if m]
    if runs:
        out["loss.svg"] = ("Siamese CBOW's training loss", curves(
            {m: ws.training_log(m).set_index("step")["loss"] for m in runs}, "Siamese CBOW: training loss",
            "batch", "softmax cross-entropy"))
    return out


def kenter2016_report(ws: Workspace, config: Kenter2016Report) -> tuple[Report, pd.DataFrame]:
    """``reports/kenter2016.md`` with its figures, and the training-amount curve (the table of
    ``reports/kenter2016_training_amount.csv``).

    Raises:
        SentembError: a missing output or reference file, naming it.
    """
    reference = read_kenter_table(ws.reference("kenter2016_table1.csv"))
    ours = {m: ws.datasets(m) for m in config.models}
    parts = ["# Results beside Kenter et al. (2016), Table 1\n", NOTE]
    significance = None
    if {"siamese_cbow", "word2vec-cbow"} <= set(config.models):
        significance = wilcoxon_table(ws.pair_scores("siamese_cbow"), ws.pair_scores("word2vec-cbow"))
    for metric in ("pearson", "spearman"):
        table = kenter_table(ours, reference, metric)
        if significance is not None:
            table = mark_significant(table, significance, "siamese_cbow")
        parts += [f"## {metric.capitalize()} ×100\n", to_markdown(table), ""]
    more, curve = evidence(ws, config, paper_means(reference))
    parts += more
    if config.in_batch and "siamese_cbow" in config.models:
        parts += in_batch_evidence(ws, config.in_batch)
    corpus = ws.json("metrics/corpus.json")
    parts += ["## Training corpus\n", "| " + " | ".join(corpus) + " |", "|" + "---|" * len(corpus),
              "| " + " | ".join(str(v) for v in corpus.values()) + " |", ""]
    return report_with_figures("kenter2016", parts, figures(ws, config, curve)), curve
