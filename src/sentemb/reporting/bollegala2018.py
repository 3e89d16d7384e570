"""The report of Bollegala et al. (Neural Word Salience): Tables 1-3 beside ours, the paper's claims, and the word
similarity of the input vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sentemb.core.data.benchmarks import STS_YEARS
from sentemb.papers.bollegala2018 import NWS_SETS
from sentemb.reporting.claims import (
    ALPHA,
    LEVEL_MARGIN,
    R_MARGIN,
    SEEDS_NOTE,
    ClaimsBlock,
    claim,
    comparison_claim,
    not_testable,
)
from sentemb.reporting.config import Bollegala2018Report
from sentemb.reporting.figures import Report, curves, dataset_bars, report_with_figures
from sentemb.reporting.significance import (
    correlation_equivalence,
    count_above_chance,
    fisher_interval,
    highest_of,
    paired_over_datasets,
    pearson_p,
    seed_mean,
)
from sentemb.reporting.tables import YEAR_GROUP, gaps_section, marked, read_reference, to_markdown
from sentemb.reporting.workspace import Workspace

# Bollegala et al. (NWS paper) name the input vectors sgns / cbow / glove
NWS_EMBEDDINGS = {"word2vec-sg": "sgns", "word2vec-cbow": "cbow", "glove": "glove"}
EMBEDDING_NAMES = {"sgns": "SGNS", "cbow": "CBOW", "glove": "GloVe"}  # as the paper's text writes them
# our weighting suffix → the column name of the NWS paper's Table 1 (our extra variants keep our name)
NWS_METHODS = {"": "AVG", "-isf": "ISF", "-isf-log": "ISF-log", "-sif": "SMOOTH (SIF)", "-sif-pc": "SIF + PC",
               "-sif-pc-corpus": "SIF + PC (corpus)", "-usif": "uSIF", "-nws": "NWS"}


def read_nws_table2(path: str | Path) -> pd.DataFrame:
    """Bollegala et al. Table 2 (NWS with SGNS / CBOW / GloVe input vectors) as rows (group, dataset, embeddings,
    pearson ×100).

    Raises:
        SentembError: a missing file or missing columns.
    """
    df = read_reference(path, {"year", "dataset", "embeddings", "pearson_x100"}, "Bollegala et al., Table 2")
    df["group"] = df["year"].map(YEAR_GROUP)
    return df.rename(columns={"pearson_x100": "pearson"})[["group", "dataset", "embeddings", "pearson"]]


def _nws_rows(table: pd.DataFrame, columns: list[str], nws_sets: tuple[str, ...]) -> pd.DataFrame:
    """Sort the rows by year and dataset and add the 18-set mean and the all-datasets mean."""
    order = {g: i for i, g in enumerate([*STS_YEARS, "SICK-R", "STS-B"])}
    table = table.sort_values(["group", "dataset"], key=lambda s: s.map(order) if s.name == "group" else s.str.lower())
    table = table.reset_index(drop=True)
    in18 = (table["group"] + "." + table["dataset"]).isin(nws_sets)
    ours = [c for c in columns if not c.endswith("(paper)")]
    means = [
        {"group": "mean", "dataset": f"the paper's {int(in18.sum())} sets",
         **table.loc[in18, columns].mean().to_dict()},
        {"group": "mean", "dataset": f"all {len(table)} datasets", **table[ours].mean().to_dict()},
    ]
    return pd.concat([table[["group", "dataset", *columns]], pd.DataFrame(means)], ignore_index=True)


def nws_table1(ours: dict[str, pd.DataFrame], nws_sets: tuple[str, ...], marked: str = "NWS",
               baseline: str = "ISF") -> tuple[pd.DataFrame, pd.Series]:
    """The NWS paper's Table 1 layout for one set of word vectors: a row per dataset (the 18 and every other one we
    evaluated), a column per method (AVG, ISF, ISF-log, SMOOTH, SIF + PC, NWS), then the two means.

    Bollegala et al. mark with * the datasets where NWS improves significantly over ISF, from Fisher
    z-transformation confidence intervals; here a dataset is marked when ``marked``'s r lies above the upper end
    of the 95% interval of ``baseline``'s r (:func:`fisher_interval`).

    Args:
        ours: method column name → per-dataset rows (:func:`read_datasets_csv`, with ``pairs``).
        nws_sets: ``group.dataset`` keys of the paper's 18 sets.

    Returns:
        ``(table, significant)``: the table (×100) and a bool Series over its rows.
    """
    keys = pd.concat([df[["group", "dataset", "pairs"]] for df in ours.values()]).drop_duplicates(["group", "dataset"])
    table = keys
    for method, df in ours.items():
        table = table.merge(df[["group", "dataset", "pearson"]].rename(columns={"pearson": method}), how="left")
    table = _nws_rows(table.assign(_pairs=table["pairs"]), [*ours, "_pairs"], nws_sets)
    significant = pd.Series(False, index=table.index)
    if marked in table and baseline in table:
        rows = table["group"] != "mean"
        _, high = fisher_interval(table.loc[rows, baseline] / 100, table.loc[rows, "_pairs"])
        significant[rows] = table.loc[rows, marked].to_numpy() / 100 > high
    return table.drop(columns="_pairs"), significant


def nws_table2(ours: dict[str, pd.DataFrame], reference: pd.DataFrame, nws_sets: tuple[str, ...]) -> pd.DataFrame:
    """The NWS paper's Table 2 layout: NWS over each input vector set, ours beside the paper's, per dataset.

    Args:
        ours: our vectors name (``word2vec-sg`` …) → the per-dataset rows of its NWS model.
        reference: :func:`read_nws_table2`.
    """
    keys = pd.concat([df[["group", "dataset"]] for df in ours.values()]).drop_duplicates()
    table, cols = keys, []
    for vectors, df in ours.items():
        emb = NWS_EMBEDDINGS.get(vectors, vectors)
        col = f"NWS {emb}"
        table = table.merge(df[["group", "dataset", "pearson"]].rename(columns={"pearson": col}), how="left")
        ref = reference[reference["embeddings"] == emb][["group", "dataset", "pearson"]]
        table = table.merge(ref.rename(columns={"pearson": f"{col} (paper)"}), how="left")
        cols += [col, f"{col} (paper)"]
    return _nws_rows(table, cols, nws_sets)


def read_nws_table1_averages(path: str | Path) -> pd.DataFrame:
    """The overall averages of Bollegala et al. Table 1 (18 sets, GloVe input), rows (method, pearson_x100).

    Raises:
        SentembError: a missing file or missing columns.
    """
    return read_reference(path, {"method", "pearson_x100"}, "Bollegala et al., Table 1 averages")


def read_nws_table3(path: str | Path) -> pd.DataFrame:
    """Bollegala et al. Table 3 (Pearson r of NWS scores with Warriner / MRC norms), rows (embeddings, norm,
    pearson).

    Raises:
        SentembError: a missing file or missing columns.
    """
    return read_reference(path, {"embeddings", "norm", "pearson"}, "Bollegala et al., Table 3")


# the NWS paper's Table 3 columns: arousal, valence, dominance from Warriner; concreteness, imageability from MRC
NWS_TABLE3_NORMS = {"Arousal": "Warriner arousal", "Conc.": "MRC concreteness", "Dom.": "Warriner dominance",
                    "Img.": "MRC imageability", "Valence": "Warriner valence"}


def nws_table3(ours: dict[str, dict], reference: pd.DataFrame) -> pd.DataFrame:
    """The NWS paper's Table 3 layout: a row per input vector set, ours and the paper's r per norm.

    Args:
        ours: vectors name → the ``metrics/VECTORS-nws.norms.json`` mapping (``"Warriner valence"`` → r, words).
        reference: :func:`read_nws_table3`.
    """
    rows = []
    norm_names = {"Arousal": "arousal", "Conc.": "concreteness", "Dom.": "dominance", "Img.": "imageability",
                  "Valence": "valence"}
    for vectors, norms in ours.items():
        emb = NWS_EMBEDDINGS.get(vectors, vectors)
        row: dict = {"embeddings": emb}
        for col, key in NWS_TABLE3_NORMS.items():
            row[col] = norms.get(key, {}).get("pearson", np.nan)
            ref = reference[(reference["embeddings"] == emb) & (reference["norm"] == norm_names[col])]
            row[f"{col} (paper)"] = float(ref["pearson"].iloc[0]) if len(ref) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)

NOTE = """\
Pearson's r ×100. "(paper)" = Bollegala et al., trained on the Toronto Book Corpus (81M sentences); ours on the corpus
in `metrics/corpus.json`, with every word-vector set trained there on the same vocabulary. The paper's 18 sets are
STS 2012-2015 without 2012 MSRvid and 2013 SMT; "all" adds every other set we evaluate (MSRvid, STS16, SICK-R, PIT-2015,
STS-B). ISF is the paper's 1/sf(w); ISF-log is log(N/sf(w)); SMOOTH is SIF's a/(a + p(w)) without component
removal; SIF + PC removes the first principal component fitted on each evaluation set's sentences (the SIF authors'
code), SIF + PC (corpus) the one fitted once on training sentences (what a deployed model can do); uSIF is Ethayarajh
(2018): a/(a/2 + p(w)) with a from the vocabulary size and the mean sentence length, the first 5 components removed
per evaluation set, each weighted by its singular value's share. * marks NWS where its r lies above the 95% Fisher-z
confidence interval of ISF's r on that dataset (the paper's significance mark). A method the run did not build is
left out.
"""


def per_set(ws: Workspace, model: str) -> pd.Series:
    """Pearson ×100 of a model on the paper's 18 sets, indexed by set."""
    d = ws.datasets(model)
    d = d[d["set"].isin(NWS_SETS)]
    return pd.Series(d["pearson"].to_numpy(), index=d["set"])


