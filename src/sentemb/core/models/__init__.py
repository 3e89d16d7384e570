"""Saved models: one directory layout (:mod:`.format`) and one loader for every model.

``models/NAME/config.json`` says what the model is; :func:`load_model` dispatches on its ``type`` and returns an
object with ``encode(sentences) -> numpy.ndarray (n, dim)``. Evaluation, the CLI, the reports and the exports see
only that. Loading never runs code from the directory: arrays are ``.npy`` read with ``allow_pickle=False`` or
safetensors, every other file is text, and a model reads files only in its own directory and in the sibling model
it names (``../NAME``).

The loaders of the derived types live with their families and are imported only when such a model is loaded
(:data:`LOADERS`): the one place where the foundations name a family, by string.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Protocol

import numpy as np

from sentemb.core.errors import SentembError
from sentemb.core.models.format import CONFIG, read_config

LOADERS = {
    "word_average": "sentemb.core.models.word_averaging",
    "weighted_average": "sentemb.salience.model",
    "paraphrastic": "sentemb.paraphrastic.model",
}
"""Saved ``type`` → the module whose ``load(directory, config)`` rebuilds such a model."""


class SentenceEncoder(Protocol):
    """What every loaded model offers (:class:`~sentemb.core.models.encoder.Encoder`: ``encode`` also takes
    sentence-transformers' ``batch_size``, ``show_progress_bar`` and ``normalize_embeddings``, and ``similarity``
    gives the cosine matrix)."""

    name: str
    dim: int

    def encode(self, sentences: list[str]) -> np.ndarray:
        """float32, shape (len(sentences), dim)."""
        ...

    def similarity(self, a, b) -> np.ndarray:
        """float32 (n, m) cosine similarities of two sets of embeddings (or sentences)."""
        ...


def load_model(directory: str | Path) -> SentenceEncoder:
    """Load any saved model.

    Returns:
        An object with ``name``, ``dim`` and ``encode(list[str]) -> float32 (n, dim)``.

    Raises:
        SentembError: a missing or malformed directory, config or file, an unknown type, or a file outside the model
            directory and its sibling base; the message names the file and what was expected.
    """
    d = Path(directory)
    config = read_config(d)
    kind = config.get("type")
    if not isinstance(kind, str) or kind not in LOADERS:
        raise SentembError(f"{d / CONFIG}: type: expected one of {', '.join(LOADERS)} (got {kind!r})")
    return importlib.import_module(LOADERS[kind]).load(d, config)
