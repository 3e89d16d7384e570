"""The saved paraphrastic model: a trained composition encoder over word vectors (Wieting et al. 2016; Wieting &
Gimpel 2017), ``encode(sentences)`` like every saved model.

It stores the word-vector rows it trained (``words.txt``, one word a line) and the encoder's parameters
(``encoder.safetensors``: the state dict, those rows included), and names in ``config["vectors"]`` the sibling
word-averaging model it started from, whose other rows it reads back when loading.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from pydantic import Field, PositiveInt
from safetensors import SafetensorError
from safetensors.numpy import load_file

from sentemb.core.data.vocab import first_duplicate
from sentemb.core.errors import SentembError
from sentemb.core.models.encoder import Encoder
from sentemb.core.models.format import (
    ModelConfig,
    model_config,
    model_file,
    sibling_model,
    sibling_reference,
    write_model,
)
from sentemb.core.models.word_averaging import load_word_vectors, save_word_averaging_model
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.text.config import TextConfig
from sentemb.core.text.rows import TypeRows
from sentemb.paraphrastic.config import Composition, ParaphrasticConfig
from sentemb.paraphrastic.inference import CompositionForward, RowOverlay, parameter_shapes

if TYPE_CHECKING:
    from sentemb.paraphrastic.composition import CompositionEncoder

STATE = "encoder.safetensors"
WORDS = "words.txt"


class ParaphrasticModelConfig(ModelConfig):
    """``config.json`` of a paraphrastic model."""

    type: Literal["paraphrastic"] = Field(description="the saved type")
    composition: Composition
    vectors: str = Field(description="the word-averaging model the word embeddings started from: ../NAME, a sibling")
    dim: PositiveInt = Field(description="the embedding's dimension")


class ParaphrasticModel(Encoder):
    """A trained composition encoder over word vectors, ``encode(sentences)`` like every saved model.

    It encodes in NumPy (:mod:`sentemb.paraphrastic.inference`, no torch); :meth:`torch_encoder` gives the torch
    module with the same parameters, for training further or exporting. Unknown words are dropped (as in every model
    here); a sentence with no known word encodes to zeros.

    Attributes:
        composition: the encoder and its arguments.
        state: name → float32 array, the composition's parameters (the torch module's ``state_dict`` but the word
            embeddings).
        embedding: the word embeddings, (V, dim): the base model's vectors with the trained rows.
        index: word → row of ``embedding``.
    """

    def __init__(self, name: str, composition: Composition, state: dict[str, np.ndarray], embedding: RowOverlay,
                 index: dict[str, int], text: TextConfig) -> None:
        self.name = name
        self.composition = composition
        self.state = state
        self.embedding = embedding
        self.index = index
        self.text = text
        self.type_rows = TypeRows(index)
        self.forward = CompositionForward(composition, state | {"embedding.weight": embedding})
        self.dim = self.forward.dim

    def token_ids(self, sentences: list[str]) -> list[np.ndarray]:
        """The known words' rows of ``embedding`` in each sentence: int64 arrays, one a sentence."""
        rows, lengths = self.type_rows.known_rows(sentences, self.text)
        return np.split(rows, np.cumsum(lengths)[:-1]) if len(sentences) else []

    def embed(self, sentences: list[str]) -> np.ndarray:
        """Embed raw sentences: float32, shape (len(sentences), dim)."""
        return self.forward.encode(self.token_ids(sentences))

    def torch_encoder(self) -> CompositionEncoder:
        """The torch module of this encoder (:func:`~sentemb.paraphrastic.composition.build_composition`), in
        evaluation mode, on the CPU, with these parameters (copies)."""
        import torch

        from sentemb.paraphrastic.composition import build_composition

        full = torch.from_numpy(self.embedding.full())
        encoder = build_composition(self.composition, full, sparse=False)
        encoder.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in self.state.items()}
                                | {"embedding.weight": full})
        return encoder.eval()


def save_paraphrastic_model(directory: str | Path, name: str, encoder: CompositionEncoder, words: list[str],
                            composition: Composition, vectors_model: str | Path, text: TextConfig,
                            info: dict[str, Any]) -> None:
    """Write ``config.json``, ``words.txt`` (the trained rows, in order) and ``encoder.safetensors`` (the state dict:
    composition parameters and those rows) into ``directory``, replacing it atomically. The other rows are read from
    ``vectors_model``, a sibling of ``directory``, when loading.

    Raises:
        SentembError: ``vectors_model`` is not a sibling of ``directory``.
    """
    from safetensors.torch import save_file  # saving is training's work: loading needs no torch

    config = ParaphrasticModelConfig(type="paraphrastic", name=name, composition=composition, dim=encoder.dim,
                                     vectors=sibling_reference(directory, vectors_model), text=text, info=info)

    def files(tmp: Path) -> None:
        (tmp / WORDS).write_text("".join(w + "\n" for w in words), encoding="utf-8")
        save_file({k: v.detach().cpu().contiguous() for k, v in encoder.state_dict().items()}, str(tmp / STATE))

    write_model(directory, config.model_dump(), files)


