"""The vocabulary: words with their corpus counts, ``min_count`` applied once for every model."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sentemb.core.atomic import atomic_open
from sentemb.core.errors import SentembError


@dataclass
class Vocabulary:
    """Words ordered by descending count (ties by word), ids 0..V-1 in that order.

    Attributes:
        words: the V words.
        counts: int64, shape (V,): corpus frequency of each word.
    """

    words: list[str]
    counts: np.ndarray
    index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.counts = np.asarray(self.counts, dtype=np.int64)
        if len(self.words) != len(self.counts):
            raise SentembError("vocabulary: words and counts differ in length")
        self.index = {w: i for i, w in enumerate(self.words)}
        if len(self.index) != len(self.words):
            line, first, word = first_duplicate(self.words)
            raise SentembError(f"vocabulary: duplicate word {word!r} (entries {first} and {line})")

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: str) -> bool:
        return word in self.index

    @classmethod
    def from_counts(
        cls, counts: Counter | dict[str, int], min_count: int, max_size: int | None
    ) -> Vocabulary:
        """Keep the words seen at least ``min_count`` times (Kenter et al. §3.1: 5), at most ``max_size`` of them.

        Raises:
            SentembError: when ``min_count`` < 1 or no word survives (an empty corpus or a too-high min_count).
        """
        if min_count < 1:
            raise SentembError(f"vocab.min_count: must be >= 1, got {min_count}")
        kept = sorted(((w, c) for w, c in counts.items() if c >= min_count), key=lambda wc: (-wc[1], wc[0]))
        if max_size is not None:
            kept = kept[:max_size]
        if not kept:
            raise SentembError(f"empty vocabulary: no word occurs at least min_count={min_count} times")
        return cls([w for w, _ in kept], np.array([c for _, c in kept], dtype=np.int64))

    def encode(self, tokens: Iterable[str]) -> list[int]:
        """Ids of the in-vocabulary tokens (unknown tokens dropped)."""
        get = self.index.get
        return [i for i in map(get, tokens) if i is not None]

    def save(self, path: str | Path) -> None:
        """Write ``word<TAB>count`` lines, atomically."""
        with atomic_open(path) as fh:
            for w, c in zip(self.words, self.counts.tolist(), strict=True):
                fh.write(f"{w}\t{c}\n")

    @classmethod
    def load(cls, path: str | Path) -> Vocabulary:
        """Read a ``word<TAB>count`` file.

        Raises:
            SentembError: missing file, or a malformed line (named with its number).
        """
        p = Path(path)
        if not p.is_file():
            raise SentembError(f"{p}: missing vocabulary file (word<TAB>count lines)")
        words, counts = [], []
        with open(p, encoding="utf-8-sig") as fh:  # a byte-order mark, if any, is not part of the first word
            for n, line in enumerate(fh, start=1):
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 2 or not parts[0] or not (parts[1].isascii() and parts[1].isdigit()):
                    raise SentembError(
                        f"{p}:{n}: malformed vocabulary line {line.rstrip()!r} (expected word<TAB>count)"
                    )
                words.append(parts[0])
                counts.append(int(parts[1]))
        if not words:
            raise SentembError(f"{p}: empty vocabulary file")
        try:
            return cls(words, np.array(counts, dtype=np.int64))
        except SentembError:  # a word twice: named with the file's lines (the index is built once, here)
            if (duplicate := first_duplicate(words)) is None:
                raise
            line, first, word = duplicate
            raise SentembError(f"{p}:{line}: duplicate word {word!r} (first on line {first})") from None


def first_duplicate(words: list[str]) -> tuple[int, int, str] | None:
    """The first word of ``words`` met twice: ``(line, first_line, word)``, 1-based positions (a file's line numbers
    when ``words`` are its lines), or None when every word is distinct."""
    seen: dict[str, int] = {}
    for n, word in enumerate(words, start=1):
        if word in seen:
            return n, seen[word], word
        seen[word] = n
    return None
