"""What every report's tables share: reading a paper's published numbers (reference/), marking significant cells, and
Markdown. Each paper's own tables live in its report module."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sentemb.core.data.benchmarks import STS_YEARS
from sentemb.core.errors import SentembError

YEAR_GROUP = {int(v): k for k, v in STS_YEARS.items()}  # a year of the STS shared task → its group (STS12 …)


def read_reference(path: str | Path, need: set[str], what: str) -> pd.DataFrame:
    """A reference CSV of published numbers; raises SentembError for a missing file or missing columns."""
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing reference table ({what})")
    df = pd.read_csv(p)
    if not need <= set(df.columns):
        raise SentembError(f"{p}: expected columns {sorted(need)}, found {list(df.columns)}")
    return df


def mark_significant(table: pd.DataFrame, p: pd.DataFrame, column: str, alpha: float = 1e-4) -> pd.DataFrame:
    """Format ``column`` of a table (:func:`~sentemb.reporting.kenter2016.kenter_table`) as text, with a † where the
    dataset's p < ``alpha``.

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


GAP = 3.0  # points of Pearson ×100: a gap to a paper's figure this large names the control that tests its cause


def gaps_section(rows: list[dict], paper: str, level: str = "##") -> list[str]:
    """A report's "Gaps to the paper" section: every row whose mean lies :data:`GAP` points or more from the paper's
    figure, with the control that tests a cause of it, or "untested".

    Args:
        rows: dicts with ``what`` (the model or row), ``ours`` and ``paper`` (means, Pearson ×100, over the same sets)
            and ``control``: the run that tests a cause and what it shows, or "" when no run does.
        paper: the paper's short name, for the heading.
        level: the heading's Markdown level.

    Returns:
        The section's parts (empty when no row has such a gap).
    """
    table = pd.DataFrame([{"row": r["what"], "ours": r["ours"], "paper": r["paper"], "gap": r["ours"] - r["paper"],
                           "a cause tested by": r["control"] or "untested"}
                          for r in rows if abs(r["ours"] - r["paper"]) >= GAP])
    if table.empty:
        return []
    return [f"{level} Gaps of {GAP:g} points or more to {paper}\n",
            "Means over the same sets (Pearson ×100). A cause is named here only where a run of this pipeline tests "
            "it; otherwise \"untested\" (`docs/reproduction.md` lists the differences of setting that could be "
            "tested).\n", to_markdown(table), ""]