def runs(ws: Workspace, model: str) -> dict[str, pd.Series]:
    """:func:`per_set` of each run of ``model`` over training seeds (:meth:`Workspace.seeds`), run name → scores."""
    return {m: per_set(ws, m) for m in ws.seeds(model)}


def methods(ws: Workspace, v: str) -> dict[str, str]:
    """The weightings of :data:`NWS_METHODS` that the run evaluated over ``v``: model name → column label."""
    return {f"{v}{suffix}": label for suffix, label in NWS_METHODS.items() if ws.evaluated(f"{v}{suffix}")}


def component_fit_rows(ws: Workspace, vectors: list[str]) -> list[dict]:
    """SIF + PC with its component fitted on the test sentences against the corpus fit, over each input: the means
    over the 18 sets and the Wilcoxon test of the per-set differences (what fitting on the test set is worth)."""
    rows = []
    for v in vectors:
        if not (ws.evaluated(f"{v}-sif-pc") and ws.evaluated(f"{v}-sif-pc-corpus")):
            continue
        c = paired_over_datasets(runs(ws, f"{v}-sif-pc"), runs(ws, f"{v}-sif-pc-corpus"))
        rows.append({"vectors": v, "fitted per evaluation set": round(c["mean_a"], 2),
                     "fitted on the corpus": round(c["mean_b"], 2), "difference": round(c["mean_a"] - c["mean_b"], 2),
                     "higher on": f"{c['wins_a']} of {c['datasets']}", "p (Wilcoxon)": f"{c['p']:.2g}"})
    return rows


