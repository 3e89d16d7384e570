"""STS scoring: cosine similarity of two sentence embeddings, Pearson/Spearman against gold per dataset, and the
aggregates: per-year means, and the unweighted mean over any named list of sets (:class:`SetMean`; each paper's own
are in :mod:`sentemb.papers`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sentemb.core.data.benchmarks import STS_YEARS, STSDataset
from sentemb.core.evaluation.config import EvaluateConfig
from sentemb.core.evaluation.correlation import correlations
from sentemb.core.evaluation.cosine import cosine_scores
from sentemb.core.evaluation.word_similarity import word_similarity
from sentemb.core.models.word_averaging import WordAveragingModel


@dataclass(frozen=True)
class SetMean:
    """A mean a paper reports: the unweighted mean of Pearson's r and Spearman's ρ over its sets.

    Attributes:
        name: the metric's key (``STS12-15``).
        groups: whole groups of sets (``STS12`` …), and/or
        sets: single sets (``group.dataset``).
        complete: recorded only when every group of ``groups`` was evaluated (otherwise: when any of its sets was).
    """

    name: str
    groups: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    complete: bool = False

    def rows(self, datasets: pd.DataFrame) -> pd.DataFrame | None:
        """The rows of an :class:`Evaluation`'s ``datasets`` frame that the mean is over; None when it is not
        recorded."""
        chosen = datasets[datasets["group"].isin(self.groups) | datasets["set"].isin(self.sets)]
        if self.complete and set(chosen["group"]) != set(self.groups):
            return None
        return chosen if len(chosen) else None


@dataclass
class Evaluation:
    """Per-dataset rows and per-pair scores of one model on a list of datasets."""

    datasets: pd.DataFrame  # group, dataset, set (group.dataset), pairs, pearson, spearman, no_known_word
    pairs: pd.DataFrame  # group, dataset, pair, gold, score


def evaluate(model, datasets: list[STSDataset]) -> Evaluation:
    """Score every pair by the cosine of the two sentence embeddings; correlate with gold per dataset.

    Args:
        model: anything with ``encode(list[str]) -> ndarray (n, dim)``.
        datasets: from :func:`load_benchmarks`.
    """
    # Both sides in one call, so that a model that fits something per set (SIF's common component) sees the whole
    # evaluation set, as the SIF authors' code does.
    return evaluate_embeddings(datasets, (model.encode(both_sides(ds)) for ds in datasets))


def both_sides(ds: STSDataset) -> list[str]:
    """A dataset's first sentences, then its second sentences: ``2 × len(ds)`` strings."""
    return list(ds.sentences1) + list(ds.sentences2)


def evaluate_embeddings(datasets: list[STSDataset], embeddings: Iterable[np.ndarray]) -> Evaluation:
    """:func:`evaluate` from embeddings already made: for each dataset, float (2 × len(ds), dim), its
    :func:`both_sides` encoded, in the order of ``datasets``."""
    rows, pair_frames = [], []
    for ds, emb in zip(datasets, embeddings, strict=True):
        scores, undefined = cosine_scores(emb[: len(ds)], emb[len(ds) :])
        r, rho = correlations(scores, ds.gold)
        rows.append({"group": ds.group, "dataset": ds.name, "set": ds.key, "pairs": len(ds), "pearson": r,
                     "spearman": rho, "no_known_word": int(undefined.sum())})
        pair_frames.append(pd.DataFrame({"group": ds.group, "dataset": ds.name, "pair": np.arange(len(ds)),
                                         "gold": ds.gold, "score": scores}))
    return Evaluation(pd.DataFrame(rows), pd.concat(pair_frames, ignore_index=True))


