"""The saved paraphrastic model: a trained composition encoder over word vectors (Wieting et al. 2016; Wieting &
Gimpel 2017), ``encode(sentences)`` like every saved model.

It stores the word-vector rows it trained (``words.txt`` and the state dict ``encoder.pt``) and the path of the
word-averaging model it started from, whose other rows it reads back when loading.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

from sentemb.atomic import atomic_path
from sentemb.errors import SentembError
from sentemb.models import CONFIG, base_reference, base_vectors, model_text
from sentemb.paraphrastic.composition import CompositionEncoder, build_composition, encode_ids
from sentemb.text import TextConfig, cached_tokenize

STATE = "encoder.pt"
WORDS = "words.txt"


class ParaphrasticModel:
    """A trained composition encoder over word vectors, ``encode(sentences)`` like every saved model.

    Unknown words are dropped (as in every model here); a sentence with no known word encodes to zeros.
    """

    def __init__(self, name: str, encoder: CompositionEncoder, index: dict[str, int], text: TextConfig) -> None:
        self.name = name
        self.encoder = encoder.eval()
        self.index = index
        self.text = text
        self.dim = encoder.dim

    def token_ids(self, sentence: str) -> np.ndarray:
        get = self.index.get
        return np.array([i for i in map(get, cached_tokenize(sentence, self.text)) if i is not None], dtype=np.int64)

    def encode(self, sentences: list[str]) -> np.ndarray:
        """Embed raw sentences: float32, shape (len(sentences), dim)."""
        return encode_ids(self.encoder, [self.token_ids(s) for s in sentences])


def save_paraphrastic_model(directory: str | Path, name: str, encoder: CompositionEncoder, words: list[str],
                            encoder_name: str, encoder_args: dict, vectors_model: str | Path, text: TextConfig,
                            info: dict | None = None) -> None:
    """Write ``config.json``, ``words.txt`` (the trained rows, in order) and ``encoder.pt`` (the state dict:
    composition parameters and those rows) into ``directory``, replacing it atomically. The other rows are read
    from ``vectors_model`` (stored relative to ``directory``) when loading."""
    directory = Path(directory)
    rel = base_reference(directory, vectors_model)
    with atomic_path(directory) as tmp:
        tmp.mkdir(parents=True)
        (tmp / WORDS).write_text("".join(w + "\n" for w in words), encoding="utf-8")
        torch.save({k: v.detach().cpu() for k, v in encoder.state_dict().items()}, tmp / STATE)
        config = {"name": name, "type": "paraphrastic", "loader": __name__, "encoder": encoder_name,
                  "encoder_args": encoder_args, "vectors": rel, "words": WORDS,
                  "state": STATE, "dim": encoder.dim,
                  "text": text.to_dict()} | ({"info": info} if info else {})
        (tmp / CONFIG).write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def load(directory: Path, config: dict) -> ParaphrasticModel:
    """The loader of paraphrastic models (``"loader": "sentemb.paraphrastic.model"``): the encoder rebuilt over the
    full vocabulary of the word-vector model it started from (``config["vectors"]``), the trained rows put back.

    Raises:
        SentembError: a missing or malformed file, a trained word absent from the base vectors, or a state that
            does not fit the encoder.
    """
    vectors = base_vectors(directory, config)
    words_path, state_path = directory / config["words"], directory / config["state"]
    for p in (words_path, state_path):
        if not p.is_file():
            raise SentembError(f"{p}: missing file of the paraphrastic model {directory}")
    words = words_path.read_text(encoding="utf-8").split("\n")[:-1]
    state = torch.load(state_path, map_location="cpu", weights_only=True)
    trained = state.pop("embedding.weight")
    if trained.shape[0] != len(words):
        raise SentembError(f"{state_path}: {trained.shape[0]} embedding rows for {len(words)} words in {words_path}")
    index = vectors.key_to_index
    missing = [w for w in words if w not in index]
    if missing:
        raise SentembError(f"{words_path}: {len(missing)} words are not in the base vectors, e.g. {missing[0]!r}")
    full = torch.from_numpy(np.array(vectors.vectors, dtype=np.float32))
    full[torch.as_tensor([index[w] for w in words])] = trained.float()
    encoder = build_composition(config["encoder"], full, **config.get("encoder_args", {}))
    state["embedding.weight"] = full
    try:
        encoder.load_state_dict(state)
    except RuntimeError as e:
        raise SentembError(f"{state_path}: does not fit encoder {config['encoder']!r} ({e})") from None
    return ParaphrasticModel(config.get("name", directory.name), encoder, dict(index), model_text(directory, config))
