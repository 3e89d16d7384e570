"""Adjacent-sentence training, shared by Siamese CBOW (Kenter et al. 2016) and Neural Word Salience (Bollegala et
al.): the batches of (centre, previous, next, negatives) tuples, the learning-rate schedule and the two kinds of step,
run by the training skeleton (:func:`sentemb.core.training.train_loop`).

:func:`train_adjacent_sentences` trains any encoder that maps a :class:`~.batch.TokenBatch` to (batch, dim) on the
tuples of a :class:`~sentemb.core.data.corpus.TokenCorpus` with :func:`~.loss.adjacent_sentence_loss`, by torch's
autograd and an optimiser of the registry (:class:`AutogradStep`), or by a family's fused step (:class:`FusedStep`,
run by :class:`ScheduledFusedStep`). Each family chooses its step in one place (:mod:`sentemb.siamese_cbow.train`,
:mod:`sentemb.salience.train`), where its encoders and fused steps live.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import torch
from torch import nn

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
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.errors import SentembError
from sentemb.core.optim import build_optimizers
from sentemb.core.runtime.distributed import world
from sentemb.core.runtime.threads import settle_sqrt
from sentemb.core.training import Schedule, train_loop

log = logging.getLogger(__name__)


class FusedStep(Protocol):
    """A family's fused training step (:class:`sentemb.siamese_cbow.fused.FusedSGD`,
    :class:`sentemb.salience.fused.FusedAdagrad`, :class:`sentemb.siamese_cbow.fused_torch.TorchFusedSGD`): one
    batch's forward, backward and optimiser update of the encoder's parameters in place, with the arithmetic of torch's
    path."""

    def __call__(self, tokens: np.ndarray, starts: np.ndarray, lengths: np.ndarray, n_centre: int, lr: float,
                 negatives: np.ndarray | None) -> float | torch.Tensor:
        """Args: the corpus's token ids (int32, in place), each of the batch's sentences' start in them and its
        length cut at ``max_length`` (int64, [centres, previous, next, corpus negatives …]), the number of centres,
        the learning rate, and for in-batch negatives their rows among the batch's sentences (int64 (n, centres);
        ``None``: the corpus negatives follow the next sentences). Returns the batch's mean loss (nats): a float, or
        a 0-d float32 tensor on the step's device (the GPU's step, which does not wait for it)."""
        ...


def _dense_and_sparse(encoder: nn.Module) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """The encoder's trainable parameters: those with dense gradients, and the weights of its sparse embeddings."""
    sparse = [m.weight for m in encoder.modules() if isinstance(m, nn.Embedding | nn.EmbeddingBag) and m.sparse]
    ids = {id(p) for p in sparse}
    dense = [p for p in encoder.parameters() if p.requires_grad and id(p) not in ids]
    return dense, [p for p in sparse if p.requires_grad]


@dataclass
class AdjacentBatch:
    """One step's sentences.

    Attributes:
        sentences: int64, the sentence indices to encode: [centres, previous, next, negatives …] (each block of
            ``centres`` entries), or, with in-batch negatives in one process, [centres, previous, next] alone.
        centres: B, the centres this process trains on.
        negative_rows: int64 (n, B), each centre's negatives as rows of ``sentences`` (in-batch negatives in one
            process); ``None``: the negatives follow the next sentences.
        share: this process's share of the batch's centres × the processes (1.0 in one process).
    """

    sentences: np.ndarray
    centres: int
    negative_rows: np.ndarray | None
    share: float = 1.0


