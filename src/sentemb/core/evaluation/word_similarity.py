"""Word similarity: SimLex-999 (Hill et al. 2015) and WordSim-353 (Finkelstein et al. 2002), the copies gensim ships
in ``gensim/test/test_data``, scored as gensim's ``KeyedVectors.evaluate_word_pairs`` scores them (cosine of the two
words' vectors against the human rating, words compared in upper case, a pair with an unknown word skipped and
counted), without importing gensim, which brings scipy: 0.7 s of every evaluation stage that scores word vectors.
``tests/test_evaluation.py`` checks the scores against gensim's own function."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from sentemb.core.errors import SentembError
from sentemb.core.evaluation.correlation import correlations
from sentemb.core.models.word_vectors import WordVectors

WORD_SIMILARITY = {"SimLex-999": "simlex999.txt", "WordSim-353": "wordsim353.tsv"}


def datapath(file: str) -> Path:
    """gensim's copy of a test data file (``gensim.test.utils.datapath``: ``gensim/test/test_data/FILE``), found
    without importing gensim.

    Raises:
        SentembError: gensim is not installed.
    """
    spec = importlib.util.find_spec("gensim")
    if spec is None or not spec.submodule_search_locations:
        raise SentembError("word similarity needs gensim's test data: pip install 'gensim>=4.3.3'")
    return Path(next(iter(spec.submodule_search_locations))) / "test" / "test_data" / file


@dataclass(frozen=True)
class WordPairs:
    """The rated pairs of one dataset, read as ``evaluate_word_pairs`` reads them: comment lines (``#``) and lines
    that are not ``word<TAB>word<TAB>rating`` skipped, words upper-cased.

    Attributes:
        first, second: the two words of each pair, upper case.
        gold: float64, shape (n,): the human ratings.
    """

    first: tuple[str, ...]
    second: tuple[str, ...]
    gold: np.ndarray


@cache
def word_pairs(file: str) -> WordPairs:
    """The pairs of one of gensim's test data files (:data:`WORD_SIMILARITY`'s values), read once a process.

    Raises:
        SentembError: gensim is not installed.
    """
    first, second, gold = [], [], []
    with open(datapath(file), encoding="utf-8") as fh:
        for line in fh:
            if not line or line.startswith("#"):
                continue
            fields = [field.upper() for field in line.split("\t")]
            if len(fields) != 3:
                continue
            try:
                rating = float(fields[2])
            except ValueError:
                continue
            first.append(fields[0])
            second.append(fields[1])
            gold.append(rating)
    return WordPairs(tuple(first), tuple(second), np.array(gold, dtype=np.float64))


def word_similarity(vectors: WordVectors, decimals: int | None = 2) -> dict:
    """Score word vectors on SimLex-999 and WordSim-353 as gensim's ``evaluate_word_pairs(path,
    restrict_vocab=len(vectors))`` does: a word is looked up in upper case, taking the first row among its case forms;
    a pair with a word not found is skipped and counted; a pair's score is the cosine of the two rows as float32 unit
    vectors (a zero vector scores 0); Pearson's r and Spearman's ρ against the ratings (:func:`correlations`). Over
    the rows of :func:`word_similarity_rows` only, which give the same scores as the whole vocabulary.

    Args:
        vectors: the word vectors.
        decimals: the figures are rounded to this many decimals (None: not rounded).

    Returns:
        ``{dataset: {"spearman": ρ×100, "pearson": r×100, "oov_percent": % of pairs skipped, "pairs": n}}``; a
        dataset with no pair left scores 0 with ``oov_percent`` 100.
    """
    def rounded(x: float) -> float:
        return round(x, decimals) if decimals is not None else x

    words = vectors.words
    first_row: dict[str, int] = {}
    for row in word_similarity_rows(words):  # ascending: the first case form of a word wins, as in gensim
        first_row.setdefault(words[row].upper(), int(row))
    out = {}
    for name, file in WORD_SIMILARITY.items():
        pairs = word_pairs(file)
        n = len(pairs.gold)
        known = np.array([a in first_row and b in first_row for a, b in zip(pairs.first, pairs.second, strict=True)],
                         dtype=bool)
        if not known.any():
            out[name] = {"spearman": 0.0, "pearson": 0.0, "oov_percent": 100.0, "pairs": n}
            continue
        a = _unit_rows(vectors.vectors, [first_row[w] for w, k in zip(pairs.first, known, strict=True) if k])
        b = _unit_rows(vectors.vectors, [first_row[w] for w, k in zip(pairs.second, known, strict=True) if k])
        r, rho = correlations(np.einsum("ij,ij->i", a, b), pairs.gold[known])
        out[name] = {"spearman": rounded(rho), "pearson": rounded(r),
                     "oov_percent": rounded(float(n - known.sum()) / n * 100), "pairs": n}
    return out


def _unit_rows(vectors: np.ndarray, rows: list[int]) -> np.ndarray:
    """float32 (len(rows), dim): the rows scaled to unit length, as gensim's ``matutils.unitvec`` (a zero row stays
    zero)."""
    x = np.asarray(vectors[np.asarray(rows, dtype=np.int64)], dtype=np.float32)
    norms = np.linalg.norm(x.astype(np.float64), axis=1)
    scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0).astype(np.float32)
    return x * scale[:, None]


def word_similarity_words() -> set[str]:
    """The words of SimLex-999 and WordSim-353 (gensim's copies), lower case: the rows a word-vector trainer must
    keep to be scored on them."""
    return {w.lower() for file in WORD_SIMILARITY.values() for pairs in (word_pairs(file),)
            for w in pairs.first + pairs.second}


def word_similarity_rows(words: Sequence[str]) -> np.ndarray:
    """int64, ascending: the rows of a vocabulary that SimLex-999 and WordSim-353 can look up (a word whose lower case
    is one of :func:`word_similarity_words`).

    :func:`word_similarity` of the vectors of these rows alone (in this order) equals that of the whole vocabulary:
    words are compared case-insensitively, taking the first row of a word's case forms, and a pair with a word not
    found is skipped. A learning curve scored every epoch looks at ~1,500 rows instead of all of them.
    """
    keep = word_similarity_words()
    return np.array([i for i, w in enumerate(words) if w.lower() in keep], dtype=np.int64)
