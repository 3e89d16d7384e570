"""Saved models: one directory layout and one loader for every model.

``models/NAME/config.json`` says what the model is; :func:`load_model` returns an object with
``encode(sentences) -> numpy.ndarray (n, dim)``. Evaluation, the CLI and the report see only that.

Word-averaging models (the word2vec averages and Siamese CBOW, whose only parameters are word vectors) are stored
as gensim KeyedVectors (``vectors.kv``), so they also open directly in gensim.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Protocol

import numpy as np
from gensim.models import KeyedVectors

from sentemb.atomic import atomic_path
from sentemb.errors import SentembError
from sentemb.text import TextConfig, tokenize
from sentemb.wordvectors import load_keyed_vectors

CONFIG = "config.json"
VECTORS = "vectors.kv"


class SentenceEncoder(Protocol):
    name: str
    dim: int

    def encode(self, sentences: list[str]) -> np.ndarray: ...


class WordAveragingModel:
    """Sentence embedding = mean of the vectors of its in-vocabulary words (unknown words dropped,
    Kenter et al. §3); a sentence with no known word encodes to the zero vector.

    Args:
        name: model name.
        vectors: the word vectors.
        text: the tokenisation the vectors were trained with.
    """

    def __init__(self, name: str, vectors: KeyedVectors, text: TextConfig) -> None:
        self.name = name
        self.vectors = vectors
        self.text = text
        self.dim = vectors.vector_size

    def token_ids(self, sentence: str) -> list[int]:
        get = self.vectors.key_to_index.get
        return [i for i in map(get, tokenize(sentence, self.text)) if i is not None]

    def encode(self, sentences: list[str]) -> np.ndarray:
        """Embed raw sentences.

        Returns:
            float32, shape (len(sentences), dim); all-zero rows for sentences with no known word.
        """
        out = np.zeros((len(sentences), self.dim), dtype=np.float32)
        vecs = self.vectors.vectors
        for row, sentence in enumerate(sentences):
            ids = self.token_ids(sentence)
            if ids:
                out[row] = vecs[ids].mean(axis=0)
        return out


def save_word_averaging_model(
    directory: str | Path, name: str, vectors: KeyedVectors, text: TextConfig, info: dict | None = None
) -> None:
    """Write ``config.json`` and ``vectors.kv`` into ``directory``, replacing it atomically."""
    with atomic_path(directory) as tmp:
        tmp.mkdir(parents=True)
        vectors.save(str(tmp / VECTORS))
        config = {"name": name, "type": "word_average", "dim": vectors.vector_size, "vocab_size": len(vectors),
                  "text": text.to_dict(), "vectors": VECTORS} | ({"info": info} if info else {})
        (tmp / CONFIG).write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


MODEL_TYPES = ("word_average",)


def load_model(directory: str | Path) -> SentenceEncoder:
    """Load any saved model.

    Raises:
        SentembError: a missing directory or config, malformed JSON, or an unknown model type.
    """
    d = Path(directory)
    cfg_path = d / CONFIG
    if not cfg_path.is_file():
        raise SentembError(f"{cfg_path}: missing model config (is {d} a model directory written by `dvc repro`?)")
    try:
        config = json.loads(cfg_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise SentembError(f"{cfg_path}:{e.lineno}: malformed JSON ({e.msg})") from None
    kind = config.get("type")
    if kind == "word_average":
        try:
            text = TextConfig(**config["text"])
        except (KeyError, TypeError) as e:
            raise SentembError(f"{cfg_path}: bad 'text' entry ({e})") from None
        return WordAveragingModel(config.get("name", d.name), load_keyed_vectors(d / config["vectors"]), text)
    raise SentembError(f"{cfg_path}: unknown model type {kind!r} (expected one of {MODEL_TYPES})")
