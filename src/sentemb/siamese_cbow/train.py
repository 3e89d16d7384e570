"""Train Siamese CBOW word vectors (Kenter et al. 2016 §2-3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from sentemb.adjacent import AdjacentSentenceConfig, fused_fit, train_adjacent_sentences
from sentemb.data.corpus import TokenCorpus
from sentemb.device import local_device, resolve_device, world
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
        fit: ``"torch"``: torch's forward, backward and optimiser (any optimiser, CPU or GPU); ``"fused"``: SGD as
            one fused step per batch, the same arithmetic, several times faster: on the CPU compiled
            (:mod:`sentemb.siamese_cbow.fused`), on a GPU torch's kernels with the gradient written out, replayed
            as a CUDA graph (:mod:`sentemb.siamese_cbow.fused_torch`); ``"auto"``: fused for SGD in one process,
            torch otherwise (and under ``torchrun``, :func:`~sentemb.adjacent.train_adjacent_sentences`'s
            DistributedDataParallel).

    Returns:
        ``(vectors, stats)``: float32 (V, dim), row i the vector of word id i; the training statistics of
        :func:`~sentemb.adjacent.train_adjacent_sentences`, with ``fit`` and, for the GPU's fused step,
        ``cuda_graph`` (whether its steps were replayed from a captured graph; ``cuda_graph_error``: why not).

    Raises:
        SentembError: a similarity other than cosine, an empty corpus, a bad device, an unknown ``fit``, or the
            fused fit asked for with another optimiser or, on the CPU, several processes.
    """
    if config.similarity != "cosine":
        raise SentembError(f"Siamese CBOW scores sentences by cosine (got similarity {config.similarity!r})")
    device = resolve_device(config.device)
    processes = world()[1]
    # on a GPU the fused step is torch's kernels replayed as a CUDA graph (sentemb.siamese_cbow.fused_torch)
    gpu_fused = (device.type == "cuda" and fit in ("auto", "fused") and config.optimizer == "sgd"
                 and processes == 1)
    fused = not gpu_fused and fused_fit(fit, config, "sgd", "model.fit")
    # NCCL cannot all-reduce sparse gradients: under torchrun on GPUs the embedding takes dense ones
    sparse = not (processes > 1 and device.type == "cuda")
    encoder = AverageEncoder(vocab_size, dim, init_std=init_std, sparse=sparse, seed=config.seed)
    step_function = None
    if fused:
        from sentemb.siamese_cbow.fused import FusedSGD

        step_function = FusedSGD(encoder.embedding.weight.detach().numpy(), threads=torch.get_num_threads())
    elif gpu_fused:
        from sentemb.siamese_cbow.fused_torch import TorchFusedSGD

        step_function = TorchFusedSGD(encoder, corpus.token_ids, config.max_length, local_device(device))
    stats = train_adjacent_sentences(encoder, corpus, config, log_path=log_path, progress=progress,
                                     step_function=step_function)
    stats["fit"] = "fused" if step_function is not None else "torch"
    if gpu_fused:
        stats["cuda_graph"] = step_function.graphed
        if step_function.capture_error is not None:
            stats["cuda_graph_error"] = step_function.capture_error
    return encoder.embedding.weight.detach().cpu().numpy(), stats
