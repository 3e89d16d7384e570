"""The report of Kenter, Borisov & de Rijke 2016 (Siamese CBOW): Table 1 beside ours, Williams' test per dataset, the
unknown-word treatments, the untrained controls, the training-amount curve, in-batch negatives, the words with the
lowest and highest vector norms (§4.4) and the paper's claims.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sentemb.core.data.benchmarks import STS_YEARS
from sentemb.papers.kenter2016 import KENTER_GROUPS
from sentemb.reporting.claims import (
    ALPHA,
    LEVEL_MARGIN,
    SEEDS_NOTE,
    ClaimsBlock,
    claim,
    comparison_claim,
    comparison_evidence,
    not_testable,
)
from sentemb.reporting.config import Kenter2016Report
from sentemb.reporting.figures import Report, curves, dataset_bars, norms_by_frequency, report_with_figures
from sentemb.reporting.significance import (
    count_above_chance,
    highest_of,
    paired_over_datasets,
    rank_biserial,
    seed_mean,
    wilcoxon_table,
    williams_table,
)
from sentemb.reporting.tables import YEAR_GROUP, gaps_section, mark_significant, read_reference, to_markdown
from sentemb.reporting.workspace import Workspace

# our model name → Kenter et al.'s system name in Table 1
KENTER_SYSTEMS = {"word2vec-sg": "word2vec_skipgram", "word2vec-cbow": "word2vec_cbow", "siamese_cbow": "siamese_cbow"}
# Kenter et al. abbreviate two 2015 names
KENTER_NAMES = {"answ-forums": "answers-forums", "answ-students": "answers-students"}


def read_kenter_table(path: str | Path) -> pd.DataFrame:
    """Kenter et al. Table 1 as rows (group, dataset, system, pearson, spearman), ×100.

    Raises:
        SentembError: a missing file or missing columns.
    """
    df = read_reference(path, {"year", "dataset", "system", "pearson", "spearman"}, "Kenter et al. 2016, Table 1")
    df["group"] = df["year"].map(YEAR_GROUP)
    df["dataset"] = df["dataset"].replace(KENTER_NAMES)
    df[["pearson", "spearman"]] *= 100
    return df[["group", "dataset", "system", "pearson", "spearman"]]


def kenter_table(ours: dict[str, pd.DataFrame], reference: pd.DataFrame, metric: str = "pearson") -> pd.DataFrame:
    """One row per dataset (Kenter's 20 and every other evaluated one), a column per model with ours and the paper's.

    Means: over the 19 sets that both have (2012-2015 without 2013 SMT), the paper's own 20-set mean, and ours over
    every STS set we evaluated.
    """
    keys = reference[["group", "dataset"]].drop_duplicates()
    for df in ours.values():
        keys = pd.concat([keys, df[["group", "dataset"]]]).drop_duplicates()
    table = keys.reset_index(drop=True)
    cols = []
    for model, df in ours.items():
        ours_col, paper_col = f"{model}", f"{model} (paper)"
        table = table.merge(df[["group", "dataset", metric]].rename(columns={metric: ours_col}), how="left")
        system = KENTER_SYSTEMS.get(model)
        if system is not None:
            ref = reference[reference["system"] == system][["group", "dataset", metric]]
            table = table.merge(ref.rename(columns={metric: paper_col}), how="left")
            cols += [ours_col, paper_col]
        else:
            cols.append(ours_col)
    order = {g: i for i, g in enumerate([*STS_YEARS, "SICK-R", "STS-B"])}
    table = table.sort_values(["group", "dataset"], key=lambda s: s.map(order) if s.name == "group" else s.str.lower())
    table = table.reset_index(drop=True)[["group", "dataset", *cols]]
    both = table.dropna(subset=cols) if cols else table
    both = both[both["group"].isin(KENTER_GROUPS)]
    means = [
        {"group": "mean", "dataset": f"{len(both)} sets in both", **both[cols].mean().to_dict()},
        {"group": "mean", "dataset": "paper, 20 sets",
         **{c: table.loc[table["group"].isin(KENTER_GROUPS), c].mean()
            for c in cols if c.endswith("(paper)")}},
        {"group": "mean", "dataset": "ours, all STS12-16",
         **{c: table.loc[table["group"].isin(list(STS_YEARS)), c].mean() for c in cols if not c.endswith("(paper)")}},
    ]
    return pd.concat([table, pd.DataFrame(means)], ignore_index=True)

FREQUENT = 1000  # the most frequent words: the norms compared among words that all had many updates
# §4.4: each end of the norm scale → the claim's key, the sign of the rank-biserial r it expects, the claim
NORM_CLAIMS = {
    "lowest": ("function-words-lowest-norm", "negative", "Siamese CBOW learns the lowest vector norms for words of "
               "little semantic impact (function words)"),
    "highest": ("pronouns-highest-norm", "positive", "Siamese CBOW learns high vector norms for personal pronouns "
                "(a fiction corpus, rich in dialogue)"),
}

NOTE = """\
Pearson's r ×100 (first table; Spearman's ρ ×100 below). "(paper)" = Kenter et al. 2016, Table 1, trained on the
Toronto Book Corpus (74M sentences); ours are trained on the corpus in `metrics/corpus.json`. 2013 SMT is distributed
by LDC only and is absent here, so the first mean is over the 19 sets both have. Kenter et al.'s 2015 scores were
computed with the unscored pairs (empty gold lines) included; we drop those pairs as the official scorer does, so
2015 is not comparable (see reference/README.md). † marks the datasets where Siamese CBOW's per-pair scores differ
from word2vec CBOW's (Wilcoxon signed-rank, p < 0.0001), the test of Kenter et al. §3.3.
"""


def per_set(ws: Workspace, model: str, groups: tuple[str, ...] = KENTER_GROUPS) -> pd.Series:
    """Pearson ×100 of a model on the sets of ``groups``, indexed by set (``group.dataset``)."""
    d = ws.datasets(model)
    d = d[d["group"].isin(groups)]
    return pd.Series(d["pearson"].to_numpy(), index=d["set"])


def runs(ws: Workspace, model: str) -> dict[str, pd.Series]:
    """:func:`per_set` of each run of ``model`` over training seeds (:meth:`Workspace.seeds`), run name → scores."""
    return {m: per_set(ws, m) for m in ws.seeds(model)}


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


def code(word: str) -> str:
    """A token as markdown code (punctuation tokens such as ``,`` or a doubled backtick stay readable)."""
    return f"`` {word} ``" if "`" in word else f"`{word}`"


def read_norm_lists(path: Path, lowercase: bool) -> pd.DataFrame:
    """``reference/kenter2016_norms.csv``: ``end`` (lowest/highest), ``position``, ``word`` (as the paper prints it),
    with ``token``: the word as a model that lower-cases (``lowercase``) has it.

    Raises:
        SentembError: a missing file or missing columns.
    """
    lists = read_reference(path, {"end", "position", "word"}, "Kenter et al. 2016, §4.4").sort_values(
        ["end", "position"])
    lists["token"] = lists["word"].str.lower() if lowercase else lists["word"]
    return lists


def norms_evidence(norms: pd.DataFrame, paper: pd.DataFrame, model: str = "siamese_cbow"
                   ) -> tuple[list[str], list[dict]]:
    """Kenter et al. §4.4 on Siamese CBOW's vectors: our 10 words of lowest and highest norm beside the paper's, and
    for each end the claim that the paper's words lie there (Mann-Whitney U of their norms against every other
    word's; effect the rank-biserial r with its bootstrap interval over the paper's words).

    Args:
        norms: the model's word norms (:meth:`Workspace.word_norms`).
        model: the run they are of (its seed-1 run; the claims name it).
        paper: :func:`read_norm_lists`.
    """
    n, claims, columns = len(norms), [], {}
    rank = norms.set_index("word")["rank"]  # 1 = the lowest norm
    for end, (key, expects, statement) in NORM_CLAIMS.items():
        rows = paper[paper["end"] == end]
        words = rows["token"].tolist()
        listed = f"{'the 10 lowest' if end == 'lowest' else 'at the other end'}: {', '.join(rows['word'])}"
        ours = norms.head(10) if end == "lowest" else norms.tail(10).iloc[::-1]
        columns[f"paper, {'lowest' if end == 'lowest' else 'other end'}"] = [code(w) for w in words]
        columns[f"ours, {end} (norm)"] = [f"{code(w)} ({v:.3f})" for w, v in zip(ours["word"], ours["norm"],
                                                                                   strict=True)]
        present = norms["word"].isin(words)
        if not present.any():
            claims.append(not_testable(key, "§4.4", statement, listed, "none of the paper's words is in the "
                                                                       "model's vocabulary"))
            continue
        res = rank_biserial(norms.loc[present, "norm"], norms.loc[~present, "norm"])
        frequent = norms["frequency_rank"] < FREQUENT
        among = rank_biserial(norms.loc[present & frequent, "norm"], norms.loc[~present & frequent, "norm"]) \
            if (present & frequent).any() and (~present & frequent).any() else None
        ranks = rank if end == "lowest" else n + 1 - rank
        found = ", ".join(f"{w} {ranks[w]:,}" for w in words if w in ranks.index)
        shared = len(set(ours["word"]) & set(words))
        evidence = (f"our 10 {end}: {' '.join(map(code, ours['word']))}; {shared} of the paper's 10 among them; its "
                    f"words at ranks {found} of {n:,} ({'1 = the lowest' if end == 'lowest' else '1 = the highest'})"
                    + (f"; r {among['r']:+.3f} among the {FREQUENT:,} most frequent words" if among else ""))
        claims.append(claim(key, "§4.4", statement, listed, evidence, expects=expects, effect=res["r"],
                            ci95=res["ci95"], p=res["p"], seeds={model: [model]},
                            test="Mann-Whitney U of the norms of the paper's words against every other word's, "
                                 "two-sided; effect the rank-biserial correlation with its 95% BCa bootstrap interval "
                                 "over the paper's words"))
    rare = norms.loc[norms["frequency_rank"] >= FREQUENT, "norm"]
    parts = ["## Word norms (Kenter et al. §4.4)\n",
             "Siamese CBOW's sentence vector is the plain average of its word vectors, so a word can only weigh less "
             "by a shorter vector: the paper finds the 10 shortest to be function words and many of the longest to "
             f"be personal pronouns. Ours, `siamese_cbow`, over its {n:,} words, beside the paper's lists. Norms move "
             "away from the initialisation's only for frequent words (the figure `word_norms.svg`; the median norm "
             f"of the words outside the {FREQUENT:,} most frequent is {rare.median():.3f}), so each claim's line also "
             f"gives the rank-biserial r among the {FREQUENT:,} most frequent words.\n",
             to_markdown(pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in columns.items()}).fillna("")), ""]
    return parts, claims


def williams_per_set(ws: Workspace, a: str, b: str) -> tuple[pd.DataFrame, int, int]:
    """Williams' test of model ``a`` against ``b`` on each of Kenter's sets: the table, and on how many sets ``a`` is
    significantly better (p < 0.05) and significantly worse."""
    w = williams_table(ws.pair_scores(a), ws.pair_scores(b))
    w = w[w["group"].isin(KENTER_GROUPS)]
    better, worse = int(((w["p"] < 0.05) & (w["t"] > 0)).sum()), int(((w["p"] < 0.05) & (w["t"] < 0)).sum())
    return w, better, worse


def in_batch_evidence(ws: Workspace, model: str) -> list[str]:
    """Siamese CBOW trained with in-batch negatives beside the paper's sampler: Wilcoxon over Kenter's sets and
    Williams' test per set."""
    c = paired_over_datasets(runs(ws, model), runs(ws, "siamese_cbow"))
    w, better, worse = williams_per_set(ws, model, "siamese_cbow")
    verdict = "no significant difference" if c["p"] >= 0.05 else "a significant difference"
    return ["## In-batch negatives: the faster sampler beside the paper's\n",
            f"`{model}` is `siamese_cbow` with each centre's negatives drawn from the batch's other tuples, reweighted "
            "to be uniform over the corpus (`model.negatives: batch`, docs/choices.md), where the paper draws them "
            f"from the whole corpus. Over Kenter's {c['datasets']} sets: {verdict} "
            f"({comparison_evidence('in-batch', 'corpus', c)}); Williams' t per set: in-batch significantly better "
            f"(p < 0.05) on {better} of {len(w)} sets, significantly worse on {worse}.\n"]


