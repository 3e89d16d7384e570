"""What every loaded model offers a user, whatever its type: ``encode`` with sentence-transformers' options and
``similarity`` (sentence-transformers' ``SentenceTransformer.encode`` and ``.similarity``, the same names, NumPy
arrays instead of tensors).

A model type implements ``embed(sentences)``, its own arithmetic on one list; :class:`Encoder` adds the batching, the
progress bar and the normalisation around it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sentemb.core.errors import SentembError


class Encoder:
    """The base of every saved model type: ``embed`` is the type's own, the rest is shared.

    Attributes:
        name: the model's name.
        dim: the embeddings' dimension.
    """

    name: str
    dim: int
    batch_independent: bool = True
    """Whether a sentence's embedding is the same whatever else ``embed`` is given with it (False: SIF or uSIF with
    their common components fitted on the sentences of each call)."""

    def embed(self, sentences: list[str]) -> np.ndarray:
        """The model's embeddings of ``sentences`` in one call: float32, shape (len(sentences), dim)."""
        raise NotImplementedError

    def encode(self, sentences: str | Sequence[str], batch_size: int | None = None, show_progress_bar: bool = False,
               normalize_embeddings: bool = False) -> np.ndarray:
        """Embed raw sentences.

        Args:
            sentences: the sentences, or one sentence.
            batch_size: sentences embedded a call (None: all at once); memory follows it, not the embeddings.
            show_progress_bar: a tqdm bar in sentences on standard error.
            normalize_embeddings: each row scaled to unit length (a zero row stays zero), so that a dot product is
                the cosine.

        Returns:
            float32, shape (len(sentences), dim), or (dim,) for one sentence given as a string; all-zero rows for
            sentences with no word the model knows.

        Raises:
            SentembError: a batch size below 1, or batches asked of a model whose embeddings depend on them.
        """
        single = isinstance(sentences, str)
        items = [sentences] if single else list(sentences)
        if batch_size is not None and batch_size < 1:
            raise SentembError(f"{self.name}: batch_size must be at least 1 (got {batch_size})")
        if batch_size is None or batch_size >= len(items):
            batches = [items]
        elif not self.batch_independent:
            raise SentembError(f"{self.name}: its embeddings depend on the sentences of each call (a common component "
                               "fitted per call); encode them in one call (batch_size=None)")
        else:
            batches = [items[k : k + batch_size] for k in range(0, len(items), batch_size)]
        if show_progress_bar:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(items), unit="sentence", desc=f"encode {self.name}", mininterval=1)
        parts = []
        for batch in batches:
            parts.append(np.asarray(self.embed(batch), dtype=np.float32))
            if show_progress_bar:
                bar.update(len(batch))
        if show_progress_bar:
            bar.close()
        out = parts[0] if len(parts) == 1 else np.concatenate(parts)
        if normalize_embeddings:
            out = unit_rows(out)
        return out[0] if single else out

    def similarity(self, a: np.ndarray | str | Sequence[str], b: np.ndarray | str | Sequence[str]) -> np.ndarray:
        """Cosine similarities of every row of ``a`` with every row of ``b`` (sentence-transformers' default
        similarity); sentences are encoded first.

        Args:
            a, b: embeddings, float (n, dim) and (m, dim) or (dim,); or sentences.

        Returns:
            float32, shape (n, m); 0 where a row is zero.
        """
        x, y = (unit_rows(np.atleast_2d(self.encode(v) if isinstance(v, str) or (len(v) and isinstance(v[0], str))
                                        else np.asarray(v, dtype=np.float32))) for v in (a, b))
        return (x @ y.T).astype(np.float32)


def unit_rows(x: np.ndarray) -> np.ndarray:
    """Each row of ``x`` (n, dim) scaled to unit length, a zero row left zero: a new array of ``x``'s dtype."""
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return np.divide(x, norms, out=np.zeros_like(x), where=norms > 0)
