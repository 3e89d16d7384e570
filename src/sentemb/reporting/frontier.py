"""The static frontier: each evaluated model's STS12-15 score against its encoding speed, every paraphrastic teacher
beside its static student (``models/TEACHER-static``, distilled as model2vec does: Tulkens & van Dongen 2024), all
trained on one corpus, so that the trade between a recurrent encoder and its static table is measured like for like.

Speed is measured as a user runs a model: ``load_model(directory).encode`` on the first N distinct sentences of
STS 2012-2015, on raw text (the model tokenises them) or with the benchmark token cache loaded (every model reads the
same tokens, so the time is the encoder's), one process, torch and numpy's BLAS on one thread, after one warm-up
call, best of R rounds. A clock reading varies by run, so no pipeline output holds one (docs/choices.md,
Determinism): ``benchmarks/encode_speed.py`` times the models and draws the frontier (:func:`frontier_figure`); the
harness report shows each teacher beside its student by score alone (:func:`student_section`).
"""

from __future__ import annotations

import sys
import time

import matplotlib.pyplot as plt
import pandas as pd
from threadpoolctl import threadpool_limits

from sentemb.core.data.benchmarks import STSDataset
from sentemb.papers.kenter2016 import KENTER_GROUPS
from sentemb.reporting.figures import STYLE, svg_text
from sentemb.reporting.tables import to_markdown

STUDENT = "-static"
"""A static student's name: its teacher's name and this suffix (the ``student`` stages)."""


def speed_sentences(datasets: list[STSDataset], n: int) -> list[str]:
    """The first ``n`` distinct sentences of the STS 2012-2015 sets of ``datasets``, in file order (fewer when the
    sets hold fewer)."""
    sentences = (s for d in datasets if d.group in KENTER_GROUPS for s in (*d.sentences1, *d.sentences2))
    return list(dict.fromkeys(sentences))[:n]


def encoding_speed(model, sentences: list[str], rounds: int) -> float:
    """Sentences per second of ``model.encode(sentences)``, best of ``rounds`` after one warm-up call on the first
    100 (lazy tables, torch's first call), on one thread: torch's (and so the compiled kernels', which follow
    torch's count; torch's count is put back afterwards) and numpy's BLAS.

    Raises:
        ValueError: no sentences or ``rounds`` below 1.
    """
    if not sentences or rounds < 1:
        raise ValueError(f"encoding_speed: need sentences and rounds >= 1 (got {len(sentences)}, {rounds})")
    torch = sys.modules.get("torch")  # imported by the models that run on torch, and only by them
    threads = torch.get_num_threads() if torch else None
    with threadpool_limits(limits=1):
        if torch:
            torch.set_num_threads(1)
        try:
            model.encode(sentences[:100])
            best = float("inf")
            for _ in range(rounds):
                start = time.perf_counter()
                model.encode(sentences)
                best = min(best, time.perf_counter() - start)
        finally:
            if torch:
                torch.set_num_threads(threads)
    return len(sentences) / best


def frontier_table(speed: pd.DataFrame, sts: dict[str, float]) -> pd.DataFrame:
    """One row per model with both a speed and a score.

    Args:
        speed: columns ``model`` and ``sentences_per_s`` (``benchmarks/encode_speed.py``'s).
        sts: model → STS12-15 mean Pearson ×100.

    Returns:
        Indexed by model: ``kind`` (``teacher``: a model whose student is in the table; ``student``; ``other``),
        ``STS12-15``, ``sentences_per_s``.
    """
    table = speed.set_index("model")[["sentences_per_s"]]
    table = table[table.index.isin(list(sts))].assign(**{"STS12-15": lambda t: [sts[m] for m in t.index]})
    names = set(table.index)
    table["kind"] = ["student" if m.endswith(STUDENT) else "teacher" if m + STUDENT in names else "other"
                     for m in table.index]
    return table[["kind", "STS12-15", "sentences_per_s"]].sort_index()


def teacher_student_pairs(table: pd.DataFrame) -> pd.DataFrame:
    """Each teacher of :func:`frontier_table` beside its student.

    Returns:
        Indexed by teacher: ``teacher``, ``student`` (STS12-15), ``student − teacher`` (points), ``speed-up`` (the
        student's sentences/s over the teacher's).
    """
    teachers = table.index[table["kind"] == "teacher"]
    students = teachers + STUDENT
    teacher, student = table.loc[teachers], table.loc[students].set_axis(teachers)
    return pd.DataFrame({"teacher": teacher["STS12-15"], "student": student["STS12-15"],
                         "student − teacher": student["STS12-15"] - teacher["STS12-15"],
                         "speed-up": student["sentences_per_s"] / teacher["sentences_per_s"]}).rename_axis("model")


def frontier_figure(table: pd.DataFrame) -> str:
    """STS12-15 against sentences/s (log scale), a marker per kind and an arrow from each teacher to its student.

    Returns:
        The SVG text (:mod:`sentemb.reporting.figures`: the same bytes for the same numbers).
    """
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for kind, marker in (("other", "o"), ("teacher", "s"), ("student", "^")):
            part = table[table["kind"] == kind]
            ax.scatter(part["sentences_per_s"], part["STS12-15"], marker=marker, s=18, label=kind, zorder=3)
        for teacher in table.index[table["kind"] == "teacher"]:
            a, b = table.loc[teacher], table.loc[teacher + STUDENT]
            ax.annotate("", (b["sentences_per_s"], b["STS12-15"]), (a["sentences_per_s"], a["STS12-15"]),
                        arrowprops={"arrowstyle": "->", "linewidth": 0.6, "color": "grey"})
            ax.annotate(teacher, (a["sentences_per_s"], a["STS12-15"]), fontsize=6, xytext=(3, -8),
                        textcoords="offset points")
        ax.set_xscale("log")
        ax.set_xlabel("sentences/s, one thread (log scale)")
        ax.set_ylabel("STS12-15, mean Pearson r × 100")
        ax.set_title("Quality against encoding speed: teachers → their static students")
        ax.grid(linewidth=0.3)
        ax.legend(fontsize=7, frameon=False)
        return svg_text(fig)


def student_section(sts: dict[str, float]) -> str:
    """The harness report's section on the static students: each teacher that has one beside it, STS12-15 mean
    Pearson ×100 and the difference (their speeds: ``benchmarks/encode_speed.py``, docs/ecosystem.md).

    Args:
        sts: model → STS12-15 mean Pearson ×100 (the evaluation's).
    """
    teachers = sorted(m for m in sts if not m.endswith(STUDENT) and m + STUDENT in sts)
    rows = pd.DataFrame({"model": teachers, "teacher": [sts[m] for m in teachers],
                         "student": [sts[m + STUDENT] for m in teachers]})
    rows["student − teacher"] = rows["student"] - rows["teacher"]
    return "\n".join([
        "## The static students", "",
        "Each paraphrastic teacher beside its static student (model2vec's distillation: every vocabulary word encoded "
        "alone, PCA, SIF weights; `student` stages), STS12-15 mean Pearson ×100 from the evaluation. How much faster "
        "each student encodes is a clock reading, not a pipeline output: `python benchmarks/encode_speed.py` times "
        "them on raw text and draws the quality-against-speed frontier (docs/ecosystem.md).", "",
        to_markdown(rows.round(2)) if len(rows) else "No teacher with a student in this run.", "",
    ])
