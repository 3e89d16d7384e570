"""Train Siamese CBOW word vectors (Kenter et al. 2016 §2-3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from sentemb.adjacent_sentences.loop import train_adjacent_sentences
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.runtime.device import resolve_device
from sentemb.core.runtime.distributed import local_device, world
from sentemb.siamese_cbow.config import SiameseCBOWConfig
from sentemb.siamese_cbow.encoder import AverageEncoder


def train_siamese_cbow(corpus: TokenCorpus, vocab_size: int, config: SiameseCBOWConfig,
                       log_path: str | Path | None = None, progress: bool = True) -> tuple[np.ndarray, dict]:
    """Word vectors whose sentence averages predict adjacent sentences (Kenter et al. 2016 §2.1, cosine softmax).

    ``config.fit``: ``"torch"``: torch's forward, backward and optimiser (any optimiser, CPU or GPU); ``"fused"``: SGD
    as one fused step per batch, the same arithmetic, several times faster: on the CPU compiled
    (:mod:`sentemb.siamese_cbow.fused`), on a GPU torch's kernels with the gradient written out, replayed as a CUDA
    graph (:mod:`sentemb.siamese_cbow.fused_torch`); ``"auto"``: fused for SGD in one process, torch otherwise (and
    under ``torchrun`` the loop's DistributedDataParallel).

    Args:
        corpus: the token-id corpus (ids in [0, vocab_size)).
        vocab_size: V.
        config: the ``model`` section (:class:`~sentemb.siamese_cbow.config.SiameseCBOWConfig`); the initial vectors
            are drawn from N(0, init_std²) with ``config.seed``.
        log_path: CSV loss log.

    Returns:
        ``(vectors, stats)``: float32 (V, dim), row i the vector of word id i; the training statistics of
        :func:`~sentemb.adjacent_sentences.loop.train_adjacent_sentences`, with ``fit`` and, for the GPU's fused step,
        ``cuda_graph`` (whether its steps were replayed from a captured graph; ``cuda_graph_error``: why not).

    Raises:
        SentembError: an empty corpus, a bad device, or the fused fit asked for with another optimiser or, on the CPU,
            several processes.
    """
    device = local_device(resolve_device(config.device))
    processes = world()[1]
    fused = config.takes_fused_step("sgd", device.type, processes, "model", devices=("cpu", "cuda"))
    # NCCL cannot all-reduce sparse gradients: under torchrun on GPUs the embedding takes dense ones
    sparse = not (processes > 1 and device.type == "cuda")
    encoder = AverageEncoder(vocab_size, config.dim, init_std=config.init_std, sparse=sparse, seed=config.seed)
    step_function = _fused_step(encoder, corpus, config, device) if fused else None
    stats = train_adjacent_sentences(encoder, corpus, config, "cosine", device, log_path=log_path, progress=progress,
                                     step_function=step_function)
    stats["fit"] = "fused" if fused else "torch"
    if fused and device.type == "cuda":
        stats["cuda_graph"] = step_function.graphed
        if step_function.capture_error is not None:
            stats["cuda_graph_error"] = step_function.capture_error
    return encoder.embedding.weight.detach().cpu().numpy(), stats


def _fused_step(encoder: AverageEncoder, corpus: TokenCorpus, config: SiameseCBOWConfig, device: torch.device):
    """Siamese CBOW's fused SGD step: compiled on the CPU (:class:`~sentemb.siamese_cbow.fused.FusedSGD`), torch's
    kernels replayed as a CUDA graph on a GPU (:class:`~sentemb.siamese_cbow.fused_torch.TorchFusedSGD`)."""
    if device.type == "cuda":
        from sentemb.siamese_cbow.fused_torch import TorchFusedSGD

        return TorchFusedSGD(encoder, corpus.token_ids, config.max_length, device)
    from sentemb.siamese_cbow.fused import FusedSGD

    return FusedSGD(encoder.embedding.weight.detach().numpy(), threads=torch.get_num_threads())
