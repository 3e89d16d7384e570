"""The adjacent-sentence training loop shared by Siamese CBOW (Kenter et al. 2016) and Neural Word Salience (Bollegala
et al.): device, batching, negatives, learning-rate schedule, progress, loss log and throughput.

:func:`train_adjacent_sentences` trains any encoder that maps a :class:`~.batch.TokenBatch` to (batch, dim) on
(centre, previous, next, negatives) tuples of a :class:`~sentemb.core.data.corpus.TokenCorpus` with
:func:`~.loss.adjacent_sentence_loss`, by torch's autograd and an optimiser of the registry
(:mod:`sentemb.core.optim`), or by a family's compiled step (:class:`FusedStep`). The encoders and the compiled steps
live with their families (:mod:`sentemb.siamese_cbow`, :mod:`sentemb.salience`).
"""

from __future__ import annotations

import csv
import logging
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import numpy as np
import torch
from torch import nn
from tqdm.auto import tqdm

from sentemb.adjacent_sentences.batch import TokenBatch
from sentemb.adjacent_sentences.config import AdjacentSentenceConfig
from sentemb.adjacent_sentences.loss import adjacent_sentence_loss
from sentemb.adjacent_sentences.sampling import (
    candidate_rows,
    corpus_negatives,
    in_batch_negatives,
    training_tuples,
    tuple_roles,
)
from sentemb.core.atomic import atomic_open
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.errors import SentembError
from sentemb.core.optim import build_optimizers
from sentemb.core.runtime.distributed import world
from sentemb.core.runtime.threads import settle_sqrt

log = logging.getLogger(__name__)


class FusedStep(Protocol):
    """A family's compiled training step (:class:`sentemb.siamese_cbow.fused.FusedSGD`,
    :class:`sentemb.salience.fused.FusedAdagrad`): one batch's forward, backward and optimiser update of the
    encoder's parameters in place, with the arithmetic of torch's path."""

    def __call__(self, tokens: np.ndarray, starts: np.ndarray, lengths: np.ndarray, n_centre: int, lr: float,
                 negatives: np.ndarray | None) -> float:
        """Args: the corpus's token ids (int32, in place), each of the batch's sentences' start in them and its
        length cut at ``max_length`` (int64, [centres, previous, next, corpus negatives …]), the number of centres,
        the learning rate, and for in-batch negatives their rows among the batch's sentences (int64 (n, centres);
        ``None``: the corpus negatives follow the next sentences). Returns the batch's mean loss (nats)."""
        ...


def uses_fused_step(config: AdjacentSentenceConfig, device: torch.device, optimizer: str, key: str) -> bool:
    """Whether a trainer takes its compiled step (``fit: fused``; ``auto``: when it can) rather than torch's autograd.

    A compiled step implements one optimiser on the CPU in one process.

    Args:
        config: the run's settings (``fit``, ``optimizer``).
        device: where the run trains.
        optimizer: the one optimiser the family's compiled step implements (``"sgd"``, ``"adagrad"``).
        key: the params section named in errors (``model``, ``nws``).

    Raises:
        SentembError: ``fit: fused`` asked for with another optimiser, a GPU or several processes.
    """
    processes = world()[1]
    possible = config.optimizer == optimizer and device.type == "cpu" and processes == 1
    if config.fit == "fused" and not possible:
        raise SentembError(f"{key}.fit: the fused fit is optimizer {optimizer!r} on the CPU in one process (optimizer "
                           f"{config.optimizer!r}, device {device}, {processes} processes); use fit: torch or auto")
    return config.fit == "fused" or (config.fit == "auto" and possible)


def _dense_and_sparse(encoder: nn.Module) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """The encoder's trainable parameters: those with dense gradients, and the weights of its sparse embeddings."""
    sparse = [m.weight for m in encoder.modules() if isinstance(m, nn.Embedding | nn.EmbeddingBag) and m.sparse]
    ids = {id(p) for p in sparse}
    dense = [p for p in encoder.parameters() if p.requires_grad and id(p) not in ids]
    return dense, [p for p in sparse if p.requires_grad]


