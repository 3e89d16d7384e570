"""The report tables: our per-dataset scores beside the published ones (Kenter et al. 2016 Table 1; Bollegala et
al. Tables 1-3; Wieting & Gimpel 2017 Tables 1-3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sentemb.core.data.benchmarks import KENTER_GROUPS, STS_YEARS
from sentemb.core.errors import SentembError
from sentemb.reporting.significance import fisher_interval

# our model name → Kenter et al.'s system name in Table 1
KENTER_SYSTEMS = {"word2vec-sg": "word2vec_skipgram", "word2vec-cbow": "word2vec_cbow", "siamese_cbow": "siamese_cbow"}
# Kenter et al. abbreviate two 2015 names
KENTER_NAMES = {"answ-forums": "answers-forums", "answ-students": "answers-students"}
YEAR_GROUP = {int(v): k for k, v in STS_YEARS.items()}


def read_reference(path: str | Path, need: set[str], what: str) -> pd.DataFrame:
    """A reference CSV of published numbers; raises SentembError for a missing file or missing columns."""
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing reference table ({what})")
    df = pd.read_csv(p)
    if not need <= set(df.columns):
        raise SentembError(f"{p}: expected columns {sorted(need)}, found {list(df.columns)}")
    return df


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


def mark_significant(table: pd.DataFrame, p: pd.DataFrame, column: str, alpha: float = 1e-4) -> pd.DataFrame:
    """Format ``column`` of a :func:`kenter_table` as text, with a † where the dataset's p < ``alpha``.

    Args:
        table: rows (group, dataset, ...).
        p: rows (group, dataset, p), from :func:`wilcoxon_table`; datasets absent from it get no mark.
        column: the model column to mark.
        alpha: significance level (Kenter et al. §3.3: 0.0001).
    """
    out = table.merge(p, on=["group", "dataset"], how="left")
    out[column] = marked(out[column], out["p"].fillna(1.0) < alpha, "†")
    return out.drop(columns="p")


def marked(values: pd.Series, flags: pd.Series, mark: str) -> list[str]:
    """Numbers as text with 2 decimals and `` mark`` where ``flags`` is true; missing numbers print as ``—``."""
    return [("—" if pd.isna(v) else f"{v:.2f}" + (f" {mark}" if f else "")) for v, f in zip(values, flags, strict=True)]


def to_markdown(table: pd.DataFrame) -> str:
    """A GitHub-flavoured markdown table; missing numbers print as ``—``."""
    header = "| " + " | ".join(table.columns) + " |"
    numeric = [pd.api.types.is_numeric_dtype(table[c]) for c in table.columns]
    sep = "|" + "|".join("---:" if n and c not in ("group", "dataset") else "---" for c, n in zip(
        table.columns, numeric, strict=True)) + "|"
    lines = [header, sep]
    for _, row in table.iterrows():
        cells = [("—" if pd.isna(v) else f"{v:.2f}") if isinstance(v, float) else str(v) for v in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# Bollegala et al. (NWS paper) name the input vectors sgns / cbow / glove
NWS_EMBEDDINGS = {"word2vec-sg": "sgns", "word2vec-cbow": "cbow", "glove": "glove"}
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


def gran_dataset_table(ours: dict[str, pd.DataFrame], sets: list[str]) -> pd.DataFrame:
    """A row per evaluation set (``group.dataset``) and a column per model: Pearson ×100, with the mean row."""
    table = pd.DataFrame({"set": sets})
    for name, df in ours.items():
        table[name] = table["set"].map(dict(zip(df["set"], df["pearson"], strict=True)))
    mean = {"set": f"mean ({len(sets)} sets)"} | {n: table[n].mean() for n in ours}
    return pd.concat([table, pd.DataFrame([mean])], ignore_index=True).round(2)