def aggregate(ev: Evaluation, means: Sequence[SetMean] = ()) -> dict:
    """The metrics a run is compared on, all ×100 and rounded to 2 decimals.

    Per STS year: ``pearson``/``spearman`` = unweighted mean over its datasets (the papers, SentEval ``mean``),
    ``pearson_wmean`` = mean weighted by pairs (SentEval ``wmean``), ``pearson_pooled`` = r over all the year's
    pairs pooled (the shared tasks' "ALL"), and ``pairs``. SICK-R, STS-B dev/test: ``pearson``, ``spearman``.
    Each of ``means``, in order, under its name: ``pearson``, ``spearman`` and ``datasets`` (the pipeline's:
    :data:`sentemb.papers.MEANS`, ``STS12-15``, ``NWS-18``, ``GRAN-22``).
    ``all``: unweighted mean over every evaluated dataset.
    ``pairs_without_known_word``: pairs scored 0 because a sentence had no known word.
    """
    d, p = ev.datasets, ev.pairs
    out: dict = {}
    for group, rows in d.groupby("group", sort=False):
        if group in STS_YEARS:
            sub = p[p["group"] == group]
            out[group] = {
                "pearson": round(rows["pearson"].mean(), 2),
                "spearman": round(rows["spearman"].mean(), 2),
                "pearson_wmean": round(float(np.average(rows["pearson"], weights=rows["pairs"])), 2),
                "pearson_pooled": round(correlations(sub["score"].to_numpy(), sub["gold"].to_numpy())[0], 2),
                "pairs": int(rows["pairs"].sum()),
            }
        else:
            for _, row in rows.iterrows():
                key = group if group in ("SICK-R", "PIT-2015") else f"{group}-{row['dataset']}"
                out[key] = {"pearson": round(row["pearson"], 2), "spearman": round(row["spearman"], 2),
                            "pairs": int(row["pairs"])}
    for mean in means:
        rows = mean.rows(d)
        if rows is not None:
            out[mean.name] = {"pearson": round(rows["pearson"].mean(), 2),
                              "spearman": round(rows["spearman"].mean(), 2), "datasets": len(rows)}
    out["all"] = {"pearson": round(d["pearson"].mean(), 2), "spearman": round(d["spearman"].mean(), 2),
                  "datasets": len(d)}
    out["pairs_without_known_word"] = int(d["no_known_word"].sum())
    return out


def score_model(name: str, model, datasets: list[STSDataset], config: EvaluateConfig, means: Sequence[SetMean] = (),
                oov_means: Sequence[str] = ("all",)) -> tuple[dict, Evaluation]:
    """Everything an evaluation stage reports for one model: :func:`aggregate` of :func:`evaluate`, and for a model
    that owns its word vectors (a word-averaging model, not a weighting or an encoder over another model's vectors)
    their word similarity and, when ``name`` is in ``config.oov_both``, the means under the other treatment of
    unknown words (``oov``).

    Args:
        name: the model's name.
        model: a loaded model (:func:`sentemb.core.models.load_model`).
        datasets: from :func:`~sentemb.core.data.benchmarks.load_benchmarks`.
        config: the ``evaluate`` section.
        means: the means to record (:func:`aggregate`).
        oov_means: the metrics compared under both treatments of unknown words (names of ``means``, or ``all``).

    Returns:
        ``(metrics, evaluation)``.
    """
    own_vectors = type(model) is WordAveragingModel
    if own_vectors:
        model.oov = config.oov
    if not (own_vectors and name in config.oov_both):
        ev = evaluate(model, datasets)
        metrics = aggregate(ev, means)
        if own_vectors:
            metrics["word_similarity"] = word_similarity(model.vectors)
        return metrics, ev
    both = [model.mean_vectors_by_oov(both_sides(ds)) for ds in datasets]  # one pass over the words for the two
    other = "random" if config.oov == "drop" else "drop"
    ev = evaluate_embeddings(datasets, (b[config.oov] for b in both))
    metrics = aggregate(ev, means)
    metrics["word_similarity"] = word_similarity(model.vectors)
    metrics["oov"] = {config.oov: {k: metrics[k]["pearson"] for k in oov_means if k in metrics},
                      other: {k: v["pearson"] for k, v in aggregate(evaluate_embeddings(
                          datasets, (b[other] for b in both)), means).items() if k in oov_means}}
    return metrics, ev
