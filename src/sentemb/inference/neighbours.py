"""Nearest neighbours under a model: the sentences of a file nearest to a query, and the words nearest to a word."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from sentemb.core.errors import SentembError
from sentemb.core.models import SentenceEncoder
from sentemb.inference.export import owned_word_vectors
from sentemb.inference.files import in_batches, refuse_per_set_component


def nearest_sentences(model: SentenceEncoder, query: str, corpus: Iterable[str], k: int = 10,
                      batch_size: int = 10_000, model_name: str | Path = "model") -> list[tuple[float, int, str]]:
    """The ``k`` sentences of ``corpus`` most similar to ``query`` under cosine similarity of their embeddings.

    Sentences with no known word (a zero embedding, where the cosine is undefined) are never returned.

    Returns:
        ``(cosine, line number from 1, sentence)``, most similar first.

    Raises:
        SentembError: ``k`` < 1, a query with no word the model knows, an empty corpus, or a batch-dependent model.
    """
    if k < 1:
        raise SentembError(f"k must be at least 1, got {k}")
    refuse_per_set_component(model, model_name, "its embeddings would depend on how the corpus is batched")
    q = model.encode([query])[0].astype(np.float64)
    if not np.any(q):
        raise SentembError(f"the query {query!r} has no word the model knows")
    q /= np.linalg.norm(q)
    best: list[tuple[float, int, str]] = []
    seen = 0
    for batch in in_batches(corpus, batch_size):
        emb = model.encode(batch).astype(np.float64)
        norms = np.linalg.norm(emb, axis=1)
        cos = np.where(norms > 0, emb @ q / np.where(norms > 0, norms, 1.0), -np.inf)
        top = np.argsort(-cos, kind="stable")[:k]
        best += [(float(cos[i]), seen + int(i) + 1, batch[i]) for i in top if np.isfinite(cos[i])]
        best = sorted(best, key=lambda r: (-r[0], r[1]))[:k]
        seen += len(batch)
    if seen == 0:
        raise SentembError("the corpus is empty")
    return best


def nearest_words(model: SentenceEncoder, word: str, k: int = 10, model_name: str | Path = "model"
                  ) -> list[tuple[float, str]]:
    """The ``k`` words nearest to ``word`` by cosine similarity of the model's own word vectors
    (:func:`~sentemb.inference.export.owned_word_vectors`; gensim's ``most_similar``).

    Returns:
        ``(cosine, word)``, most similar first.

    Raises:
        SentembError: a model without word vectors of its own, or a word outside its vocabulary.
    """
    vectors, _ = owned_word_vectors(model, model_name)
    if word not in vectors.index:
        raise SentembError(f"{model_name}: {word!r} is not in the model's vocabulary of {len(vectors)} words (as its "
                           "tokeniser writes words: lower case, punctuation split off)")
    return [(float(cos), other) for other, cos in vectors.keyed_vectors().most_similar(word, topn=k)]
