"""Sentences tokenised ahead of time and held as ids into their distinct tokens: the token cache that the
benchmark-tokens stage writes and every evaluation reads, and a batch's own table."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from sentemb.core.atomic import read_json, write_json
from sentemb.core.errors import SentembError
from sentemb.core.text.config import TextConfig, text_config
from sentemb.core.text.tokenization import tokenize


class TokenTable:
    """Tokenised sentences held as ids into their distinct tokens (types): the sentences of a token cache
    (:func:`load_token_cache`), or of one batch (:func:`tokenize_batch`), so that a model looks each type up in its
    vocabulary once (:class:`TypeRows`) instead of each token of each sentence.

    Attributes:
        types: the distinct tokens, in order of first appearance; only ever appended to.
        ids: int64, shape (tokens,): every held sentence's tokens as indices into ``types``, one after another.
        starts, lengths: int64, shape (sentences,): where each held sentence's ids start, and how many.
        position: sentence → its index in ``starts``.
    """

    def __init__(self) -> None:
        self.types: list[str] = []
        self._type_ids: dict[str, int] = {}
        self.ids = np.zeros(0, dtype=np.int64)
        self.starts = np.zeros(0, dtype=np.int64)
        self.lengths = np.zeros(0, dtype=np.int64)
        self.position: dict[str, int] = {}

    def add(self, sentences: dict[str, list[str]]) -> None:
        """Hold the tokens of ``sentences`` (sentence → tokens); a sentence held already keeps its tokens."""
        new = {s: t for s, t in sentences.items() if s not in self.position}
        lengths = np.fromiter(map(len, new.values()), dtype=np.int64, count=len(new))
        tokens = [t for sentence in new.values() for t in sentence]
        index, types = self._type_ids, self.types
        for t in dict.fromkeys(tokens):  # the new types, in order of first appearance
            if t not in index:
                index[t] = len(types)
                types.append(t)
        ids = np.fromiter(map(index.__getitem__, tokens), dtype=np.int64, count=len(tokens))
        first = len(self.starts)
        self.position.update(zip(new, range(first, first + len(new)), strict=True))
        self.starts = np.concatenate([self.starts, len(self.ids) + np.cumsum(lengths) - lengths])
        self.lengths = np.concatenate([self.lengths, lengths])
        self.ids = np.concatenate([self.ids, ids])

    def batch(self, sentences: list[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
        """The tokens of held sentences as ids into :attr:`types`: ``(types, type_ids, lengths)``, as
        :func:`tokenize_batch` returns them.

        Raises:
            KeyError: a sentence not held.
        """
        where = np.fromiter(map(self.position.__getitem__, sentences), dtype=np.int64, count=len(sentences))
        lengths = self.lengths[where]
        return self.types, self.ids[concatenated_ranges(self.starts[where], lengths)], lengths

    def tokens(self, sentence: str) -> list[str] | None:
        """The held tokens of ``sentence``, or None."""
        i = self.position.get(sentence)
        if i is None:
            return None
        start = int(self.starts[i])
        return [self.types[t] for t in self.ids[start : start + int(self.lengths[i])]]


def concatenated_ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """int64, shape (Σ lengths,): ``starts[0], …, starts[0] + lengths[0] − 1``, then the same for each next range."""
    starts, lengths = np.asarray(starts, dtype=np.int64), np.asarray(lengths, dtype=np.int64)
    ends = np.cumsum(lengths)
    return np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64) + np.repeat(starts - (ends - lengths), lengths)


# The sentences tokenised ahead of time (the benchmark-tokens stage), per tokenisation: evaluation looks its sentences
# up here instead of running NLTK on each of them once per model.
_TOKEN_CACHE: dict[TextConfig, TokenTable] = {}


def write_token_cache(path: str | Path, sentences: Iterable[str], config: TextConfig) -> int:
    """Tokenise each distinct sentence once and write ``{"text": config, "tokens": {sentence: "tok tok"}}`` as JSON,
    atomically. Returns the number of distinct sentences."""
    tokens = {s: " ".join(tokenize(s, config)) for s in dict.fromkeys(sentences)}
    write_json(path, {"text": config.to_dict(), "tokens": tokens})
    return len(tokens)


def load_token_cache(path: str | Path) -> int:
    """Make :func:`cached_tokenize` and :func:`tokenize_batch` answer from a file of :func:`write_token_cache` (for
    its tokenisation).

    Returns:
        The number of sentences loaded.

    Raises:
        SentembError: a missing file (naming the stage that writes it) or one that is not such a file.
    """
    data = read_json(path, "missing token cache (run `dvc repro benchmark-tokens`)")
    config = text_config(data.get("text") if isinstance(data, dict) else None, str(path))
    try:
        table = {s: t.split() for s, t in data["tokens"].items()}
    except (KeyError, TypeError, AttributeError) as e:
        raise SentembError(f"{path}: not a token cache written by benchmark-tokens ({e})") from None
    _TOKEN_CACHE.setdefault(config, TokenTable()).add(table)
    return len(table)


def cached_tokenize(sentence: str, config: TextConfig) -> list[str]:
    """:func:`tokenize`, answered from a loaded token cache when it holds the sentence for this tokenisation (the
    same tokens: the cache was written by :func:`tokenize`)."""
    table = _TOKEN_CACHE.get(config)
    tokens = table.tokens(sentence) if table is not None else None
    return tokens if tokens is not None else tokenize(sentence, config)


def tokenize_batch(sentences: list[str], config: TextConfig) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The tokens of ``sentences`` as :func:`cached_tokenize` gives them, as ids into the types of a
    :class:`TokenTable`: the loaded token cache's when it holds every sentence (evaluation), else a table of this
    call's own, so that a process encoding a stream of sentences keeps nothing of them.

    Returns:
        ``(types, type_ids, lengths)``: the table's types (shared: do not modify), int64 (Σ lengths,) the tokens of
        every sentence one after another, int64 (len(sentences),) tokens per sentence.
    """
    table = _TOKEN_CACHE.get(config)
    if table is None or not all(s in table.position for s in sentences):
        table = TokenTable()
        table.add({s: cached_tokenize(s, config) for s in dict.fromkeys(sentences)})
    return table.batch(sentences)