def settings_table(ws: Workspace, config: Kenter2016Report) -> pd.DataFrame:
    """Figures 3 and 4's runs: model, what it varies (negatives or dimensions), its value (from the training record)
    and STS12-15."""
    rows = []
    for what, models, field in (("negatives", config.negatives, "neg"), ("dimensions", config.dimensions, "dim")):
        for m in models if len(models) > 1 else []:
            rows.append({"model": m, "varies": what, "value": ws.training(m)["config"][field],
                         "STS12-15": ws.metrics(m)["STS12-15"]["pearson"]})
    return pd.DataFrame(rows)


def settings_claims(ws: Workspace, config: Kenter2016Report, scbow: dict[str, pd.Series] | None) -> list[dict]:
    """Figure 3: "the number of negative examples has limited effect": each other number level with the model's 2
    (±1 point); Figure 4: "a dimensionality that is too low (50 or 100) invariably leads to inferior results": the
    model's 300 beats every run below 150 dimensions."""
    if scbow is None:
        return []
    out = []
    for m in (m for m in config.negatives if m != "siamese_cbow") if len(config.negatives) > 1 else ():
        neg = ws.training(m)["config"]["neg"]
        c = paired_over_datasets(runs(ws, m), scbow)
        out.append(comparison_claim(
            f"siamese_cbow-neg{neg}-level-neg2", "§4.2.2, Figure 3", f"{neg} negative{'s' * (neg > 1)} score as "
            "the default 2 (the number of negatives has limited effect)", "\"on most sets, the number of negative "
            "examples has limited effect\"", f"{neg} negative{'s' * (neg > 1)}", "2 negatives", c, expects="level"))
    for m in (m for m in config.dimensions if m != "siamese_cbow") if len(config.dimensions) > 1 else ():
        dim = ws.training(m)["config"]["dim"]
        if dim < 150:
            c = paired_over_datasets(scbow, runs(ws, m))
            out.append(comparison_claim(
                f"siamese_cbow-dim300-beats-dim{dim}", "§4.2.3, Figure 4", f"300 dimensions beat {dim} (a "
                "dimensionality that is too low leads to inferior results)", "\"invariably leads to inferior "
                "results\"", "300 dimensions", f"{dim} dimensions", c))
    return out


