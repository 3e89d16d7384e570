"""A paraphrastic encoder for another task (Wieting & Gimpel 2017 §4.3, Table 8): the composition of a transfer model
over a new vocabulary, freshly initialised or from the trained model's parameters, and the anchors of its L2 terms."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from sentemb.core.errors import SentembError
from sentemb.core.models.format import read_config
from sentemb.core.models.word_vectors import WordVectors
from sentemb.paraphrastic.composition import CompositionEncoder, PaddedBatch, build_composition
from sentemb.paraphrastic.config import Composition
from sentemb.paraphrastic.model import ParaphrasticModel, load


def load_trained(directory: str | Path) -> ParaphrasticModel:
    """The trained paraphrastic model in ``directory``.

    Raises:
        SentembError: a missing or malformed model, or one that is not a paraphrastic sentence encoder.
    """
    d = Path(directory)
    config = read_config(d)
    if config.get("type") != "paraphrastic":
        raise SentembError(f"{d}: a {config.get('type')!r} model, not a paraphrastic sentence encoder")
    return load(d, config)


def transfer_encoder(composition: Composition, words: list[str], seed: int, vectors: WordVectors,
                     trained: ParaphrasticModel | None, universal: bool, device: torch.device):
    """The encoder over ``words`` for a new task, its ``embed`` and the anchors of its L2 terms.

    Args:
        composition: the encoder, its arguments and the dropouts to train with.
        words: the task's words (row i = words[i]), all in ``vectors`` (and in the trained model's vocabulary).
        seed: seeds the composition's initialisation.
        vectors: the word vectors the transfer model started from (the rows of ``random``).
        trained: the trained transfer model, whose every parameter the encoder starts from; ``None``: ``random``
            (the composition freshly initialised over ``vectors``).
        universal: the anchors are every parameter's starting value (the "universal" setting); otherwise none (the
            word vectors pulled to their start, the rest to 0).
        device: where ``embed`` puts its batches.

    Returns:
        ``(encoder, embed, anchors)``: the encoder (CPU), token-id sentences → (n, dim) on ``device``, and parameter
        name → anchor.
    """
    torch.manual_seed(seed)  # the composition's initialisation
    if trained is None:
        rows = torch.from_numpy(np.asarray(vectors.vectors[[vectors.index[w] for w in words]], dtype=np.float32))
        state = None
    else:
        rows = torch.from_numpy(trained.embedding[np.array([trained.index[w] for w in words], dtype=np.int64)])
        state = {k: torch.from_numpy(np.array(v)) for k, v in trained.state.items()}
    encoder: CompositionEncoder = build_composition(composition, rows, sparse=False)
    if state is not None:
        encoder.load_state_dict(state | {"embedding.weight": rows})
    anchors = {n: p.detach().clone() for n, p in encoder.named_parameters()} if universal else {}

    def embed(sentences: list[np.ndarray]) -> torch.Tensor:
        return encoder(PaddedBatch.from_lists(sentences, device))

    return encoder, embed, anchors
