"""The harness table: one model's STS 2012-2016 scores under the conventions the field reports, on the raw text and on
SentEval's tokens, so that a reader sees how much of a difference between two papers' numbers is convention.

Per STS year (Agirre et al. 2012-2016), over the cosine similarities of the pairs' two embeddings:

- ``mean``: the mean over the year's sets of Pearson's r (the papers here, and SentEval's "mean"; the evaluate
  stage's ``pearson``);
- ``wmean``: that mean weighted by each set's number of pairs (SentEval's "wmean", which SimCSE and sentence-
  transformers report as "all");
- ``pooled_pearson``: Pearson's r over all the year's pairs pooled (the shared tasks' "ALL");
- ``pooled_spearman``: Spearman's ρ over the pooled pairs, of the cosine as MTEB computes it (MTEB's main STS score:
  its ``cosine_spearman`` over a task that pools the year's sets); MTEB scores a pair with one zero embedding (a
  sentence with no known word) 0.5 and with two 1.0 where sentemb scores both 0 (:func:`mteb_cosine`);
  ``no_known_word`` counts those pairs.

``text``: ``raw``, the files as distributed, tokenised by the model's own tokenizer; ``senteval``, each sentence first
put through the Moses tokenizer (``tokenizer.perl -l en -no-escape``, here sacremoses, its Python port) and lower-cased,
as SentEval's ``get_transfer_data.bash`` prepares STS 2012-2016, then given to the model as the space-joined tokens
(what SentEval's batcher receives).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from sentemb.core.data.benchmarks import STS_YEARS, STSDataset
from sentemb.core.evaluation.correlation import correlations
from sentemb.core.evaluation.cosine import cosine_scores
from sentemb.core.models import load_model
from sentemb.core.models.word_averaging import WordAveragingModel
from sentemb.core.text.cache import write_token_cache
from sentemb.core.text.config import TextConfig
from sentemb.reporting.figures import Report
from sentemb.reporting.frontier import student_section

CONVENTIONS = ("mean", "wmean", "pooled_pearson", "pooled_spearman")
TEXTS = ("raw", "senteval")


def mteb_cosine(e1: np.ndarray, e2: np.ndarray) -> np.ndarray:
    """Row-wise cosine as MTEB computes it (``1 − ‖e1/‖e1‖ − e2/‖e2‖‖² / 2``, a zero row staying zero): the cosine
    where both rows are non-zero, 0.5 where one is zero, 1.0 where both are.

    Args:
        e1, e2: float, shape (n, dim).

    Returns:
        float64, shape (n,).
    """
    def unit(e: np.ndarray) -> np.ndarray:
        e = np.asarray(e, dtype=np.float64)
        n = np.linalg.norm(e, axis=1, keepdims=True)
        return np.divide(e, n, out=np.zeros_like(e), where=n > 0)

    return 1 - 0.5 * ((unit(e1) - unit(e2)) ** 2).sum(axis=1)


@lru_cache(maxsize=1)
def _moses():
    from sacremoses import MosesTokenizer

    return MosesTokenizer(lang="en")


def senteval_text(sentence: str) -> str:
    """A sentence as SentEval prepares STS 2012-2016: Moses tokens (``-l en -no-escape``), lower-cased, space-joined."""
    return _moses().tokenize(sentence, escape=False, return_str=True).lower()


def senteval_datasets(datasets: list[STSDataset]) -> list[STSDataset]:
    """Copies of ``datasets`` whose sentences are :func:`senteval_text`'s."""
    return [replace(d, sentences1=[senteval_text(s) for s in d.sentences1],
                    sentences2=[senteval_text(s) for s in d.sentences2]) for d in datasets]


def write_senteval_token_cache(path: str | Path, datasets: list[STSDataset], config: TextConfig) -> int:
    """The token cache (:func:`sentemb.core.text.cache.write_token_cache`) of every distinct sentence of ``datasets`` as
    :func:`senteval_text` gives it, tokenised by ``config``: the harness stages load it beside the benchmark-tokens
    stage's cache of the raw text, so that neither text is tokenised again for each model. Returns the number of
    distinct sentences."""
    sentences = (senteval_text(s) for d in datasets for s in (*d.sentences1, *d.sentences2))
    return write_token_cache(path, sentences, config)


def convention_scores(model, datasets: list[STSDataset]) -> pd.DataFrame:
    """One model's scores under every convention, per STS year of ``datasets``.

    Args:
        model: anything with ``encode(list[str]) -> ndarray (n, dim)``; both sides of a set are encoded in one call,
            as the evaluation does.
        datasets: STS 2012-2016 sets (others are ignored).

    Returns:
        One row per year: ``year``, the four :data:`CONVENTIONS` (×100) and ``no_known_word`` (pairs).
    """
    rows = []
    for year in STS_YEARS:
        sets = [d for d in datasets if d.group == year]
        if not sets:
            continue
        pearson, pairs, ours, theirs, gold, undefined = [], [], [], [], [], 0
        for d in sets:
            emb = model.encode(list(d.sentences1) + list(d.sentences2))
            e1, e2 = emb[: len(d)], emb[len(d):]
            score, missing = cosine_scores(e1, e2)
            pearson.append(correlations(score, d.gold)[0])
            pairs.append(len(d))
            ours.append(score)
            theirs.append(mteb_cosine(e1, e2))
            gold.append(d.gold)
            undefined += int(missing.sum())
        ours, theirs, gold = np.concatenate(ours), np.concatenate(theirs), np.concatenate(gold)
        rows.append({"year": year, "mean": float(np.mean(pearson)),
                     "wmean": float(np.average(pearson, weights=pairs)),
                     "pooled_pearson": correlations(ours, gold)[0],
                     "pooled_spearman": float(stats.spearmanr(theirs, gold).statistic) * 100,
                     "no_known_word": undefined})
    return pd.DataFrame(rows)