def best_per_set_claim(ws: Workspace, reference: pd.DataFrame) -> dict:
    """§6: "in a majority of cases, 14 out of 20, Siamese CBOW outperforms" its baselines: on how many sets Siamese
    CBOW scores highest of itself and the two word2vec averages, against the 1/3 of three exchangeable models (exact
    binomial test); the paper's own count over the same three systems from its Table 1."""
    ours = pd.DataFrame({m: seed_mean(runs(ws, m)) for m in KENTER_SYSTEMS}).dropna()
    theirs = reference.pivot_table(index=["group", "dataset"], columns="system", values="pearson")
    theirs = theirs[list(KENTER_SYSTEMS.values())].dropna()
    k_paper = highest_of(theirs, "siamese_cbow")
    c = count_above_chance(highest_of(ours, "siamese_cbow"), len(ours), 1 / len(KENTER_SYSTEMS))
    return claim("siamese_cbow-best-per-set", "§6", "Siamese CBOW scores highest of itself and the two word2vec "
                 "averages on most sets", f"{k_paper} of {len(theirs)} sets (14 of 20 with skip-thought too)",
                 f"highest on {c['k']} of {c['n']} sets", effect=c["effect"], ci95=c["ci95"], p=c["p"],
                 paper_effect=k_paper / len(theirs) - c["chance"], seeds={m: ws.seeds(m) for m in KENTER_SYSTEMS},
                 test="exact binomial test of the share of sets where Siamese CBOW is highest against 1/3 (three "
                      "exchangeable models), two-sided; effect the share − 1/3 with its Clopper-Pearson 95% interval")


