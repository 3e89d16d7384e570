"""Train Siamese CBOW word vectors (Kenter et al. 2016 §2-3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from sentemb.adjacent import AdjacentSentenceConfig, fused_fit, train_adjacent_sentences
from sentemb.data.corpus import TokenCorpus
from sentemb.device import resolve_device, world
from sentemb.errors import SentembError
from sentemb.siamese_cbow.encoder import AverageEncoder


def train_siamese_cbow(
    corpus: TokenCorpus, vocab_size: int, config: AdjacentSentenceConfig, dim: int = 300, init_std: float = 0.01,
    log_path: str | Path | None = None, progress: bool = True, fit: str = "auto",
) -> tuple[np.ndarray, dict]:
    """Word vectors whose sentence averages predict adjacent sentences (Kenter et al. 2016 §2.1, cosine softmax).

    Args:
        corpus: the token-id corpus (ids in [0, vocab_size)).
        vocab_size: V.
        config: the adjacent-sentence hyperparameters (``similarity`` must be ``"cosine"``, the paper's).
        dim: d (paper: 300).
        init_std: initial vectors drawn from N(0, init_std²) (§3.4: 0.01), seeded by ``config.seed``.
        log_path: CSV loss log.
        fit: ``"torch"``: torch's forward, backward and optimiser (any optimiser, CPU or GPU); ``"fused"``: SGD on
            the CPU as one compiled step per batch (:mod:`sentemb.siamese_cbow.fused`, the same arithmetic, several
            times faster); ``"auto"``: fused for SGD on the CPU in one process, torch otherwise (and under
            ``torchrun``, :func:`~sentemb.adjacent.train_adjacent_sentences`'s DistributedDataParallel).

    Returns:
        ``(vectors, stats)``: float32 (V, dim), row i the vector of word id i; the training statistics of
        :func:`~sentemb.adjacent.train_adjacent_sentences`.

    Raises:
        SentembError: a similarity other than cosine, an empty corpus, a bad device, an unknown ``fit``, or the
            fused fit asked for with another optimiser or a GPU.
    """
    if config.similarity != "cosine":
        raise SentembError(f"Siamese CBOW scores sentences by cosine (got similarity {config.similarity!r})")
    fused = fused_fit(fit, config, "sgd", "model.fit")
    # NCCL cannot all-reduce sparse gradients: under torchrun on GPUs the embedding takes dense ones
    sparse = not (world()[1] > 1 and resolve_device(config.device).type == "cuda")
    encoder = AverageEncoder(vocab_size, dim, init_std=init_std, sparse=sparse, seed=config.seed)
    step_function = None
    if fused:
        from sentemb.siamese_cbow.fused import FusedSGD

        step_function = FusedSGD(encoder.embedding.weight.detach().numpy(), threads=torch.get_num_threads())
    stats = train_adjacent_sentences(encoder, corpus, config, log_path=log_path, progress=progress,
                                     step_function=step_function)
    stats["fit"] = "fused" if step_function is not None else "torch"
    return encoder.embedding.weight.detach().cpu().numpy(), stats