def claims(ws: Workspace, vectors: list[str], norms: dict[str, dict], averages: pd.DataFrame,
           reference_nws: pd.DataFrame, reference_norms: pd.DataFrame, controls: list[str] = ()) -> list[dict]:
    """The NWS paper's claims: over GloVe, NWS beats AVG, ISF (as 1/sf and as log(N/sf)) and SMOOTH and ISF beats AVG
    (Table 1); GloVe is NWS's best input (Table 2); the GloVe saliences correlate positively and the CBOW ones
    negatively with concreteness and imageability (Table 3). The paper's numbers come from ``reference/``."""
    out = []
    if "glove" not in vectors:
        return out
    paper = dict(zip(averages["method"], averages["pearson_x100"], strict=True))
    nws = runs(ws, "glove-nws")
    for suffix, label, key, name in (("", "AVG", "avg", "AVG"), ("-isf", "ISF", "isf", "ISF (1/sf)"),
                                     ("-isf-log", "ISF", "isf-log", "ISF as log(N/sf)"),
                                     ("-sif", "SMOOTH", "smooth", "SMOOTH")):
        if ws.evaluated(f"glove{suffix}"):
            c = paired_over_datasets(nws, runs(ws, f"glove{suffix}"))
            out.append(comparison_claim(f"nws-beats-{key}", "Table 1", f"NWS over GloVe beats {name} over GloVe",
                                        f"{paper['NWS']:.1f} vs {paper[label]:.1f}", "NWS", label, c,
                                        paper_effect=paper["NWS"] - paper[label]))
    if ws.evaluated("glove-isf"):
        c = paired_over_datasets(runs(ws, "glove-isf"), runs(ws, "glove"))
        out.append(comparison_claim("isf-beats-avg", "Table 1", "ISF over GloVe beats AVG over GloVe",
                                    f"{paper['ISF']:.1f} vs {paper['AVG']:.1f}", "ISF", "AVG", c,
                                    paper_effect=paper["ISF"] - paper["AVG"]))
    out += table1_counts(ws, paper)
    for control in (c for c in controls if ws.evaluated(c)):  # "outperform baseline methods": the training-free ones
        c = paired_over_datasets(nws, runs(ws, control))
        out.append(comparison_claim(
            f"nws-beats-control-{control}", "§5", f"NWS over GloVe beats the training-free control `{control}`",
            "\"outperform baseline methods\" (a control the paper did not run)", "NWS", control, c))
    published = reference_nws.groupby("embeddings")["pearson"].mean()
    for v in vectors:
        if v != "glove" and v in NWS_EMBEDDINGS:
            c = paired_over_datasets(nws, runs(ws, f"{v}-nws"))
            name = NWS_EMBEDDINGS[v]
            out.append(comparison_claim(
                f"nws-glove-beats-{name}", "Table 2", f"GloVe is NWS's best input: NWS over GloVe beats NWS over "
                f"{name.upper()}", f"{published['glove']:.2f} vs {published[name]:.2f} over the {len(NWS_SETS)} sets",
                "GloVe-NWS", f"{name.upper()}-NWS", c, paper_effect=published["glove"] - published[name]))
    if {"word2vec-sg", "word2vec-cbow"} <= set(vectors):
        # the paper's better of the two word2vec inputs (by its Table 2 means) against the other
        a, b = sorted(("cbow", "sgns"), key=lambda e: -published[e])
        model = {e: v for v, e in NWS_EMBEDDINGS.items()}
        c = paired_over_datasets(runs(ws, f"{model[a]}-nws"), runs(ws, f"{model[b]}-nws"))
        out.append(comparison_claim(
            f"nws-{a}-beats-{b}", "Table 2", f"of the word2vec inputs, NWS over {a.upper()} beats NWS over {b.upper()}",
            f"{published[a]:.2f} vs {published[b]:.2f} over the {len(NWS_SETS)} sets", f"{a.upper()}-NWS",
            f"{b.upper()}-NWS", c, paper_effect=published[a] - published[b]))
    for v, sign in (("glove", "positive"), ("word2vec-sg", "positive"), ("word2vec-cbow", "negative")):
        for norm in ("MRC concreteness", "MRC imageability"):
            r = norms.get(v, {}).get(norm)
            if r is None:
                continue
            row = reference_norms[(reference_norms["embeddings"] == NWS_EMBEDDINGS[v])
                                  & (reference_norms["norm"] == norm.split()[1])]["pearson"]
            n, rho = r["words"], r["pearson"]
            p = pearson_p(rho, n)
            low, high = fisher_interval(np.array(rho), np.array(n))
            out.append(claim(f"{NWS_EMBEDDINGS[v]}-salience-{norm.split()[1]}", "Table 3",
                             f"the {EMBEDDING_NAMES[NWS_EMBEDDINGS[v]]} saliences correlate {sign}ly with {norm}",
                             f"r = {float(row.iloc[0]):g}", f"r = {rho:.3f} over {n} words", expects=sign,
                             effect=rho, ci95=(float(low), float(high)), p=p, paper_effect=float(row.iloc[0]),
                             seeds={f"{v}-nws": [f"{v}-nws"]},
                             test="t-test of Pearson's r, two-sided; Fisher-z 95% interval"))
    out += affect_claims(norms.get("glove", {}), reference_norms)
    out += [not_testable(*c) for c in (
        ("nws-beats-skipthought", "Table 1", "NWS over GloVe beats skip-thought vectors",
         f"{paper['NWS']:.1f} vs {paper['skip-thought']:.1f}",
         "skip-thought (Kiros et al. 2015) is not part of this project"),
        ("nws-fraction-of-the-time", "Abstract", "NWS needs a fraction of the training and prediction time of prior "
         "sentence-embedding methods", "no times published", "the prior methods' (skip-thought's) training is not "
         "part of this project; NWS's own time is in docs/speed.md"),
        ("nws-saturates-in-six-epochs", "§4.1, Figure 2", "NWS's STS scores saturate after five or six epochs",
         "a curve over epochs", "NWS scored after each epoch is not staged yet"))]
    return out


