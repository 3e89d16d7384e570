"""The paraphrastic models' training data as token ids: the pairs of the pairs stage, the model-selection data, and the
rows of the word-vector matrix a run can touch.

Only the rows that a run can touch are trained: the words of the training pairs (their gradient) and of the selection
data. Every other row has a zero gradient from both terms of the loss throughout (λw's term vanishes at
W = W_initial), so leaving it out changes nothing; the saved model stores those rows and reads the rest from the
word-vector model it started from (:mod:`sentemb.paraphrastic.model`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sentemb.core.data.pairs import LEXICAL_HEADER, PAIRS_HEADER, SELECTION_HEADER, read_pairs
from sentemb.core.evaluation.word_similarity import word_similarity_words
from sentemb.core.models.word_vectors import WordVectors
from sentemb.papers.wieting2017 import SELECTION
from sentemb.paraphrastic.config import ParaphrasticConfig
from sentemb.paraphrastic.training import IdPairs, sts_selector, word_similarity_selector


@dataclass
class TrainingData:
    """What :func:`~sentemb.paraphrastic.training.train_paraphrastic` needs besides the encoder.

    Attributes:
        pairs: (ids1, ids2) per pair, int64 arrays of rows of the trained matrix; pairs with a side that has no known
            word are left out.
        rows: int64, ascending: the rows of the base word vectors that are trained (their order is the trained
            matrix's).
        words: the word of each trained row.
        select: the model-selection scores of an encoder (:func:`~sentemb.paraphrastic.training.sts_selector` or
            :func:`~sentemb.paraphrastic.training.word_similarity_selector`).
        dropped: pairs read but left out.
    """

    pairs: list[tuple[np.ndarray, np.ndarray]]
    rows: np.ndarray
    words: list[str]
    select: Callable
    dropped: int


def training_data(config: ParaphrasticConfig, pairs_dir: str | Path, vectors: WordVectors) -> TrainingData:
    """The pairs of ``config.pairs`` from the pairs stage's folder, over ``vectors``.

    - ``sentences``: ``train.tsv``; selection on ``selection.tsv`` (Pearson r ×100 averaged over the five STS 2016
      sets, ``STS16``, with the 22-set and STS 2012-2015 means logged beside it);
    - ``ppdb-lexical``: ``ppdb-lexical.tsv`` word pairs; selection on SimLex-999 and WordSim-353.

    Raises:
        SentembError: a missing or malformed pairs file.
    """
    folder = Path(pairs_dir)
    if config.pairs == "sentences":
        raw = [(a.split(), b.split()) for _, a, b in read_pairs(folder / "train.tsv", PAIRS_HEADER)]
        selection = read_pairs(folder / "selection.tsv", SELECTION_HEADER)
        extra = [w for _, a, b, _ in selection for w in (a + " " + b).split()]
    else:
        raw = [([a], [b]) for a, b in read_pairs(folder / "ppdb-lexical.tsv", LEXICAL_HEADER)]
        extra = sorted(word_similarity_words())
    index = vectors.index
    rows = np.array(sorted({index[w] for a, b in raw for w in a + b if w in index}
                           | {index[w] for w in extra if w in index}), dtype=np.int64)
    words = [vectors.words[i] for i in rows]
    sub = {w: i for i, w in enumerate(words)}

    def ids(tokens: list[str]) -> np.ndarray:
        return np.array([sub[w] for w in tokens if w in sub], dtype=np.int64)

    pairs = [(ids(a), ids(b)) for a, b in raw]
    pairs = [(a, b) for a, b in pairs if len(a) and len(b)]
    if config.pairs == "sentences":
        sets: dict[str, IdPairs] = {}
        for key, a, b, gold in selection:
            s = sets.setdefault(key, IdPairs(key, [], [], []))
            s.sentences1.append(ids(a.split()))
            s.sentences2.append(ids(b.split()))
            s.gold.append(float(gold))
        for s in sets.values():
            s.gold = np.asarray(s.gold)
        groups = {name: [k for k in sets if k.split(".")[0] in of] for name, of in SELECTION.items()}
        select = sts_selector(list(sets.values()), groups)
    else:
        select = word_similarity_selector(words)
    return TrainingData(pairs, rows, words, select, len(raw) - len(pairs))
