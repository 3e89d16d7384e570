"""The reports' figures: SVG drawn by matplotlib, embedded in the markdown as images, so that they open anywhere
without a network or JavaScript (``dvc plots`` stays the tool for comparing experiments).

The SVG is reproducible: no date in its metadata, a fixed salt for its element ids and text kept as text, so the same
numbers give the same bytes and DVC sees an unchanged output.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, never a window

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sentemb.core.atomic import atomic_open, atomic_path
from sentemb.reporting.claims import resolve_claims

STYLE = {"svg.hashsalt": "sentemb", "svg.fonttype": "none", "font.size": 9, "axes.spines.top": False,
         "axes.spines.right": False}


@dataclass
class Report:
    """A report as the report stage writes it: ``reports/PAPER.md`` and its figures, ``reports/figures/PAPER/NAME``.

    Attributes:
        markdown: the report's text; it links each figure as ``figures/PAPER/NAME``.
        figures: file name (``NAME.svg``) → SVG text.
        claims: the claims ledger, every claim judged (:func:`~sentemb.reporting.claims.resolve_claims`).
    """

    markdown: str
    figures: dict[str, str] = field(default_factory=dict)
    claims: list[dict] = field(default_factory=list)

    def write(self, reports: str | Path, name: str) -> None:
        """Write ``REPORTS/NAME.md`` and ``REPORTS/figures/NAME/`` (replacing the folder whole), each atomically: an
        interruption leaves the old files or the new, never a mix within one."""
        with atomic_path(Path(reports) / "figures" / name) as tmp:
            tmp.mkdir(parents=True)
            for file, svg in self.figures.items():
                (tmp / file).write_text(svg, encoding="utf-8")
        with atomic_open(Path(reports) / f"{name}.md") as fh:
            fh.write(self.markdown)


def svg_text(fig) -> str:
    """The figure as SVG text (no date, so the same numbers give the same bytes), the figure closed."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(fig)
    return buffer.getvalue()


def dataset_bars(scores: pd.DataFrame, title: str, xlabel: str = "Pearson r × 100") -> str:
    """Grouped horizontal bars: a group per row of ``scores`` (a dataset, or a mean), a bar per column (a model).

    Args:
        scores: float, rows × models; missing values leave a gap.

    Returns:
        The SVG text.
    """
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(7.5, 0.22 * len(scores) * max(1, len(scores.columns)) ** 0.5 + 1.2))
        scores.iloc[::-1].plot.barh(ax=ax, width=0.8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("")
        ax.set_title(title)
        ax.grid(axis="x", linewidth=0.3)
        ax.legend(fontsize=7, loc="lower right", frameon=False)
        return svg_text(fig)


def curves(lines: dict[str, pd.Series], title: str, xlabel: str, ylabel: str, log_x: bool = False,
           marker: str | None = None) -> str:
    """One line per entry of ``lines`` (label → y indexed by x), on shared axes.

    Returns:
        The SVG text.
    """
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6.5, 3.4))
        for label, series in lines.items():
            ax.plot(series.index, series.to_numpy(), label=label, marker=marker, linewidth=1)
        if log_x:
            ax.set_xscale("symlog", linthresh=1)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(linewidth=0.3)
        if len(lines) > 1:
            ax.legend(fontsize=7, frameon=False)
        return svg_text(fig)


def norms_by_frequency(norms: pd.DataFrame, marked: dict[str, list[str]], title: str, bins: int = 24) -> str:
    """Word-vector norm against corpus count: the median and the 10th-90th percentile band of the norms in each of
    ``bins`` log-spaced count bins, and the words of ``marked`` (label → words) as labelled points.

    Args:
        norms: one row per word: ``word``, ``count`` (int, ≥ 1), ``norm`` (float).

    Returns:
        The SVG text.
    """
    edges = np.geomspace(norms["count"].min(), norms["count"].max() * 1.000001, bins + 1)
    bin_of = np.clip(np.searchsorted(edges, norms["count"].to_numpy(), side="right") - 1, 0, bins - 1)
    q = norms["norm"].groupby(bin_of).quantile([0.1, 0.5, 0.9]).unstack()  # the bins that hold words
    centres = np.sqrt(edges[:-1] * edges[1:])[q.index.to_numpy()]
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        ax.fill_between(centres, q[0.1], q[0.9], alpha=0.2, linewidth=0, label="10th-90th percentile of the words")
        ax.plot(centres, q[0.5], linewidth=1, label="median")
        by_word = norms.set_index("word")
        for (label, words), colour in zip(marked.items(), ("C1", "C2"), strict=False):
            rows = by_word.loc[[w for w in words if w in by_word.index]]
            ax.scatter(rows["count"], rows["norm"], s=12, color=colour, label=label, zorder=3)
            for word, row in rows.iterrows():
                ax.annotate(word, (row["count"], row["norm"]), fontsize=6, xytext=(2, 2), textcoords="offset points")
        ax.set_xscale("log")
        ax.set_xlabel("corpus count of the word")
        ax.set_ylabel("L2 norm of its vector")
        ax.set_title(title)
        ax.grid(linewidth=0.3)
        ax.legend(fontsize=7, frameon=False)
        return svg_text(fig)


def figure_link(paper: str, name: str, caption: str) -> str:
    """The markdown that shows ``reports/figures/PAPER/NAME`` inside ``reports/PAPER.md``."""
    return f"![{caption}](figures/{paper}/{name})\n"


def report_with_figures(paper: str, parts: list, drawn: dict[str, tuple[str, str]]) -> Report:
    """``reports/PAPER.md`` as the markdown ``parts`` followed by a "Figures" section that links each drawn figure,
    the figures to write beside it, and the claims ledger.

    Args:
        parts: markdown strings and :class:`~sentemb.reporting.claims.ClaimsBlock` lists, judged together (one
            family for Holm's adjustment) and rendered in place.
        drawn: file name (``NAME.svg``) → (caption, SVG text).
    """
    parts, ledger = resolve_claims(parts)
    links = [figure_link(paper, name, caption) for name, (caption, _) in drawn.items()]
    return Report("\n".join([*parts, "## Figures\n", *links]), {name: svg for name, (_, svg) in drawn.items()},
                  ledger)