def table1_counts(ws: Workspace, paper: dict[str, float]) -> list[dict]:
    """§4.1's counts over the 18 sets of Table 1 (GloVe input): NWS best on 9 (of the methods the paper lists that
    we have: AVG, ISF, SMOOTH and our Siamese CBOW; the paper also had skip-thought, best nowhere), NWS significantly
    above ISF on 9 (its r above ISF's Fisher-z 95% interval, which a level pair crosses about 2.5% of the time), and
    NWS above Siamese CBOW on the mean."""
    models = {"NWS": "glove-nws", "AVG": "glove", "ISF": "glove-isf", "SMOOTH": "glove-sif",
              "Siamese CBOW": "siamese_cbow"}
    if not all(ws.evaluated(m) for m in models.values()):
        return []
    seeds = {name: ws.seeds(m) for name, m in models.items()}
    table = pd.DataFrame({name: seed_mean(runs(ws, m)) for name, m in models.items()}).dropna()
    best = count_above_chance(highest_of(table, "NWS"), len(table), 1 / len(models))
    pairs = ws.datasets("glove-isf").set_index("set")["pairs"].reindex(table.index)
    _, high = fisher_interval(table["ISF"].to_numpy() / 100, pairs.to_numpy())
    above = count_above_chance(int((table["NWS"].to_numpy() / 100 > high).sum()), len(table), 0.025)
    binomial = ("exact binomial test, two-sided; effect the share of sets − its chance rate, with the Clopper-Pearson "
                "95% interval")
    c = paired_over_datasets(runs(ws, "glove-nws"), runs(ws, "siamese_cbow"))
    return [
        claim("nws-best-per-set", "§4.1, Table 1", "NWS over GloVe scores highest of the methods compared on the most "
              "sets", "best on 9 of 18 (of six systems)", f"highest of {len(models)} on {best['k']} of {best['n']}",
              effect=best["effect"], ci95=best["ci95"], p=best["p"], paper_effect=9 / 18 - 1 / len(models), seeds=seeds,
              test=f"{binomial} (1/{len(models)}: exchangeable methods)"),
        claim("nws-significantly-above-isf", "§4.1, Table 1", "NWS over GloVe is significantly above ISF on half "
              "the sets", "9 of 18 sets", f"above ISF's Fisher-z interval on {above['k']} of {above['n']}",
              effect=above["effect"], ci95=above["ci95"], p=above["p"], paper_effect=9 / 18 - 0.025,
              seeds={"NWS": seeds["NWS"], "ISF": seeds["ISF"]},
              test=f"{binomial} (0.025: a level pair's chance to clear the upper end of a 95% interval)"),
        comparison_claim("nws-beats-siamese_cbow", "§5, Table 1", "NWS over GloVe beats the sentence-embedding "
                         "method Siamese CBOW", f"{paper['NWS']:.1f} vs {paper['Siamese-CBOW']:.1f} (the authors' "
                         "released Siamese CBOW)", "NWS", "Siamese CBOW (ours)", c,
                         paper_effect=paper["NWS"] - paper["Siamese-CBOW"])]