def evidence(ws: Workspace, config: Kenter2016Report, reference: pd.DataFrame,
             norms: tuple[list[str], list[dict]] | None, settings: pd.DataFrame) -> tuple[list[str], pd.DataFrame]:
    """Williams' test per dataset, the unknown-word treatments, the controls, the training-amount curve, the
    negatives and dimensions (``settings``: :func:`settings_table`), the word norms (``norms``: the section and claims
    of :func:`norms_evidence`; None without Siamese CBOW) and the claims of Kenter et al. (``reference``:
    :func:`read_kenter_table`); the curve's table."""
    paper = paper_means(reference)
    parts: list = []
    claims = []
    models = set(config.models)
    scbow = runs(ws, "siamese_cbow") if "siamese_cbow" in models else None
    sets = f"its {len(KENTER_GROUPS) * 5 - 1} sets other than 2013 SMT"
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
        c = paired_over_datasets(scbow, runs(ws, "word2vec-cbow"))
        claims.append(comparison_claim(
            "siamese_cbow-beats-cbow", "Table 1", "Siamese CBOW beats averaged word2vec CBOW vectors on STS 2012-2015",
            f"{paper['siamese_cbow']:.2f} vs {paper['word2vec_cbow']:.2f} over {sets}", "Siamese CBOW", "CBOW", c,
            extra=f"; Williams per set: better on {better}, worse on {worse} of {len(w)}",
            paper_effect=paper["siamese_cbow"] - paper["word2vec_cbow"]))
    if {"siamese_cbow", "word2vec-sg"} <= models:
        c = paired_over_datasets(scbow, runs(ws, "word2vec-sg"))
        claims.append(comparison_claim(
            "siamese_cbow-beats-skipgram", "Table 1", "Siamese CBOW beats averaged word2vec skip-gram vectors",
            f"{paper['siamese_cbow']:.2f} vs {paper['word2vec_skipgram']:.2f} over {sets}", "Siamese CBOW",
            "skip-gram", c, paper_effect=paper["siamese_cbow"] - paper["word2vec_skipgram"]))
    if set(KENTER_SYSTEMS) <= models:
        claims.append(best_per_set_claim(ws, reference))
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
            c = paired_over_datasets(scbow, runs(ws, "untrained-1"))
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
    # Figure 2: the first of the authors' 5 epochs against their end; siamese_cbow has the end's Σ lr (67 in the full
    # run), the first epoch about a fifth of it: the longest run of the curve at or below a quarter
    end = ws.training("siamese_cbow").get("lr_sum", 0.0) if scbow is not None else 0.0
    first = curve[(curve["model"] != "siamese_cbow") & (curve["lr_sum"] > 0) & (curve["lr_sum"] <= end / 4)] \
        if not curve.empty else curve
    if scbow is not None and len(first):
        early = first.iloc[-1]
        c = paired_over_datasets(runs(ws, early["model"]), scbow)
        claims.append(comparison_claim(
            "siamese_cbow-stable-over-training", "§4.2.1, Figure 2", "Siamese CBOW's scores are stable over training: "
            "after about the first of the authors' 5 epochs as at their end",
            "\"on the majority of datasets the performance shows very little variation\" (3 of 20 sets drift)",
            f"Σ lr {early['lr_sum']:g}", f"Σ lr {end:g}", c, expects="level"))
    if not settings.empty:
        parts += ["## Negatives and dimensions (Kenter et al. Figures 3 and 4's analogues)\n",
                  "Siamese CBOW with every setting as `siamese_cbow` but one: the negative sentences a centre "
                  "(`model.neg`; the paper's default 2) or the vectors' dimension (`model.dim`; 300). Mean Pearson "
                  "×100 over the 19 staged STS 2012-2015 sets.\n", to_markdown(settings), ""]
        claims += settings_claims(ws, config, scbow)
    if norms is not None:
        parts += norms[0]
        claims += norms[1]
    staged = {"negatives": len(config.negatives) > 1, "dimensions": len(config.dimensions) > 1}
    for key, figure, statement, reason in (
            ("stable-over-negatives", "§4.2.2, Figure 3", "the number of negative examples (1, 2, 5, 10) has "
             "limited effect on Siamese CBOW", "the runs with 1, 5 and 10 negatives are not staged yet"),
            ("stable-over-dimensions", "§4.2.3, Figure 4", "a moderate dimension (200 or 300) beats 50 or 100 and "
             "matches 600 or 1,200", "the runs at other dimensions than 300 are not staged yet")):
        if not staged[key.removeprefix("stable-over-")]:
            claims.append(not_testable(f"siamese_cbow-{key}", figure, statement, "a curve per set, no single figure",
                                       reason))
    claims.append(not_testable(
        "siamese_cbow-beats-skipthought", "Table 1", "Siamese CBOW beats skip-thought vectors",
        f"{paper['siamese_cbow']:.2f} vs {paper['skip_thought']:.2f} over {sets}",
        "skip-thought (Kiros et al. 2015: a GRU encoder-decoder trained for weeks on the Toronto Book Corpus) is not "
        "part of this project"))
    parts += ["## Claims of Kenter et al. (2016), on our runs\n",
              "Each comparison is judged on the 19 staged STS 2012-2015 sets by a two-sided Wilcoxon signed-rank test "
              "over the per-dataset Pearson r (the effect: the difference of the means with its 95% BCa bootstrap "
              f"interval over the sets), a level claim by two one-sided Wilcoxon tests against ±{LEVEL_MARGIN:g} point "
              "(TOST); §6's count and §4.4's norm claims by the test their line names. Every p is Holm-adjusted over "
              f"this paper's claims (α = {ALPHA}); each line says whether the paper's own effect lies inside our "
              f"interval. {SEEDS_NOTE}\n",
              ClaimsBlock(claims)]
    return parts, curve