class AdjacentBatches:
    """The batches of a run, epoch by epoch (``batches(epoch)`` for :func:`~sentemb.core.training.train_loop`).

    Centres come in a seeded random order each epoch; their negatives are drawn from the corpus
    (:func:`~.sampling.corpus_negatives`) or from the batch (:func:`~.sampling.in_batch_negatives`). Under torchrun
    every process draws the same batches and takes its share of their centres. Counts what it hands out: centre
    sentences, their words, and the words encoded.
    """

    def __init__(self, corpus: TokenCorpus, config: AdjacentSentenceConfig, rank: int, world_size: int):
        self.corpus, self.config, self.rank, self.world_size = corpus, config, rank, world_size
        self.rng = np.random.default_rng(config.seed)
        self.centres, self.candidates = training_tuples(corpus)
        self.in_batch = config.negatives == "batch"
        self.roles = tuple_roles(corpus, self.centres) if self.in_batch else None
        self.per_epoch = math.ceil(len(self.centres) / config.batch_size)
        self.smallest = max(2, world_size) if self.in_batch else world_size  # a smaller last batch is skipped
        last = len(self.centres) - (self.per_epoch - 1) * config.batch_size
        self.steps_per_epoch = self.per_epoch - (last < self.smallest)
        self.sentences = self.words = self.encoded = 0

    def __call__(self, epoch: int) -> Iterator[tuple[float, int, AdjacentBatch]]:
        """``(position, centres, batch)`` for each step of ``epoch``."""
        config, lengths = self.config, self.corpus.lengths
        order = self.rng.permutation(self.centres)
        for b in range(self.per_epoch):
            c = order[b * config.batch_size : (b + 1) * config.batch_size]
            neg_rows = None
            if self.in_batch:
                if len(c) < self.smallest:  # a last batch of one centre has no other tuple to draw from
                    continue
                sentences = np.concatenate([c, c - 1, c + 1])
                neg_rows = in_batch_negatives(sentences, self.roles, config.neg, self.rng)
                neg = sentences[neg_rows]
            else:
                neg = corpus_negatives(self.candidates, config.neg, len(c), self.rng)
                if len(c) < self.smallest:  # a last batch too small to share: every process skips it alike
                    continue
            size = len(c)  # the whole batch, whatever share of it this process encodes
            encode_once = neg_rows is not None and self.world_size == 1  # negatives are rows of the batch's own
            encoded = sentences if encode_once else np.concatenate([c, c - 1, c + 1, neg.ravel()])
            self.sentences += size
            self.words += int(lengths[c].sum())
            self.encoded += int(np.minimum(lengths[encoded], config.max_length or np.iinfo(np.int64).max).sum())
            if encode_once:
                batch = AdjacentBatch(encoded, size, neg_rows)
            elif self.world_size == 1:
                batch = AdjacentBatch(encoded, size, None)
            else:  # this process's share of the batch's centres, with their negatives
                part = np.array_split(np.arange(size), self.world_size)[self.rank]
                c, neg = c[part], neg[:, part]
                batch = AdjacentBatch(np.concatenate([c, c - 1, c + 1, neg.ravel()]), len(c), None,
                                      len(part) * self.world_size / size)
            yield epoch + (b + 1) / self.per_epoch, size, batch


class _LearningRate:
    """lr_t = lr₀ · factor(t) at the t-th step (:meth:`AdjacentSentenceConfig.schedule`), and Σ_t lr_t so far."""

    def __init__(self, config: AdjacentSentenceConfig, batches_per_epoch: int):
        self.lr0, self.factor = config.schedule(batches_per_epoch)
        self.taken, self.lr_sum = 0, 0.0

    def next(self) -> float:
        lr = self.lr0 * self.factor(self.taken)
        self.taken += 1
        self.lr_sum += lr
        return lr

    @property
    def now(self) -> float:
        """The rate of the next step."""
        return self.lr0 * self.factor(self.taken)


class ScheduledFusedStep(_LearningRate):
    """A family's :class:`FusedStep` at the run's learning rates, reading the sentences from the corpus in place."""

    def __init__(self, fused: FusedStep, corpus: TokenCorpus, config: AdjacentSentenceConfig, batches_per_epoch: int):
        super().__init__(config, batches_per_epoch)
        self.fused, self.max_length = fused, config.max_length
        self.tokens = np.asarray(corpus.token_ids)  # plain views of the memory maps, for a compiled step
        self.starts = np.asarray(corpus.offsets, dtype=np.int64)

    def __call__(self, batch: AdjacentBatch) -> torch.Tensor:
        starts = self.starts[batch.sentences]
        kept = self.starts[batch.sentences + 1] - starts
        if self.max_length is not None:
            np.minimum(kept, self.max_length, out=kept)
        loss = self.fused(self.tokens, starts, kept, batch.centres, self.next(), batch.negative_rows)
        return torch.as_tensor(loss, dtype=torch.float32)  # summed where it lies, as torch's path sums its losses