# Table 3's affective norms, where the paper finds "no correlation"
AFFECT_NORMS = ("Warriner arousal", "Warriner valence", "Warriner dominance")


def affect_claims(norms: dict, reference_norms: pd.DataFrame) -> list[dict]:
    """Table 3: "no correlation could be observed for arousal, valence and dominance": for the GloVe saliences, a
    level claim per affective norm, judged by an equivalence test of r against ±:data:`R_MARGIN`."""
    out = []
    for norm in AFFECT_NORMS:
        r = norms.get(norm)
        if r is None:
            continue
        rho, n, name = r["pearson"], r["words"], norm.split()[1]
        ref = reference_norms[(reference_norms["embeddings"] == "glove") & (reference_norms["norm"] == name)]["pearson"]
        low, high = fisher_interval(np.array(rho), np.array(n))
        out.append(claim(f"glove-salience-no-{name}", "Table 3", f"the GloVe saliences do not correlate with {norm}",
                         f"r = {float(ref.iloc[0]):g}", f"r = {rho:.3f} over {n} words", expects="level",
                         effect=rho, ci95=(float(low), float(high)), p=pearson_p(rho, n),
                         p_equivalence=correlation_equivalence(rho, n, R_MARGIN), margin=R_MARGIN,
                         paper_effect=float(ref.iloc[0]), seeds={"glove-nws": ["glove-nws"]},
                         test=f"t-test of Pearson's r, two-sided; equivalence: two one-sided z-tests of Fisher's z "
                              f"against ±{R_MARGIN:g}; Fisher-z 95% interval"))
    return out


