"""Learn Neural Word Salience weights over fixed word vectors (Bollegala et al. §3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from sentemb.adjacent import AdjacentSentenceConfig, fused_fit, train_adjacent_sentences
from sentemb.data.corpus import TokenCorpus
from sentemb.errors import SentembError
from sentemb.salience.encoder import SalienceEncoder


def train_neural_word_salience(
    corpus: TokenCorpus, vectors: np.ndarray, config: AdjacentSentenceConfig, init_low: float = 0.0,
    init_high: float = 1.0, log_path: str | Path | None = None, progress: bool = True, fit: str = "auto",
) -> tuple[np.ndarray, dict]:
    """One salience q_w per word, learnt so that the q-weighted average of FIXED word vectors predicts adjacent
    sentences (Eq. 1-3: softmax over inner products, cross-entropy against the true neighbours).

    Args:
        corpus: the token-id corpus; word id i is row i of ``vectors``.
        vectors: float32, shape (V, dim): the pre-trained word vectors, never updated.
        config: the adjacent-sentence hyperparameters (``similarity`` must be ``"dot"``, the paper's Eq. 2).
        init_low, init_high: saliences start uniform in [init_low, init_high), seeded by ``config.seed``.
        log_path: CSV loss log.
        fit: ``"torch"``: torch's forward, backward and optimiser (any optimiser, CPU or GPU); ``"fused"``: AdaGrad
            on the CPU as one compiled step per batch (:mod:`sentemb.salience.fused`, torch's arithmetic, several
            times faster); ``"auto"``: fused for AdaGrad on the CPU in one process, torch otherwise.

    Returns:
        ``(saliences, stats)``: float32 (V,); the statistics of :func:`~sentemb.adjacent.train_adjacent_sentences`
        and ``fit``, the fit that ran.

    Raises:
        SentembError: a similarity other than the inner product, an empty corpus, a bad device, an unknown ``fit``,
            or the fused fit asked for with another optimiser, a GPU or several processes.
    """
    if config.similarity != "dot":
        raise SentembError(f"Neural Word Salience scores sentences by inner product (got {config.similarity!r})")
    fused = fused_fit(fit, config, "adagrad", "nws.fit")
    encoder = SalienceEncoder(vectors, init_low=init_low, init_high=init_high, seed=config.seed)
    step_function = None
    if fused:
        from sentemb.salience.fused import FusedAdagrad

        step_function = FusedAdagrad(encoder.vectors.numpy(), encoder.salience.weight.detach().numpy().reshape(-1),
                                     threads=torch.get_num_threads())
    stats = train_adjacent_sentences(encoder, corpus, config, log_path=log_path, progress=progress,
                                     step_function=step_function)
    stats["fit"] = "fused" if step_function is not None else "torch"
    return encoder.saliences.detach().cpu().numpy(), stats