class AutogradStep(_LearningRate):
    """torch's forward, :func:`~.loss.adjacent_sentence_loss`, backward and the optimisers of the registry
    (:func:`sentemb.core.optim.build_optimizers`: the sparse embeddings' and the dense parameters')."""

    def __init__(self, encoder: nn.Module, model: nn.Module, corpus: TokenCorpus, config: AdjacentSentenceConfig,
                 similarity: str, device: torch.device, batches_per_epoch: int):
        super().__init__(config, batches_per_epoch)
        self.model, self.corpus, self.similarity, self.device = model, corpus, similarity, device
        self.max_length, self.k = config.max_length, 2 + config.neg
        dense, sparse = _dense_and_sparse(encoder)
        self.optimizers = build_optimizers(config.optimizer, dense, sparse, self.lr0)

    def __call__(self, batch: AdjacentBatch) -> torch.Tensor:
        lr, bsz = self.next(), batch.centres
        ids, offsets = self.corpus.gather(batch.sentences, self.max_length)
        emb = self.model(TokenBatch.from_numpy(ids, offsets, self.device))
        if batch.negative_rows is not None:  # autograd sums a sentence's gradient over the centres that name it
            cands = emb[torch.from_numpy(candidate_rows(bsz, batch.negative_rows)).to(self.device)]
        else:
            cands = emb[bsz:].view(self.k, bsz, -1).transpose(0, 1)
        loss = adjacent_sentence_loss(emb[:bsz], cands, n_positive=2, similarity=self.similarity) * batch.share
        for opt in self.optimizers:
            for group in opt.param_groups:
                group["lr"] = lr
            opt.zero_grad(set_to_none=True)
        loss.backward()
        for opt in self.optimizers:
            opt.step()
        return loss.detach()


def train_adjacent_sentences(
    encoder: nn.Module,
    corpus: TokenCorpus,
    config: AdjacentSentenceConfig,
    similarity: str,
    device: torch.device,
    log_path: str | Path | None = None,
    progress: bool = True,
    step_function: FusedStep | None = None,
) -> dict:
    """Train ``encoder`` to predict each sentence's neighbours among random sentences (Kenter et al. 2016 §2).

    For each centre sentence s_i: S+ = {s_{i−1}, s_{i+1}} (same document), S− = ``config.neg`` sentences drawn
    uniformly from the non-empty sentences of the corpus (not de-duplicated against S+, as the authors' code), or,
    with ``config.negatives == "batch"``, from the batch's other tuples (:func:`~.sampling.in_batch_negatives`; a last
    batch of a single centre is skipped). Centres are visited in a seeded random order each epoch
    (:class:`AdjacentBatches`).

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
        step_function: the family's fused step (:class:`FusedStep`) instead of torch's forward, backward and
            optimiser, matched by the family to ``config.optimizer``: the same tuples, learning rates and arithmetic.

    Returns:
        Training statistics: tuples, batches, wall seconds, centre sentences/s, corpus words/s (tokens of the
        centre sentences), encoded words/s (tokens of every sentence encoded), the final mean loss, the initial
        learning rate and Σ_t lr_t over the run (the training amount).

    Raises:
        SentembError: an empty corpus, a fused step under torchrun, or a loss that is no longer finite.
    """
    rank, world_size = world()
    settle_sqrt()  # the optimisers' square roots, the same on several threads (sentemb.core.runtime.threads)
    torch.manual_seed(config.seed)
    batches = AdjacentBatches(corpus, config, rank, world_size)
    encoder.to(device).train()
    if step_function is not None:
        if world_size > 1:
            raise SentembError("the fused step runs in one process; under torchrun use the torch fit")
        step: ScheduledFusedStep | AutogradStep = ScheduledFusedStep(step_function, corpus, config, batches.per_epoch)
    else:
        model = encoder if world_size == 1 else nn.parallel.DistributedDataParallel(
            encoder, device_ids=[device] if device.type == "cuda" else None)
        step = AutogradStep(encoder, model, corpus, config, similarity, device, batches.per_epoch)

    def record(at: int, position: float, loss: float) -> dict:
        return {"step": at, "epoch": position, "sentences": batches.sentences, "loss": round(loss, 6),
                "lr": step.now}

    def mean_over_processes(window: torch.Tensor) -> torch.Tensor:  # Σ_ranks share × local mean = world × the mean
        torch.distributed.all_reduce(window)
        return window / world_size

    run = train_loop(batches, step, Schedule(config.epochs, batches.steps_per_epoch, config.log_every), record,
                     what="adjacent-sentence training", log_path=log_path if rank == 0 else None,
                     progress=progress and rank == 0, total=len(batches.centres) * config.epochs, unit="sent",
                     reduce=mean_over_processes if world_size > 1 else None,
                     synchronize=torch.cuda.synchronize if device.type == "cuda" else None)
    wall = run.train_seconds
    return {
        "device": str(device) + (f" × {world_size} processes" if world_size > 1 else ""),
        "tuples": len(batches.centres),
        "batches": run.steps,
        "wall_seconds": round(wall, 1),
        "sentences_per_second": round(batches.sentences / wall),
        "corpus_words_per_second": round(batches.words / wall),
        "encoded_words_per_second": round(batches.encoded / wall),
        "final_loss": round(run.last_loss, 6),
        "lr_initial": step.lr0,
        "lr_sum": round(step.lr_sum, 4),
        "config": config.model_dump(),
    }
