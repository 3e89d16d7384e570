"""Word vectors on disk and in memory, without pickle: ``vectors.npy`` (float32, read with ``allow_pickle=False``) and
``vocab.tsv`` (``word<TAB>count``, the vocabulary file of :class:`~sentemb.core.data.vocab.Vocabulary`).

gensim stays the word2vec trainer and the word2vec-format writer; :meth:`WordVectors.keyed_vectors` builds its
``KeyedVectors`` from the arrays for the functions that need one (``evaluate_word_pairs``, ``most_similar``,
``save_word2vec_format``), so nothing here ever unpickles a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError

VECTORS = "vectors.npy"
VOCAB = "vocab.tsv"


def load_array(path: Path, what: str, mmap: bool = True) -> np.ndarray:
    """A ``.npy`` file read with ``allow_pickle=False`` (an object array or a pickle is refused, never run).

    Args:
        what: what the file should hold, for the message.
        mmap: map the file read-only instead of reading it.

    Raises:
        SentembError: a missing file, or one that is not a plain ``.npy`` array (truncated, foreign, pickled).
    """
    if not path.is_file():
        raise SentembError(f"{path}: missing file (expected {what})")
    try:
        return np.load(path, mmap_mode="r" if mmap else None, allow_pickle=False)
    except (ValueError, OSError, EOFError) as e:
        raise SentembError(f"{path}: not a .npy array of {what} ({e})") from None


@dataclass(frozen=True)
class WordVectors:
    """A vocabulary and one vector per word.

    Attributes:
        vocab: the words and their corpus counts; row i of ``vectors`` is ``vocab.words[i]``.
        vectors: float32, shape (V, dim).

    Raises:
        SentembError: ``vectors`` is not 2-d or has another number of rows than the vocabulary has words.
    """

    vocab: Vocabulary
    vectors: np.ndarray

    def __post_init__(self) -> None:
        if self.vectors.ndim != 2 or self.vectors.shape[0] != len(self.vocab):
            raise SentembError(f"word vectors: an array of shape {self.vectors.shape} for a vocabulary of "
                               f"{len(self.vocab)} words (expected ({len(self.vocab)}, dim))")

    @classmethod
    def from_arrays(cls, words: list[str], counts, vectors: np.ndarray) -> WordVectors:
        """From words, their counts (int, (V,)) and an array (V, dim), converted to float32."""
        return cls(Vocabulary(list(words), np.asarray(counts, dtype=np.int64)),
                   np.ascontiguousarray(vectors, dtype=np.float32))

    @property
    def words(self) -> list[str]:
        return self.vocab.words

    @property
    def counts(self) -> np.ndarray:
        return self.vocab.counts

    @property
    def index(self) -> dict[str, int]:
        """word → row."""
        return self.vocab.index

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def __len__(self) -> int:
        return len(self.vocab)

    def rows(self, rows: np.ndarray) -> WordVectors:
        """The vectors of some rows (int, ascending or not) only, in that order."""
        rows = np.asarray(rows, dtype=np.int64)
        return WordVectors.from_arrays([self.words[i] for i in rows], self.counts[rows], self.vectors[rows])

    @cached_property
    def _keyed(self):
        from gensim.models import KeyedVectors

        kv = KeyedVectors(vector_size=self.dim, count=0, dtype=np.float32)
        kv.add_vectors(self.words, np.asarray(self.vectors, dtype=np.float32))
        for w, c in zip(self.words, self.counts.tolist(), strict=True):
            kv.set_vecattr(w, "count", c)
        return kv

    def keyed_vectors(self):
        """The same vectors as gensim ``KeyedVectors`` (built once, a copy of the array), for gensim's own
        functions."""
        return self._keyed

    def save(self, directory: str | Path) -> None:
        """Write ``vectors.npy`` and ``vocab.tsv`` into an existing directory (the caller makes the directory's
        replacement atomic: :func:`sentemb.core.models.format.write_model`)."""
        d = Path(directory)
        np.save(d / VECTORS, np.ascontiguousarray(self.vectors, dtype=np.float32), allow_pickle=False)
        self.vocab.save(d / VOCAB)

    @classmethod
    def load(cls, directory: str | Path, mmap: bool = True) -> WordVectors:
        """Read ``vectors.npy`` (memory-mapped by default) and ``vocab.tsv`` from a directory.

        Raises:
            SentembError: a missing or malformed file, an array that is not float32 (V, dim), or a vocabulary of
                another size than the array, each naming the file.
        """
        d = Path(directory)
        vocab = Vocabulary.load(d / VOCAB)
        vectors = load_array(d / VECTORS, "float32 word vectors (V, dim)", mmap=mmap)
        if vectors.dtype != np.float32 or vectors.ndim != 2:
            raise SentembError(f"{d / VECTORS}: expected float32 word vectors (V, dim), got {vectors.dtype} of shape "
                               f"{vectors.shape}")
        if vectors.shape[0] != len(vocab):
            raise SentembError(f"{d / VECTORS}: {vectors.shape[0]} vectors for the {len(vocab)} words of "
                               f"{d / VOCAB}")
        return cls(vocab, vectors)