def gap_rows(ws: Workspace, vectors: list[str], averages: pd.DataFrame, reference: pd.DataFrame) -> list[dict]:
    """Our means over the 18 sets beside the paper's: each Table 1 method over GloVe, NWS over each input (Table 2);
    ISF's gap names ISF-log, the run that tests the form of ISF as its cause."""
    paper = dict(zip(averages["method"], averages["pearson_x100"], strict=True))
    rows = []
    if "glove" in vectors:
        for model, label in methods(ws, "glove").items():
            name = label.split(" (")[0]
            if name in paper and label != "NWS":
                control = ""
                if name == "ISF" and ws.evaluated("glove-isf-log"):
                    control = (f"`glove-isf-log`, ISF as log(N/sf): {per_set(ws, 'glove-isf-log').mean():.2f}, the "
                               "form of the weight")
                rows.append({"what": f"{label} over GloVe (Table 1)", "ours": per_set(ws, model).mean(),
                             "paper": paper[name], "control": control})
    published = reference.groupby("embeddings")["pearson"].mean()
    for v in vectors:
        emb = NWS_EMBEDDINGS.get(v, v)
        if emb in published and ws.evaluated(f"{v}-nws"):
            rows.append({"what": f"NWS over {EMBEDDING_NAMES.get(emb, emb)} (Table 2)",
                         "ours": per_set(ws, f"{v}-nws").mean(), "paper": float(published[emb]), "control": ""})
    return rows


def figures(ws: Workspace, vectors: list[str], averages: pd.DataFrame) -> dict[str, tuple[str, str]]:
    """The report's figures, name → (caption, SVG): each method's mean over the 18 sets for each input, beside the
    paper's GloVe row; NWS's training loss for each input."""
    labels = {NWS_EMBEDDINGS.get(v, v): v for v in vectors}
    means = pd.DataFrame({label: {name: per_set(ws, model).mean() for model, name in methods(ws, v).items()}
                          for label, v in labels.items()}).T
    paper = dict(zip(averages["method"], averages["pearson_x100"], strict=True))
    means.loc["GloVe (paper)"] = [paper.get(name.split(" (")[0], float("nan")) for name in means.columns]
    return {"methods.svg": ("Each weighting's mean over the paper's 18 sets", dataset_bars(
                means, "Mean Pearson r × 100 over the 18 sets, by input vectors and weighting")),
            "loss.svg": ("NWS's training loss", curves(
                {label: ws.training_log(f"{v}-nws").set_index("step")["loss"] for label, v in labels.items()},
                "Neural Word Salience: training loss", "batch", "softmax cross-entropy"))}


