"""Psycholinguistic norms, and their correlation with learnt word saliences (NWS paper §4.2, Table 3).

Readers for the files of the download stage's ``norms/`` folder (xz-compressed; origins in
``../shared/data/PROVENANCE-training.md`` §3):

- Warriner, Kuperman & Brysbaert 2013, ``Ratings_Warriner_et_al.csv.xz``: valence, arousal, dominance
  (``*.Mean.Sum``, 1-9).
- MRC Psycholinguistic Database (Coltheart 1981), ``mrc_psycholinguistic_database.tsv.xz``: concreteness ``CNC``,
  imageability ``IMG`` (100-700; 0 = not rated).
- Brysbaert, Warriner & Kuperman 2014, ``Concreteness_ratings_Brysbaert_et_al_BRM.txt.xz``: concreteness ``Conc.M``
  (1-5), single words only.
- Glasgow norms (Scott et al. 2019), ``glasgow_norms.csv.xz``: arousal, valence, dominance, concreteness,
  imageability, familiarity, age of acquisition.

Official sources, for a user with a network (the staged copies come from the repositories named in the
PROVENANCE file): Warriner https://doi.org/10.3758/s13428-012-0314-x (supplementary CSV); Brysbaert
https://doi.org/10.3758/s13428-013-0403-5 (supplementary TXT); Glasgow https://doi.org/10.3758/s13428-018-1099-3;
MRC https://websites.psychology.uwa.edu.au/school/mrcdatabase/uwa_mrc.htm.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from sentemb.core.errors import SentembError

FILES = {
    "Warriner": "Ratings_Warriner_et_al.csv.xz",
    "MRC": "mrc_psycholinguistic_database.tsv.xz",
    "Brysbaert": "Concreteness_ratings_Brysbaert_et_al_BRM.txt.xz",
    "Glasgow": "glasgow_norms.csv.xz",
}
# (source, norm) → column in the source file
COLUMNS = {
    ("Warriner", "valence"): "V.Mean.Sum",
    ("Warriner", "arousal"): "A.Mean.Sum",
    ("Warriner", "dominance"): "D.Mean.Sum",
    ("MRC", "concreteness"): "CNC",
    ("MRC", "imageability"): "IMG",
    ("Brysbaert", "concreteness"): "Conc.M",
    ("Glasgow", "arousal"): "Arousal",
    ("Glasgow", "valence"): "Valence",
    ("Glasgow", "dominance"): "Dominance",
    ("Glasgow", "concreteness"): "Concreteness",
    ("Glasgow", "imageability"): "Imageability",
    ("Glasgow", "familiarity"): "Familiarity",
    ("Glasgow", "age of acquisition"): "AOA",
}


def _read(path: Path, source: str) -> pd.DataFrame:
    if not path.is_file():
        raise SentembError(f"{path}: missing norms file ({source})")
    try:
        if source == "Warriner":
            frame = pd.read_csv(path, keep_default_na=False, na_values=[""], low_memory=False)
            return frame.rename(columns={"Word": "word"})
        if source == "Glasgow":
            return pd.read_csv(path, keep_default_na=False, na_values=[""]).rename(columns={"Word": "word"})
        if source == "Brysbaert":
            frame = pd.read_csv(path, sep="\t", keep_default_na=False, na_values=[""])
            return frame[frame["Bigram"] == 0].rename(columns={"Word": "word"})
        frame = pd.read_csv(path, sep="\t", keep_default_na=False, na_values=[""], dtype={"WORD": str})
        return frame.rename(columns={"WORD": "word"})
    except (pd.errors.ParserError, KeyError, UnicodeDecodeError, EOFError, OSError) as e:
        raise SentembError(f"{path}: cannot read the {source} norms ({e})") from None


def load_norms(directory: str | Path) -> pd.DataFrame:
    """Every norm of :data:`COLUMNS` as one long table.

    Words are lower-cased; a word rated more than once in a source (MRC lists a word once per part of speech) gets
    the mean of its ratings. Entries that are not single words are dropped: Glasgow's senses such as
    ``bank (money)`` and multi-word entries such as Warriner's ``action figure``. MRC's 0 means "not rated" and is
    dropped.

    Returns:
        DataFrame with columns ``source``, ``norm``, ``word``, ``rating`` (float64).

    Raises:
        SentembError: a missing or unreadable file, or a file without an expected column (named).
    """
    d = Path(directory)
    frames = []
    cache: dict[str, pd.DataFrame] = {}
    for (source, norm), column in COLUMNS.items():
        if source not in cache:
            cache[source] = _read(d / FILES[source], source)
        table = cache[source]
        if column not in table.columns or "word" not in table.columns:
            raise SentembError(f"{d / FILES[source]}: no column {column!r} for {source} {norm}")
        rating = pd.to_numeric(table[column], errors="coerce")
        words = table["word"].astype(str).str.strip().str.lower()
        keep = rating.notna() & ~words.str.contains(r"[\s(]", regex=True) & (words != "")
        if source == "MRC":
            keep &= rating > 0
        part = pd.DataFrame({"word": words[keep], "rating": rating[keep].astype(np.float64)})
        part = part.groupby("word", as_index=False, sort=True)["rating"].mean()
        frames.append(part.assign(source=source, norm=norm)[["source", "norm", "word", "rating"]])
    return pd.concat(frames, ignore_index=True)


def norm_correlations(words: list[str], scores: np.ndarray, norms: pd.DataFrame) -> pd.DataFrame:
    """Pearson's r between word scores (e.g. learnt saliences) and each norm, over the words both cover
    (NWS paper §4.2, Table 3).

    Args:
        words: the scored words (lower case, as the vocabulary).
        scores: float, shape (len(words),).
        norms: from :func:`load_norms`.

    Returns:
        DataFrame, one row per (source, norm): ``words`` (how many words the comparison uses), ``pearson`` (r, on
        the −1…1 scale; 0.0 when fewer than 3 words are shared or a side is constant) and ``p_value``.

    Raises:
        SentembError: ``words`` and ``scores`` of different lengths.
    """
    if len(words) != len(scores):
        raise SentembError(f"norm correlations: {len(words)} words but {len(scores)} scores")
    mine = pd.Series(np.asarray(scores, dtype=np.float64), index=pd.Index(words, name="word"))
    mine = mine[~mine.index.duplicated()]
    rows = []
    for (source, norm), part in norms.groupby(["source", "norm"], sort=False):
        joined = part.join(mine.rename("score"), on="word", how="inner")
        r, p = 0.0, 1.0
        if len(joined) >= 3 and np.ptp(joined["score"]) > 0 and np.ptp(joined["rating"]) > 0:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", stats.ConstantInputWarning)
                res = stats.pearsonr(joined["score"], joined["rating"])
            r, p = float(res.statistic), float(res.pvalue)
        rows.append({"source": source, "norm": norm, "words": len(joined), "pearson": r, "p_value": p})
    return pd.DataFrame(rows)


def norm_report(words: list[str], saliences: np.ndarray, counts: np.ndarray, norms: pd.DataFrame) -> dict:
    """Pearson's r of the saliences with every norm (NWS paper Table 3), and of log word frequency over the same
    words, for reference.

    Args:
        words, saliences, counts: the model's words, their learnt weights q_w and corpus counts (one row each).
        norms: from :func:`load_norms`.

    Returns:
        ``{"SOURCE norm": {"pearson": r, "words": n, "pearson_log_frequency": r}}``, r rounded to 4 decimals.
    """
    ours = norm_correlations(words, saliences, norms)
    frequency = norm_correlations(words, np.log(np.asarray(counts, dtype=np.float64)), norms)
    return {f"{row['source']} {row['norm']}": {"pearson": round(row["pearson"], 4), "words": int(row["words"]),
                                               "pearson_log_frequency": round(ref["pearson"], 4)}
            for (_, row), (_, ref) in zip(ours.iterrows(), frequency.iterrows(), strict=True)}
