"""Word similarity: SimLex-999 and WordSim-353 through gensim's ``evaluate_word_pairs``."""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sentemb.core.errors import SentembError
from sentemb.core.models.word_vectors import WordVectors

WORD_SIMILARITY = {"SimLex-999": "simlex999.txt", "WordSim-353": "wordsim353.tsv"}


def datapath(file: str) -> Path:
    """gensim's copy of a test data file (``gensim.test.utils.datapath``: ``gensim/test/test_data/FILE``), found
    without importing gensim, which brings scipy (0.5 s and more) to every evaluation that never scores words."""
    spec = importlib.util.find_spec("gensim")
    if spec is None or not spec.submodule_search_locations:
        raise SentembError("word similarity needs gensim's test data: pip install 'gensim>=4.3.3'")
    return Path(next(iter(spec.submodule_search_locations))) / "test" / "test_data" / file


def word_similarity(vectors: WordVectors) -> dict:
    """Score word vectors on SimLex-999 (Hill et al. 2015) and WordSim-353 (Finkelstein et al. 2002), the copies
    shipped in ``gensim/test/test_data``, with gensim's own ``KeyedVectors.evaluate_word_pairs`` (cosine,
    case-insensitive, pairs with an unknown word skipped), over the rows those pairs can look up
    (:func:`word_similarity_rows`: the same scores as the whole vocabulary's).

    Args:
        vectors: the word vectors.

    Returns:
        ``{dataset: {"spearman": ρ×100, "pearson": r×100, "oov_percent": % of pairs skipped, "pairs": n}}``,
        rounded to 2 decimals.
    """
    rows = word_similarity_rows(vectors.words)
    keyed = vectors.rows(rows).keyed_vectors() if len(rows) else None
    out = {}
    for name, file in WORD_SIMILARITY.items():
        path = str(datapath(file))
        with open(path, encoding="utf-8") as fh:
            n = sum(1 for line in fh if line.strip() and not line.startswith("#"))
        if keyed is None:  # no word of either dataset in the vocabulary
            out[name] = {"spearman": 0.0, "pearson": 0.0, "oov_percent": 100.0, "pairs": n}
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pearson, spearman, oov = keyed.evaluate_word_pairs(path, restrict_vocab=len(keyed))
        out[name] = {"spearman": round(float(np.nan_to_num(spearman[0])) * 100, 2),
                     "pearson": round(float(np.nan_to_num(pearson[0])) * 100, 2),
                     "oov_percent": round(float(oov), 2), "pairs": n}
    return out


def word_similarity_words() -> set[str]:
    """The words of SimLex-999 and WordSim-353 (gensim's copies), lower-cased as ``evaluate_word_pairs`` compares
    them: the rows a word-vector trainer must keep to be scored on them."""
    words = set()
    for file in WORD_SIMILARITY.values():
        with open(datapath(file), encoding="utf-8") as fh:
            for line in fh:
                if line.strip() and not line.startswith("#"):
                    words.update(w.lower() for w in line.split("\t")[:2])
    return words


def word_similarity_rows(words: Sequence[str]) -> np.ndarray:
    """int64, ascending: the rows of a vocabulary that SimLex-999 and WordSim-353 can look up (a word whose lower case
    is one of :func:`word_similarity_words`).

    :func:`word_similarity` of the vectors of these rows alone (in this order) equals that of the whole vocabulary:
    ``evaluate_word_pairs`` compares words case-insensitively, taking the first row of a word's case forms, and skips
    pairs with a word it cannot find. A learning curve scored every epoch wraps ~1,500 rows instead of all of them
    (GloVe's 190,137: about 1-2 s an epoch).
    """
    keep = word_similarity_words()
    return np.array([i for i, w in enumerate(words) if w.lower() in keep], dtype=np.int64)