def harness_tables(models: list[str | Path], datasets: list[STSDataset], oov: str) -> pd.DataFrame:
    """Every model's :func:`convention_scores` on the raw text and on SentEval's, each model loaded once.

    Args:
        oov: unknown words of the models that own their word vectors, as the evaluation treats them
            (``evaluate.oov``).

    Returns:
        Columns ``model``, ``text`` (raw | senteval), ``year``, the conventions (×100, 4 decimals),
        ``no_known_word``. No model: the headers.
    """
    texts = {"raw": datasets, "senteval": senteval_datasets(datasets)}
    columns = ["model", "text", "year", *CONVENTIONS, "no_known_word"]
    frames = []
    for directory in models:
        model, name = load_model(directory), Path(directory).name
        if type(model) is WordAveragingModel:  # as score_model: only the models that own their word vectors
            model.oov = oov
        frames += [convention_scores(model, sets).assign(model=name, text=text) for text, sets in texts.items()]
    return (pd.concat(frames, ignore_index=True)[columns].round({c: 4 for c in CONVENTIONS}) if frames
            else pd.DataFrame(columns=columns))


def harness_report(frame: pd.DataFrame, sts: dict[str, float]) -> Report:
    """``reports/harness.md``: per model the mean over the years of each convention, raw and SentEval text, and the
    spread of the conventions (the largest minus the smallest) on the raw text; then each static student beside its
    teacher (:func:`~sentemb.reporting.frontier.student_section`).

    Args:
        frame: :func:`harness_tables`' rows of every model.
        sts: model → STS12-15 mean Pearson ×100 (the evaluation's).
    """
    years = sorted(frame["year"].unique())
    means = frame.groupby(["model", "text"], sort=False)[list(CONVENTIONS)].mean().unstack("text")
    missing = frame[frame["text"] == "raw"].groupby("model", sort=False)["no_known_word"].sum()
    header = ("| model | " + " | ".join(f"{c} ({t})" for t in TEXTS for c in CONVENTIONS)
              + " | spread (raw) | pairs without a known word |")
    lines = [header, "|---|" + "---:|" * (2 * len(CONVENTIONS) + 2)]
    for model in means.index:
        raw = [means.loc[model, (c, "raw")] for c in CONVENTIONS]
        cells = [f"{means.loc[model, (c, t)]:.2f}" for t in TEXTS for c in CONVENTIONS]
        lines.append(f"| `{model}` | " + " | ".join(cells) + f" | {max(raw) - min(raw):.2f} | {missing[model]} |")
    spread = means.xs("raw", axis=1, level="text")
    spread = (spread.max(axis=1) - spread.min(axis=1))
    shift = (means.xs("senteval", axis=1, level="text")["mean"] - means.xs("raw", axis=1, level="text")["mean"])
    markdown = "\n".join([
        "# The harness table: one model, four conventions, two tokenisations", "",
        f"Each cell is the mean over {', '.join(years)} of one way of scoring the same cosine similarities (×100). "
        "`mean`: the mean over a year's sets of Pearson's r, what the four papers and SentEval's \"mean\" report "
        "(the evaluate stage's figures); `wmean`: weighted by the sets' sizes (SentEval's \"wmean\", reported as "
        "\"all\" by SimCSE and sentence-transformers); `pooled_pearson`: r over the year's pairs pooled (the shared "
        "tasks' \"ALL\"); `pooled_spearman`: Spearman's ρ over the pooled pairs, MTEB's main STS score (MTEB's cosine: "
        "a pair with a sentence that has no known word scores 0.5, two such 1.0; sentemb scores them 0). `raw`: the "
        "files as distributed; `senteval`: Moses-tokenised and lower-cased as SentEval prepares them.", "",
        f"Over the {len(means)} models the conventions are {spread.min():.2f} to {spread.max():.2f} points apart on "
        f"the same embeddings (median {spread.median():.2f}); SentEval's tokens move the papers' `mean` by "
        f"{shift.min():+.2f} to {shift.max():+.2f} (median {shift.median():+.2f}). A gap of that size between two "
        "papers says nothing about the models until both are scored one way.", "",
        *lines, "",
        "Per year: `metrics/harness/*.csv`. Written by the `harness` stages (`dvc repro report-harness`).", "",
        student_section(sts),
    ])
    return Report(markdown, {})
