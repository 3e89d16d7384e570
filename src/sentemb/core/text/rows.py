"""A vocabulary's row of each token type of a :class:`~sentemb.core.text.cache.TokenTable`, looked up once."""

from __future__ import annotations

import numpy as np

from sentemb.core.text.cache import tokenize_batch
from sentemb.core.text.config import TextConfig


class TypeRows:
    """A vocabulary's row of each type of a :class:`TokenTable`, looked up once per type and kept.

    Args:
        index: word → row of the vocabulary.
    """

    def __init__(self, index: dict[str, int]) -> None:
        self.index = index
        self._types: list[str] | None = None  # the types list looked up last (a table's: appended to only)
        self._rows = np.zeros(0, dtype=np.int64)

    def __call__(self, types: list[str]) -> np.ndarray:
        """int64, shape (len(types),): the row of each type, −1 for a type the vocabulary lacks."""
        if self._types is not types:
            self._types, self._rows = types, np.zeros(0, dtype=np.int64)
        done = len(self._rows)
        if done < len(types):
            get = self.index.get
            new = np.fromiter((get(t, -1) for t in types[done:]), dtype=np.int64, count=len(types) - done)
            self._rows = np.concatenate([self._rows, new])
        return self._rows

    def rows(self, sentences: list[str], config: TextConfig) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """Every token of the sentences with its row.

        Returns:
            ``(types, type_ids, rows, lengths)``: as :func:`tokenize_batch`'s, and int64 (Σ lengths,) each token's
            row, −1 for a token the vocabulary lacks.
        """
        types, type_ids, lengths = tokenize_batch(sentences, config)
        return types, type_ids, self(types)[type_ids], lengths

    def known_rows(self, sentences: list[str], config: TextConfig) -> tuple[np.ndarray, np.ndarray]:
        """The rows of the sentences' known words, one sentence after another, and the number per sentence.

        Returns:
            ``(rows, lengths)``: int64 (Σ lengths,), int64 (len(sentences),).
        """
        _, _, rows, lengths = self.rows(sentences, config)
        known = rows >= 0
        if known.all():
            return rows, lengths
        sentence = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        return rows[known], np.bincount(sentence[known], minlength=len(lengths)).astype(np.int64)