def train_adjacent_sentences(
    encoder: nn.Module,
    corpus: TokenCorpus,
    config: AdjacentSentenceConfig,
    similarity: str,
    device: torch.device,
    log_path: str | Path | None = None,
    progress: bool = True,
    checkpoint: Callable[[int, nn.Module], None] | None = None,
    checkpoint_every: int | None = None,
    step_function: FusedStep | None = None,
) -> dict:
    """Train ``encoder`` to predict each sentence's neighbours among random sentences (Kenter et al. 2016 §2).

    For each centre sentence s_i: S+ = {s_{i−1}, s_{i+1}} (same document), S− = ``config.neg`` sentences drawn
    uniformly from the non-empty sentences of the corpus (not de-duplicated against S+, as the authors' code), or,
    with ``config.negatives == "batch"``, from the batch's other tuples (:func:`~.sampling.in_batch_negatives`; a last
    batch of a single centre is skipped). Centres are visited in a seeded random order each epoch.

    Under ``torchrun`` (a process group up, :func:`sentemb.core.runtime.distributed.init_distributed`) the encoder is
    wrapped in ``DistributedDataParallel``. Every process draws the same centres and negatives (the same seed) and
    takes its share of each batch's centres; its mean loss is weighted by its share, so the gradients DDP averages are
    those of the whole batch's mean: the same step as one process, up to float rounding. The embedding's sparse
    gradients are all-reduced by Gloo as sparse tensors (on the CPU); NCCL has no sparse all-reduce, so on GPUs the
    caller gives the encoder dense gradients. Only rank 0 writes the loss log.

    Args:
        encoder: a module mapping a :class:`~.batch.TokenBatch` to (batch, dim).
        corpus: the token-id corpus.
        config: hyperparameters.
        similarity: ``"cosine"`` (Siamese CBOW) or ``"dot"`` (NWS), :func:`~.loss.adjacent_sentence_loss`.
        device: where to train (this process's own GPU under torchrun).
        log_path: CSV file for the loss log (``step,epoch,sentences,loss,lr``), written atomically at the end.
        progress: show a tqdm bar in sentences/s.
        checkpoint: called as ``checkpoint(step, encoder)`` before the first batch, every ``checkpoint_every``
            batches and after the last (e.g. to score the model during training); its time is not counted in the
            throughput.
        step_function: the family's compiled step (:class:`FusedStep`) instead of torch's forward, backward and
            optimiser, matched by the caller to ``config.optimizer``: the same tuples, learning rates and arithmetic.

    Returns:
        Training statistics: tuples, batches, wall seconds, centre sentences/s, corpus words/s (tokens of the
        centre sentences), encoded words/s (tokens of every sentence encoded), the final mean loss, the initial
        learning rate and Σ_t lr_t over the run (the training amount).

    Raises:
        SentembError: an empty corpus, or a loss that is no longer finite.
    """
    rank, world_size = world()
    settle_sqrt()  # the optimisers' square roots, the same on several threads (sentemb.core.runtime.threads)
    torch.manual_seed(config.seed)
    rng = np.random.default_rng(config.seed)
    centres, candidates = training_tuples(corpus)
    in_batch = config.negatives == "batch"
    roles = tuple_roles(corpus, centres) if in_batch else None
    encoder.to(device).train()
    model = encoder
    if world_size > 1:
        if step_function is not None:
            raise SentembError("the fused step runs in one process; under torchrun use the torch fit")
        model = nn.parallel.DistributedDataParallel(encoder, device_ids=[device] if device.type == "cuda" else None)
    batches_per_epoch = math.ceil(len(centres) / config.batch_size)
    smallest = max(2, world_size) if in_batch else world_size  # a smaller last batch is skipped (below)
    last_batch = len(centres) - (batches_per_epoch - 1) * config.batch_size
    total = (batches_per_epoch - (last_batch < smallest)) * config.epochs  # the steps taken
    lr0, factor = config.schedule(batches_per_epoch)
    optimizers = build_optimizers(config.optimizer, *_dense_and_sparse(encoder), lr0)
    schedules = [torch.optim.lr_scheduler.LambdaLR(opt, factor) for opt in optimizers]
    first_group = optimizers[0].param_groups[0]
    lr_sum = 0.0
    lengths = corpus.lengths
    tokens = np.asarray(corpus.token_ids)  # plain views of the memory maps, for a compiled step function
    sentence_starts = np.asarray(corpus.offsets, dtype=np.int64)
    k = 2 + config.neg
    rows: list[dict] = []
    window_loss, window_n = torch.zeros((), device=device), 0  # summed on the device: no sync per batch
    n_sent = n_words = n_encoded = 0
    last_loss = float("nan")
    bar = tqdm(total=len(centres) * config.epochs, unit="sent", unit_scale=True, disable=not progress or rank > 0,
               desc="train", mininterval=2.0)
    paused = 0.0

    def _checkpoint(at: int) -> None:
        nonlocal paused
        if checkpoint is None:
            return
        t = time.perf_counter()
        encoder.eval()
        with torch.no_grad():
            checkpoint(at, encoder)
        encoder.train()
        paused += time.perf_counter() - t

    t0 = time.perf_counter()
    step = 0
    _checkpoint(0)
    for epoch in range(config.epochs):
        order = rng.permutation(centres)
        for b in range(batches_per_epoch):
            c = order[b * config.batch_size : (b + 1) * config.batch_size]
            if in_batch:
                if len(c) < smallest:  # a last batch of one centre has no other tuple to draw from
                    continue
                sentences = np.concatenate([c, c - 1, c + 1])
                neg_rows = in_batch_negatives(sentences, roles, config.neg, rng)
                if world_size > 1:  # their sentence indices, for a process's share
                    neg = sentences[neg_rows]
            else:
                neg = corpus_negatives(candidates, config.neg, len(c), rng)
                if len(c) < smallest:  # a last batch too small to share: every process skips it alike
                    continue
            n_sent += len(c)  # the whole batch, whatever share of it this process encodes
            n_words += int(lengths[c].sum())
            bar.update(len(c))
            share = 1.0
            if world_size > 1:  # this process's share of the batch's centres, with their negatives
                n_encoded += int(np.minimum(lengths[np.concatenate([c, c - 1, c + 1, neg.ravel()])],
                                            config.max_length or np.iinfo(np.int64).max).sum())
                part = np.array_split(np.arange(len(c)), world_size)[rank]
                share = len(part) * world_size / len(c)
                c, neg = c[part], neg[:, part]
            bsz = len(c)
            encode_once = in_batch and world_size == 1  # the negatives are rows of the batch's own sentences
            idx = sentences if encode_once else np.concatenate([c, c - 1, c + 1, neg.ravel()])
            if step_function is not None:  # it reads the sentences from the corpus in place
                starts = sentence_starts[idx]
                kept = sentence_starts[idx + 1] - starts
                if config.max_length is not None:
                    np.minimum(kept, config.max_length, out=kept)
                n_encoded += int(kept.sum())
                lr = lr0 * factor(step)
                loss = step_function(tokens, starts, kept, bsz, lr, neg_rows if encode_once else None)
                lr_sum += lr
            else:
                ids, offsets = corpus.gather(idx, config.max_length)
                if world_size == 1:
                    n_encoded += len(ids)
                emb = model(TokenBatch.from_numpy(ids, offsets, device))
                center = emb[:bsz]
                if encode_once:  # autograd sums a sentence's gradient over the centres that name it
                    cands = emb[torch.from_numpy(candidate_rows(bsz, neg_rows)).to(device)]
                else:
                    cands = emb[bsz:].view(k, bsz, -1).transpose(0, 1)
                loss = adjacent_sentence_loss(center, cands, n_positive=2, similarity=similarity) * share
                for opt in optimizers:
                    opt.zero_grad(set_to_none=True)
                loss.backward()
                lr_sum += first_group["lr"]
                for opt, schedule in zip(optimizers, schedules, strict=True):
                    opt.step()
                    schedule.step()
                loss = loss.detach()
            step += 1
            window_loss += loss
            window_n += 1
            if step % config.log_every == 0 or step == total:
                if world_size > 1:  # Σ_ranks share × local mean = world × the batch's mean
                    torch.distributed.all_reduce(window_loss)
                    window_loss /= world_size
                last_loss = float(window_loss) / window_n
                if not math.isfinite(last_loss):
                    raise SentembError(f"training diverged: mean loss {last_loss} before step {step} (lower the "
                                       "learning rate, lr)")
                rows.append({"step": step, "epoch": epoch + (b + 1) / batches_per_epoch, "sentences": n_sent,
                             "loss": round(last_loss, 6),
                             "lr": lr0 * factor(step) if step_function is not None else first_group["lr"]})
                bar.set_postfix(loss=f"{last_loss:.4f}")
                window_loss, window_n = torch.zeros((), device=device), 0
            if checkpoint_every and step % checkpoint_every == 0 and step != total:
                _checkpoint(step)
    _checkpoint(step)
    if device.type == "cuda":
        torch.cuda.synchronize()
    wall = time.perf_counter() - t0 - paused
    bar.close()
    if log_path is not None and rank == 0:
        with atomic_open(log_path, newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=["step", "epoch", "sentences", "loss", "lr"])
            w.writeheader()
            w.writerows(rows)
    return {
        "device": str(device) + (f" × {world_size} processes" if world_size > 1 else ""),
        "tuples": len(centres),
        "batches": step,
        "wall_seconds": round(wall, 1),
        "sentences_per_second": round(n_sent / wall),
        "corpus_words_per_second": round(n_words / wall),
        "encoded_words_per_second": round(n_encoded / wall),
        "final_loss": round(last_loss, 6),
        "lr_initial": lr0,
        "lr_sum": round(lr_sum, 4),
        "config": config.model_dump(),
    }