def save_trained_model(directory: str | Path, name: str, encoder: CompositionEncoder, words: list[str],
                       rows: np.ndarray, config: ParaphrasticConfig, base: WordVectors, vectors_model: str | Path,
                       text: TextConfig, info: dict[str, Any]) -> None:
    """Save what a paraphrastic run trained (``encoder``, whose embedding rows are ``rows`` of ``base``, the words
    ``words``): a sentence encoder as a paraphrastic model (:func:`save_paraphrastic_model`), PARAGRAM word vectors
    (``config.pairs == "ppdb-lexical"``) as a word-averaging model, the base vectors with the trained rows
    replaced."""
    if config.pairs == "sentences":
        save_paraphrastic_model(directory, name, encoder, words, config.composition(), vectors_model, text, info)
        return
    vectors = np.array(base.vectors, dtype=np.float32)
    vectors[rows] = encoder.embedding.weight.detach().cpu().numpy()
    save_word_averaging_model(directory, name, WordVectors(base.vocab, vectors), text, info)


def load_state(path: Path) -> dict[str, np.ndarray]:
    """A safetensors file of float32 arrays (read with NumPy: no torch).

    Raises:
        SentembError: a truncated or foreign file, or one with arrays of another dtype, naming it.
    """
    try:
        state = load_file(str(path))
    except (SafetensorError, OSError, ValueError, TypeError) as e:
        raise SentembError(f"{path}: not a safetensors file of the encoder's parameters ({e})") from None
    other = next((f"{k} is {v.dtype}" for k, v in state.items() if v.dtype != np.float32), None)
    if other:
        raise SentembError(f"{path}: not a safetensors file of the encoder's parameters ({other}, not float32)")
    return state


def load(directory: Path, config: dict) -> ParaphrasticModel:
    """The loader of ``paraphrastic`` models: the encoder rebuilt over the full vocabulary of the word-vector model it
    started from (``config["vectors"]``), the trained rows put back.

    Raises:
        SentembError: a bad config, a base that is not a sibling word-averaging model, a missing, truncated or foreign
            file, a trained word absent from the base vectors, or parameters that do not fit the encoder.
    """
    checked = model_config(ParaphrasticModelConfig, directory, config)
    vectors = load_word_vectors(sibling_model(directory, checked.vectors), what=f"{directory}/config.json: vectors")
    words_path, state_path = model_file(directory, WORDS), model_file(directory, STATE)
    try:
        words = words_path.read_text(encoding="utf-8-sig").split("\n")[:-1]
    except UnicodeDecodeError as e:
        raise SentembError(f"{words_path}: not UTF-8 text ({e.reason})") from None
    if (duplicate := first_duplicate(words)) is not None:
        raise SentembError(f"{words_path}:{duplicate[0]}: duplicate word {duplicate[2]!r} (first on line "
                           f"{duplicate[1]})")
    state = load_state(state_path)
    trained = state.pop("embedding.weight", None)
    if trained is None or trained.ndim != 2 or trained.shape != (len(words), vectors.dim):
        got = "no embedding.weight" if trained is None else f"embedding.weight of shape {tuple(trained.shape)}"
        raise SentembError(f"{state_path}: {got}, expected ({len(words)}, {vectors.dim}) for the words of "
                           f"{words_path} over the {vectors.dim}-d vectors")
    index = vectors.index
    missing = [w for w in words if w not in index]
    if missing:
        raise SentembError(f"{words_path}: {len(missing)} words are not in the base vectors, e.g. {missing[0]!r}")
    expected = parameter_shapes(checked.composition, len(vectors.words), vectors.dim)
    expected.pop("embedding.weight")
    unfit = ([f"missing {k}" for k in expected if k not in state]
             + [f"unexpected {k}" for k in state if k not in expected]
             + [f"{k} of shape {tuple(v.shape)}, expected {expected[k]}" for k, v in state.items()
                if k in expected and v.shape != expected[k]])
    if unfit:
        raise SentembError(f"{state_path}: does not fit encoder {checked.composition.encoder!r} ({unfit[0]})")
    embedding = RowOverlay(vectors.vectors, np.array([index[w] for w in words], dtype=np.int64), trained)
    return ParaphrasticModel(checked.name, checked.composition, state, embedding, dict(index), checked.text)
