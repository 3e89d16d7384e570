"""Learn Neural Word Salience weights over fixed word vectors (Bollegala et al. §3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from sentemb.adjacent_sentences.loop import train_adjacent_sentences
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.runtime.device import resolve_device
from sentemb.core.runtime.distributed import local_device, world
from sentemb.salience.config import NWSConfig
from sentemb.salience.encoder import SalienceEncoder


def vectors_in_vocabulary_order(vectors: WordVectors, vocab: Vocabulary, source: str) -> np.ndarray:
    """The rows of ``vectors`` for the words of ``vocab``, in its order (word id i → row i).

    Raises:
        SentembError: a vocabulary word without a vector, naming ``source`` (the word-vector model).
    """
    missing = [w for w in vocab.words if w not in vectors.index]
    if missing:
        raise SentembError(f"{source}: {len(missing)} words of the vocabulary have no vector, e.g. {missing[0]!r} "
                           "(rebuild the word vectors with dvc repro)")
    return np.asarray(vectors.vectors[[vectors.index[w] for w in vocab.words]])


def train_neural_word_salience(corpus: TokenCorpus, vectors: np.ndarray, config: NWSConfig,
                               log_path: str | Path | None = None, progress: bool = True) -> tuple[np.ndarray, dict]:
    """One salience q_w per word, learnt so that the q-weighted average of FIXED word vectors predicts adjacent
    sentences (Eq. 1-3: softmax over inner products, cross-entropy against the true neighbours).

    Args:
        corpus: the token-id corpus; word id i is row i of ``vectors``.
        vectors: float32, shape (V, dim): the pre-trained word vectors, never updated.
        config: the ``nws`` section (:class:`~sentemb.salience.config.NWSConfig`): the saliences start uniform in
            [init_low, init_high), seeded by ``config.seed``; ``fit``: ``"torch"``: torch's forward, backward and
            optimiser (any optimiser, CPU or GPU); ``"fused"``: AdaGrad on the CPU as one compiled step per batch
            (:mod:`sentemb.salience.fused`, torch's arithmetic, several times faster); ``"auto"``: fused for AdaGrad
            on the CPU in one process, torch otherwise.
        log_path: CSV loss log.

    Returns:
        ``(saliences, stats)``: float32 (V,); the statistics of
        :func:`~sentemb.adjacent_sentences.loop.train_adjacent_sentences` and ``fit``, the fit that ran.

    Raises:
        SentembError: an empty corpus, a bad device, or the fused fit asked for with another optimiser, a GPU or
            several processes.
    """
    device = local_device(resolve_device(config.device))
    fused = config.takes_fused_step("adagrad", device.type, world()[1], "nws")
    encoder = SalienceEncoder(vectors, init_low=config.init_low, init_high=config.init_high, seed=config.seed)
    step_function = None
    if fused:
        from sentemb.salience.fused import FusedAdagrad

        step_function = FusedAdagrad(encoder.vectors.numpy(), encoder.salience.weight.detach().numpy().reshape(-1),
                                     threads=torch.get_num_threads())
    stats = train_adjacent_sentences(encoder, corpus, config, "dot", device, log_path=log_path, progress=progress,
                                     step_function=step_function)
    stats["fit"] = "fused" if step_function is not None else "torch"
    return encoder.saliences.detach().cpu().numpy(), stats