def gap_rows(ws: Workspace, config: Kenter2016Report, reference: pd.DataFrame, curve: pd.DataFrame) -> list[dict]:
    """Each Table 1 model's mean over the 19 sets beside the paper's; Siamese CBOW's gap names the training-amount
    curve, the runs that test the amount of training as its cause."""
    paper, rows = paper_means(reference), []
    for m, system in KENTER_SYSTEMS.items():
        if m not in config.models:
            continue
        control = ""
        if m == "siamese_cbow" and len(curve) > 1:
            best = curve.loc[curve["STS12-15"].idxmax()]
            control = (f"the training-amount curve (Σ lr {curve['lr_sum'].min():g}-{curve['lr_sum'].max():g}): best "
                       f"{best['STS12-15']:.2f} at Σ lr {best['lr_sum']:g} (`{best['model']}`), the amount of "
                       "training; the authors' step size and corpus: untested")
        rows.append({"what": m, "ours": per_set(ws, m).mean(), "paper": paper[system], "control": control})
    return rows


def figures(ws: Workspace, config: Kenter2016Report, curve: pd.DataFrame, settings: pd.DataFrame,
            norms: tuple[pd.DataFrame, pd.DataFrame] | None) -> dict[str, tuple[str, str]]:
    """The report's figures, name → (caption, SVG): Table 1's models per set, the training-amount curve, STS12-15
    against the negatives and the dimensions (``settings``: :func:`settings_table`), the loss of each Siamese CBOW
    run, Siamese CBOW's word norms against corpus count (``norms``: :meth:`Workspace.word_norms` and
    :func:`read_norm_lists`; None without Siamese CBOW)."""
    out = {"table1.svg": ("Pearson r per STS 2012-2015 set", dataset_bars(
        pd.DataFrame({m: per_set(ws, m) for m in config.models}), "Kenter et al.'s sets: Pearson r × 100 per set"))}
    if not curve.empty:
        out["training_amount.svg"] = ("STS12-15 against the summed learning rate", curves(
            {"STS12-15": curve.set_index("lr_sum")["STS12-15"]}, "Training amount (Figure 2's analogue)",
            "Σ lr over the run (symmetric log scale)", "mean Pearson r × 100, 19 sets", log_x=True, marker="o"))
    for what, axis in (("negatives", "negative sentences a centre"), ("dimensions", "vector dimension")):
        rows = settings[settings["varies"] == what] if not settings.empty else settings
        if len(rows) > 1:
            out[f"{what}.svg"] = (f"STS12-15 against the {axis}", curves(
                {"STS12-15": rows.set_index("value")["STS12-15"].sort_index()},
                f"Siamese CBOW: {what} (Figure {3 if what == 'negatives' else 4}'s analogue)", axis,
                "mean Pearson r × 100, 19 sets", marker="o"))
    trained = [m for m in ("siamese_cbow" if "siamese_cbow" in config.models else None, config.in_batch) if m]
    if trained:
        out["loss.svg"] = ("Siamese CBOW's training loss", curves(
            {m: ws.training_log(m).set_index("step")["loss"] for m in trained}, "Siamese CBOW: training loss",
            "batch", "softmax cross-entropy"))
    if norms is not None:
        table, lists = norms
        marked = {f"the paper's 10 {end}": lists.loc[lists["end"] == end, "token"].tolist() for end in NORM_CLAIMS}
        out["word_norms.svg"] = ("Siamese CBOW's word norms against corpus count (§4.4)", norms_by_frequency(
            table, marked, "Siamese CBOW: vector norm against corpus count"))
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
    norms = None
    if "siamese_cbow" in config.models:
        lowercase = ws.model("siamese_cbow")["text"]["lowercase"]
        norms = (ws.word_norms("siamese_cbow"),
                 read_norm_lists(ws.reference("kenter2016_norms.csv"), lowercase))
    settings = settings_table(ws, config)
    more, curve = evidence(ws, config, reference, norms_evidence(*norms) if norms else None, settings)
    parts += more
    parts += gaps_section(gap_rows(ws, config, reference, curve), "Kenter et al.'s Table 1")
    if config.in_batch and "siamese_cbow" in config.models:
        parts += in_batch_evidence(ws, config.in_batch)
    corpus = ws.json("metrics/corpus.json")
    parts += ["## Training corpus\n", "| " + " | ".join(corpus) + " |", "|" + "---|" * len(corpus),
              "| " + " | ".join(str(v) for v in corpus.values()) + " |", ""]
    return report_with_figures("kenter2016", parts, figures(ws, config, curve, settings, norms)), curve
