"""STS scoring: cosine similarity of two sentence embeddings, Pearson/Spearman against gold per dataset, and the
aggregates each paper reports (per-year means, Kenter's 19 sets, the NWS paper's 18, Wieting & Gimpel's 22)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sentemb.core.data.benchmarks import GRAN_GROUPS, KENTER_GROUPS, NWS_SETS, STS_YEARS, STSDataset
from sentemb.core.evaluation.config import EvaluateConfig
from sentemb.core.evaluation.correlation import correlations
from sentemb.core.evaluation.cosine import cosine_scores
from sentemb.core.evaluation.word_similarity import word_similarity
from sentemb.core.models.word_averaging import WordAveragingModel


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
    rows, pair_frames = [], []
    for ds in datasets:
        # Both sides in one call, so that a model that fits something per set (SIF's common component) sees
        # the whole evaluation set, as the SIF authors' code does.
        emb = model.encode(list(ds.sentences1) + list(ds.sentences2))
        scores, undefined = cosine_scores(emb[: len(ds)], emb[len(ds) :])
        r, rho = correlations(scores, ds.gold)
        rows.append({"group": ds.group, "dataset": ds.name, "set": ds.key, "pairs": len(ds), "pearson": r,
                     "spearman": rho, "no_known_word": int(undefined.sum())})
        pair_frames.append(pd.DataFrame({"group": ds.group, "dataset": ds.name, "pair": np.arange(len(ds)),
                                         "gold": ds.gold, "score": scores}))
    return Evaluation(pd.DataFrame(rows), pd.concat(pair_frames, ignore_index=True))


def aggregate(ev: Evaluation) -> dict:
    """The metrics a run is compared on, all ×100 and rounded to 2 decimals.

    Per STS year: ``pearson``/``spearman`` = unweighted mean over its datasets (the papers, SentEval ``mean``),
    ``pearson_wmean`` = mean weighted by pairs (SentEval ``wmean``), ``pearson_pooled`` = r over all the year's
    pairs pooled (the shared tasks' "ALL"), and ``pairs``. SICK-R, STS-B dev/test: ``pearson``, ``spearman``.
    ``STS12-15``: unweighted mean over the 19 staged sets of Kenter et al.'s Table 1 (2013 SMT absent).
    ``NWS-18``: unweighted mean over the 18 sets of Bollegala et al.'s Tables 1-2 (:data:`NWS_SETS`).
    ``GRAN-22``: unweighted mean over the 22 sets of Wieting & Gimpel 2017 (STS 2012-2015, SICK test, PIT-2015
    test; 21 staged, 2013 SMT absent), present only when all of them were evaluated.
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
    kenter = d[d["group"].isin(KENTER_GROUPS)]
    if len(kenter):
        out["STS12-15"] = {"pearson": round(kenter["pearson"].mean(), 2),
                           "spearman": round(kenter["spearman"].mean(), 2), "datasets": len(kenter)}
    nws = d[d["set"].isin(NWS_SETS)]
    if len(nws):
        out["NWS-18"] = {"pearson": round(nws["pearson"].mean(), 2), "spearman": round(nws["spearman"].mean(), 2),
                         "datasets": len(nws)}
    gran = d[d["group"].isin(GRAN_GROUPS)]
    if set(gran["group"]) == set(GRAN_GROUPS):
        out["GRAN-22"] = {"pearson": round(gran["pearson"].mean(), 2), "spearman": round(gran["spearman"].mean(), 2),
                          "datasets": len(gran)}
    out["all"] = {"pearson": round(d["pearson"].mean(), 2), "spearman": round(d["spearman"].mean(), 2),
                  "datasets": len(d)}
    out["pairs_without_known_word"] = int(d["no_known_word"].sum())
    return out


def score_model(name: str, model, datasets: list[STSDataset], config: EvaluateConfig) -> tuple[dict, Evaluation]:
    """Everything an evaluation stage reports for one model: :func:`aggregate` of :func:`evaluate`, and for a model
    that owns its word vectors (a word-averaging model, not a weighting or an encoder over another model's vectors)
    their word similarity and, when ``name`` is in ``config.oov_both``, the means under the other treatment of
    unknown words (``oov``).

    Args:
        name: the model's name.
        model: a loaded model (:func:`sentemb.core.models.load_model`).
        datasets: from :func:`~sentemb.core.data.benchmarks.load_benchmarks`.
        config: the ``evaluate`` section.

    Returns:
        ``(metrics, evaluation)``.
    """
    own_vectors = type(model) is WordAveragingModel
    if own_vectors:
        model.oov = config.oov
    ev = evaluate(model, datasets)
    metrics = aggregate(ev)
    if own_vectors:
        metrics["word_similarity"] = word_similarity(model.vectors)
        if name in config.oov_both:
            other = "random" if config.oov == "drop" else "drop"
            model.oov = other
            means = ("STS12-15", "all")
            metrics["oov"] = {config.oov: {k: metrics[k]["pearson"] for k in means if k in metrics},
                              other: {k: v["pearson"] for k, v in aggregate(evaluate(model, datasets)).items()
                                      if k in means}}
            model.oov = config.oov
    return metrics, ev