def bollegala2018_report(ws: Workspace, config: Bollegala2018Report) -> Report:
    """``reports/bollegala2018.md`` with its figures: Tables 1-3 of the NWS paper, our numbers beside the published
    ones.

    Raises:
        SentembError: a missing output or reference file, naming it.
    """
    vectors = config.vectors
    parts = ["# Results beside Bollegala et al., Neural Word Salience (Tables 1-3)\n",
             NOTE]
    averages = read_nws_table1_averages(ws.reference("bollegala2018_table1_averages.csv"))
    parts += ["## Table 1 layout: weighting methods over each word-vector set\n",
              "The paper's overall averages on its 18 sets (GloVe input): "
              + ", ".join(f"{m} {v}" for m, v in zip(averages["method"], averages["pearson_x100"], strict=True))
              + " (SMOOTH, skip-thought and Siamese CBOW as published by their authors).\n"]
    for v in vectors:
        ours = {label: ws.datasets(model) for model, label in methods(ws, v).items()}
        table, significant = nws_table1(ours, NWS_SETS)
        table["NWS"] = marked(table["NWS"], significant, "*")
        parts += [f"### {NWS_EMBEDDINGS.get(v, v)} (`models/{v}`)\n", to_markdown(table), ""]
    fits = component_fit_rows(ws, vectors)
    if fits:
        parts += ["### SIF + PC: the component fitted on the test sentences or on the corpus\n",
                  "The SIF authors' code fits the common component on the sentences it evaluates; a deployed model "
                  "has only its training corpus. Means over the paper's 18 sets; Wilcoxon signed-rank over the "
                  "per-set differences.\n", to_markdown(pd.DataFrame(fits)), ""]
    reference = read_nws_table2(ws.reference("bollegala2018_table2_nws.csv"))
    ours = {v: ws.datasets(f"{v}-nws") for v in vectors}
    parts += ["## Table 2 layout: NWS with each input vector set\n", to_markdown(nws_table2(ours, reference, NWS_SETS)),
              ""]
    parts += gaps_section(gap_rows(ws, vectors, averages, reference), "Bollegala et al.'s Tables 1 and 2")
    norms = {v: ws.norms(f"{v}-nws") for v in vectors}
    reference_norms = read_nws_table3(ws.reference("bollegala2018_table3_norms.csv"))
    parts += ["## Table 3 layout: Pearson r of the learnt saliences with psycholinguistic norms\n",
              "Arousal, dominance and valence from Warriner et al. 2013; concreteness and imageability from MRC, "
              "as the paper. r on the −1…1 scale.\n", to_markdown(nws_table3(norms, reference_norms).round(3)), ""]
    rows = [{"embeddings": NWS_EMBEDDINGS.get(v, v), "norm": key, "words": r["words"], "r (NWS)": r["pearson"],
             "r (log frequency)": r["pearson_log_frequency"]} for v in vectors for key, r in norms[v].items()]
    parts += ["### Every staged norm, with the number of words compared and log word frequency for reference\n",
              to_markdown(pd.DataFrame(rows)), ""]
    parts += ["## Claims of Bollegala et al., on our runs\n",
              "Method claims are judged on the paper's 18 sets by a two-sided Wilcoxon signed-rank test over the "
              "per-dataset Pearson r (the effect: the difference of the means, with its 95% BCa bootstrap interval "
              "over the sets); the paper's Table 1 compares methods over GloVe only. Counts of sets by the exact "
              "binomial test their line names. Norm claims: the two-sided t-test of Pearson's r over the words both "
              "have (the effect: r, with its Fisher-z interval); \"no correlation\" by an equivalence test against "
              f"±{R_MARGIN:g} (a level pair of methods: ±{LEVEL_MARGIN:g} point). Every p is Holm-adjusted over this "
              f"paper's claims (α = {ALPHA}); each line says whether the paper's own effect lies inside our interval. "
              f"{SEEDS_NOTE}\n",
              ClaimsBlock(claims(ws, vectors, norms, averages, reference, reference_norms, config.controls))]
    sims = []
    for v in [*vectors, "siamese_cbow"]:
        m = ws.metrics(v).get("word_similarity", {})
        sims.append({"word vectors": v, **{f"{k} ρ×100": d["spearman"] for k, d in m.items()},
                     **{f"{k} OOV %": d["oov_percent"] for k, d in m.items()}})
    parts += ["## Word similarity of the word vectors (gensim `evaluate_word_pairs`)\n",
              "Spearman's ρ ×100; OOV % = pairs skipped for an unknown word.\n", to_markdown(pd.DataFrame(sims)), ""]
    return report_with_figures("bollegala2018", parts, figures(ws, vectors, averages))
