"""Training paraphrastic encoders on paraphrase pairs, model selection, and the saved model.

The objective (Wieting et al. 2016 §3; Wieting & Gimpel 2017 Eq. 2), for a mini-batch S_b of pairs (s1, s2):

    (1/|S_b|) Σ max(0, δ − cos(g(s1), g(s2)) + cos(g(s1), g(t1))) + max(0, δ − cos(g(s1), g(s2)) + cos(g(s2), g(t2)))
    + (λc/2) ‖W_c‖² + (λw/2) ‖W_w,initial − W_w‖²

(the papers write λ‖·‖²; the authors' code, whose runs chose the λ values, weights each term by λ/2:
``0.5 * params.LW * l2(We - initial_We)``), where t1 and t2 are negatives taken from the mini-batch
(:func:`negative_indices`): MAX, the most similar sentence under the current model other than those of the pair
itself; MIX, MAX with probability 0.5 and otherwise a random one; RAND, a random one. A candidate with the same
tokens as either sentence of the pair is never chosen (the staged TurkCorpus has 8 pairs per complex sentence, so a
batch can hold the same sentence twice). The negatives are chosen among the embeddings of the training forward pass
(with dropout, when it is on), and the loss flows through them.

Scrambling (Wieting & Gimpel §4.1.3) shuffles the words of both sentences of a pair with probability p, before the
negatives are chosen. Model selection evaluates the model every ``1 / evals_per_epoch`` of an epoch (the authors'
code: every quarter epoch) and keeps the best checkpoint under a selection score: the mean Pearson r over the five
STS 2016 sets for the phrase models ("test" mode), SimLex-999's Spearman ρ for PARAGRAM word vectors.

With sparse word embeddings (the default on the CPU: ``sparse_embeddings``) a step touches only the rows of its
batch: λw's term is taken over those rows (a "lazy" L2, as sparse SGD implementations do), and Adam becomes
torch's SparseAdam on the embeddings (moments of a row updated when it occurs; its CPU step compiled, to the same
bits: :class:`~sentemb.core.optim.sparse.CompiledSparseAdam`). Dense embeddings give the papers'
exact objective — the full-matrix λw term and plain Adam at every step — at the cost of passing over every trained
row at every step (PARAGRAM: about 7 minutes an epoch on 2 CPU cores instead of under one).

Only the rows of the word-embedding matrix that a run can touch are trained: the words of the training pairs (their
gradient) and of the selection data. Every other row has a zero gradient from both terms of the loss throughout
(λw's term vanishes at W = W_initial), so leaving it out changes nothing. The saved model stores those rows and the
composition parameters, and reads the rest from the word-vector model it started from.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from sentemb.core.errors import SentembError
from sentemb.core.evaluation.correlation import correlations
from sentemb.core.evaluation.cosine import cosine_scores
from sentemb.core.evaluation.word_similarity import word_similarity, word_similarity_rows
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.optim import build_optimizers
from sentemb.core.runtime.device import resolve_device
from sentemb.core.runtime.distributed import local_device, world
from sentemb.core.runtime.threads import settle_sqrt
from sentemb.core.training import BestCheckpoint, Schedule, train_loop
from sentemb.paraphrastic.composition import CompositionEncoder, PaddedBatch, encode_ids
from sentemb.paraphrastic.config import ParaphrasticConfig

log = logging.getLogger(__name__)

NEGATIVE_MODES = ("max", "mix", "rand")
PRODUCT_DTYPES = {"float32": None, "bfloat16": torch.bfloat16}  # ParaphraseConfig.products → the products' dtype


def negative_indices(g1: torch.Tensor, g2: torch.Tensor, mode: str = "max", keys: np.ndarray | None = None,
                     generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Choose t1 for every s1 and t2 for every s2 among the batch's 2B sentences (Wieting et al. 2016 §3).

    Args:
        g1, g2: float (B, d): embeddings of the first and second sentences of the B pairs.
        mode: ``max``, ``mix`` or ``rand``.
        keys: int64 (2B,): an identifier of each sentence's tokens, in the order ``[s1 …, s2 …]``; a candidate
            whose key equals either sentence of the pair is excluded too. ``None``: only the pair's own two.
        generator: a CPU generator for ``mix`` and ``rand`` (``None``: torch's default CPU generator). The uniform
            numbers are drawn on the CPU and copied to the device of ``g1``, so a GPU run draws what a CPU run does.

    Returns:
        ``(t1, t2)``: int64 (B,) indices into ``torch.cat([g1, g2])``. A row with no allowed candidate (a batch of
        one pair) gets its own index, which adds a constant δ to the loss and no gradient.

    Raises:
        SentembError: an unknown mode.
    """
    if mode not in NEGATIVE_MODES:
        raise SentembError(f"negatives: unknown mode {mode!r} (expected one of {NEGATIVE_MODES})")
    b = g1.shape[0]
    with torch.no_grad():
        cand = F.normalize(torch.cat([g1, g2]), dim=1)
        own = torch.arange(b, device=g1.device)
        allowed = torch.ones(b, 2 * b, dtype=torch.bool, device=g1.device)
        allowed[own, own] = False
        allowed[own, own + b] = False
        if keys is not None:
            k = torch.as_tensor(keys, device=g1.device)
            allowed &= (k[None, :] != k[:b, None]) & (k[None, :] != k[b:, None])
        out = []
        for anchors, fallback in ((cand[:b], own), (cand[b:], own + b)):
            sims = anchors @ cand.T
            if mode != "max":
                random = torch.rand(sims.shape, generator=generator).to(g1.device)
                pick = torch.ones(b, 1, dtype=torch.bool, device=g1.device) if mode == "rand" else (
                    torch.rand(b, 1, generator=generator).to(g1.device) < 0.5)
                sims = torch.where(pick, random, sims)
            idx = sims.masked_fill(~allowed, -math.inf).argmax(dim=1)
            out.append(torch.where(allowed.any(dim=1), idx, fallback))
    return out[0], out[1]


def margin_loss(g1: torch.Tensor, g2: torch.Tensor, t1: torch.Tensor, t2: torch.Tensor,
                margin: float) -> torch.Tensor:
    """The hinge terms of Eq. 2 averaged over the batch: mean of max(0, δ − cos(g1, g2) + cos(g1, t1))
    + max(0, δ − cos(g1, g2) + cos(g2, t2)). All inputs float (B, d); returns a scalar."""
    pos = F.cosine_similarity(g1, g2, dim=1, eps=1e-8)
    return (F.relu(margin - pos + F.cosine_similarity(g1, t1, dim=1, eps=1e-8))
            + F.relu(margin - pos + F.cosine_similarity(g2, t2, dim=1, eps=1e-8))).mean()


def scramble(pairs: Sequence[tuple[np.ndarray, np.ndarray]], rate: float, rng: np.random.Generator
             ) -> list[tuple[np.ndarray, np.ndarray]]:
    """With probability ``rate`` per pair, shuffle the words of BOTH its sentences (Wieting & Gimpel §4.1.3);
    the others are returned unchanged. Inputs are not modified."""
    out = []
    for s1, s2 in pairs:
        if rate > 0 and rng.random() < rate:
            s1, s2 = rng.permutation(s1), rng.permutation(s2)
        out.append((s1, s2))
    return out


def _sentence_keys(sentences: Sequence[np.ndarray]) -> np.ndarray:
    return np.fromiter((hash(s.tobytes()) for s in sentences), dtype=np.int64, count=len(sentences))


def train_paraphrastic(
    encoder: CompositionEncoder,
    pairs: Sequence[tuple[np.ndarray, np.ndarray]],
    config: ParaphrasticConfig,
    select: Callable[[CompositionEncoder], dict[str, float]],
    log_path: str | Path | None = None,
) -> dict:
    """Minimise Eq. 2 over ``pairs`` and keep the checkpoint with the highest ``select(encoder)[config.select]``.

    Args:
        encoder: its ``embedding`` holds W_w,initial on entry.
        pairs: (ids1, ids2) per pair, int64 arrays of row indices into ``encoder.embedding``.
        config: a ``paraphrastic.NAME`` section (:class:`~sentemb.paraphrastic.config.ParaphrasticConfig`): margin
            δ, negatives (``max``, ``mix``, ``rand``), batches, epochs, optimiser (:mod:`sentemb.core.optim`), λw and
            λc (each term (λ/2)‖·‖², as the authors' code), scrambling, gradient clipping, sparse embeddings,
            checkpoints per epoch, seed (batching, scrambling, dropout and negatives), device and the products'
            dtype (bfloat16: the recurrence's products in training; selection and the saved model are float32).
        select: scores the encoder (called in eval mode, without gradients) → {name: value}, ``config.select``
            among them (higher is better); every value is logged at every checkpoint.
        log_path: CSV of ``step, epoch, pairs_seen, loss`` and the scores, one row per checkpoint (written
            atomically at the end; each checkpoint is also logged as it happens).

    Returns:
        Statistics: ``selected`` (the selected checkpoint's row), ``best_by`` (for each score, the row where it
        peaks: the "oracle" selection), ``checkpoints``, ``pairs_per_second``, ``train_seconds`` (the updates
        alone), ``seconds`` (with the selection), ``device`` and ``config``. ``encoder`` is left with the selected
        checkpoint's parameters, on the CPU.

    Under ``torchrun`` (a process group up, :func:`sentemb.core.runtime.distributed.init_distributed`) the encoder is
    wrapped in ``DistributedDataParallel``: each process trains on mini-batches of its own (every process draws the same
    order of pairs; process r takes batches r, r + P, r + 2P … of it, and the batches left over at an epoch's end are
    skipped), so the negatives are still chosen inside a mini-batch of ``batch_size`` pairs, as in the papers, and
    one update averages P mini-batches' gradients (P times fewer, larger steps an epoch). Sparse embedding gradients
    are all-reduced by Gloo (CPU); on GPUs (NCCL) use ``sparse_embeddings: false``. Every process selects the same
    checkpoint (their weights are equal); only rank 0 writes the log.

    Raises:
        SentembError: no pairs, an embedding whose sparsity disagrees with ``config.sparse_embeddings``, sparse
            embeddings under NCCL, or a non-finite loss (the message names the step).
    """
    if not pairs:
        raise SentembError("paraphrastic training: no training pairs")
    if encoder.embedding.sparse != config.sparse_embeddings:
        raise SentembError(f"paraphrastic training: sparse_embeddings is {config.sparse_embeddings} but the "
                           f"encoder's embedding has sparse={encoder.embedding.sparse}")
    device = local_device(resolve_device(config.device))
    rank, processes = world()
    settle_sqrt()  # Adam's and SparseAdam's square roots, the same on several threads (sentemb.core.runtime.threads)
    if processes > 1 and device.type == "cuda" and config.sparse_embeddings:
        raise SentembError("paraphrastic training under torchrun on GPUs: NCCL cannot all-reduce sparse gradients; "
                           "set sparse_embeddings: false")
    torch.manual_seed(config.seed)
    encoder.to(device)
    batches = PairBatches(pairs, config, rank, processes)
    step = MarginStep(encoder, config, device, rank, processes)
    selection = Selection(encoder, select, config.select)
    with encoder.training_products(PRODUCT_DTYPES[config.products]):  # float32 again after, even on an error
        run = train_loop(batches, step, Schedule(config.epochs, batches.per_epoch,
                                                 max(1, math.ceil(batches.per_epoch / config.evals_per_epoch)),
                                                 per_epoch=True),
                         lambda at, position, loss: selection.record(at, position, batches.seen, loss),
                         what="paraphrastic training", hint="lower the learning rate or set grad_clip",
                         log_path=log_path if rank == 0 else None, progress=rank == 0, total=batches.total,
                         unit="pair")
    return {"selected": selection.best.restore(), "select_key": config.select, "checkpoints": len(run.rows),
            "best_by": {k: max(run.rows, key=lambda r, k=k: r[k]) for k in run.rows[0]
                        if k not in ("step", "epoch", "pairs_seen", "loss")},
            "pairs_per_second": round(batches.seen / max(run.train_seconds, 1e-9), 1),
            "seconds": round(run.seconds, 1), "train_seconds": round(run.train_seconds, 1),
            "device": str(device) + (f" × {processes} processes" if processes > 1 else ""),
            "config": config.model_dump()}


class PairBatches:
    """The mini-batches of pairs, epoch by epoch (``batches(epoch)`` for :func:`~sentemb.core.training.train_loop`):
    the pairs in a seeded order each epoch, each batch's pairs scrambled with probability ``config.scramble``
    (:func:`scramble`). Under torchrun every process draws the same order and takes batches r, r + P, r + 2P …; its
    scrambling draws are its own."""

    def __init__(self, pairs: Sequence[tuple[np.ndarray, np.ndarray]], config: ParaphrasticConfig, rank: int,
                 processes: int):
        self.pairs, self.config, self.rank, self.processes = pairs, config, rank, processes
        # one stream for the order of pairs (the same in every process), one for scrambling (each process its own)
        self.rng = np.random.default_rng(config.seed)
        self.scramble_rng = self.rng if processes == 1 else np.random.default_rng([config.seed, rank])
        n = len(pairs)
        self.per_epoch = math.ceil(n / config.batch_size) // processes  # whole rounds of one batch a process
        if self.per_epoch == 0:
            raise SentembError(f"paraphrastic training: {n} pairs make fewer batches of {config.batch_size} than the "
                               f"{processes} processes")
        self.total = config.epochs * min(n, self.per_epoch * processes * config.batch_size)
        self.seen = 0

    def __call__(self, epoch: int) -> Iterator[tuple[float, int, list[tuple[np.ndarray, np.ndarray]]]]:
        """``(position, pairs of every process, this process's scrambled pairs)`` for each step of ``epoch``."""
        size = self.config.batch_size
        order = self.rng.permutation(len(self.pairs))
        for b in range(self.per_epoch):
            first = (b * self.processes + self.rank) * size
            chunk = scramble([self.pairs[i] for i in order[first:first + size]], self.config.scramble,
                             self.scramble_rng)
            self.seen += len(chunk) * self.processes
            yield round(epoch + (b + 1) / self.per_epoch, 4), len(chunk) * self.processes, chunk


class MarginStep:
    """One update on Eq. 2: the batch's 2B sentences in one forward pass, their negatives (:func:`negative_indices`,
    MIX's and RAND's draws from a CPU generator seeded ``seed + rank``, so a GPU run draws what a CPU run does),
    the margin loss, the λ/2-weighted regularisers (as the authors' code: ``0.5 * LW * l2(We - initial_We)``; over
    the batch's rows with sparse embeddings), backward, clipping and the optimisers. Returns the margin loss."""

    def __init__(self, encoder: CompositionEncoder, config: ParaphrasticConfig, device: torch.device, rank: int,
                 processes: int):
        self.encoder, self.config, self.device = encoder, config, device
        self.model = encoder if processes == 1 else torch.nn.parallel.DistributedDataParallel(
            encoder, device_ids=[device] if device.type == "cuda" else None)
        self.generator = torch.Generator().manual_seed(config.seed + rank)
        self.initial = encoder.embedding.weight.detach().clone()
        self.composition = encoder.composition_parameters()
        self.params = list(encoder.parameters())
        embedding = [encoder.embedding.weight]
        self.optimizers = (
            build_optimizers(config.optimizer, self.composition, embedding, config.lr) if config.sparse_embeddings
            else build_optimizers(config.optimizer, embedding + self.composition, [], config.lr))

    def __call__(self, chunk: list[tuple[np.ndarray, np.ndarray]]) -> float:
        config, encoder = self.config, self.encoder
        s1, s2 = [p[0] for p in chunk], [p[1] for p in chunk]
        encoder.train()
        g1, g2 = self.model(PaddedBatch.from_lists(s1 + s2, self.device)).split(len(chunk))  # one pass: larger steps
        t1, t2 = negative_indices(g1, g2, config.negatives, _sentence_keys(s1 + s2), self.generator)
        cand = torch.cat([g1, g2])
        loss = margin_loss(g1, g2, cand[t1], cand[t2], config.margin)
        total = loss
        if config.lambda_w and config.sparse_embeddings:
            rows = torch.from_numpy(np.unique(np.concatenate(s1 + s2))).to(self.device)
            total = total + 0.5 * config.lambda_w * (encoder.embedding(rows) - self.initial[rows]).pow(2).sum()
        elif config.lambda_w:
            total = total + 0.5 * config.lambda_w * (encoder.embedding.weight - self.initial).pow(2).sum()
        if config.lambda_c and self.composition:
            total = total + 0.5 * config.lambda_c * sum(p.pow(2).sum() for p in self.composition)
        for opt in self.optimizers:
            opt.zero_grad(set_to_none=True)
        total.backward()
        if config.grad_clip:
            clip_grad_norm(self.params, config.grad_clip)
        for opt in self.optimizers:
            opt.step()
        return loss.item()


class Selection:
    """Model selection at each checkpoint: the encoder scored by ``select`` (in eval mode, without gradients), the
    row logged, the best checkpoint under ``key`` kept (:class:`~sentemb.core.training.BestCheckpoint`)."""

    def __init__(self, encoder: torch.nn.Module, select: Callable[[torch.nn.Module], dict[str, float]], key: str):
        self.encoder, self.select, self.key = encoder, select, key
        self.best = BestCheckpoint(encoder)

    def record(self, step: int, position: float, seen: int, loss: float) -> dict:
        self.encoder.eval()
        with torch.no_grad():
            scores = self.select(self.encoder)
        row = {"step": step, "epoch": position, "pairs_seen": seen, "loss": round(loss, 6)} | {
            k: round(v, 4) for k, v in scores.items()}
        log.info("checkpoint %s", row)
        self.best.offer(scores[self.key], row)
        return row


def clip_grad_norm(params: Sequence[torch.nn.Parameter], max_norm: float) -> float:
    """Scale the gradients, dense or sparse, so that their global L2 norm is at most ``max_norm``; returns the
    norm before clipping."""
    grads = [p.grad for p in params if p.grad is not None]
    sq = sum(float((g.coalesce().values() if g.is_sparse else g).pow(2).sum()) for g in grads)
    norm = math.sqrt(sq)
    if norm > max_norm:
        for p in params:
            if p.grad is not None:
                p.grad = p.grad.coalesce() * (max_norm / (norm + 1e-6)) if p.grad.is_sparse else p.grad.mul_(
                    max_norm / (norm + 1e-6))
    return norm


# ---------------------------------------------------------------------------------------------------------------
# selection scores


@dataclass
class IdPairs:
    """An evaluation set as token ids: sentences1/2 lists of int64 arrays and the gold scores."""

    key: str
    sentences1: list[np.ndarray]
    sentences2: list[np.ndarray]
    gold: np.ndarray


def sts_selector(sets: Sequence[IdPairs], groups: dict[str, Sequence[str]]
                 ) -> Callable[[CompositionEncoder], dict[str, float]]:
    """A ``select`` for :func:`train_paraphrastic`: Pearson r ×100 on each set, averaged per group.

    The sentences of all the sets go through one :func:`encode_ids`, which encodes each distinct one once (the
    selection data's 36,886 sentences are 26,685 distinct ones: STS and SICK repeat sentences within and across
    sets).

    Args:
        sets: every set any group names.
        groups: score name → the keys of its sets, e.g. ``{"STS16": [...], "GRAN-22": [...]}``.
    """
    sentences = [x for s in sets for x in s.sentences1 + s.sentences2]
    starts = np.cumsum([0] + [2 * len(s.gold) for s in sets])

    def select(encoder: CompositionEncoder) -> dict[str, float]:
        embedded = encode_ids(encoder, sentences)
        r = {}
        for s, start, end in zip(sets, starts[:-1], starts[1:], strict=True):
            emb = embedded[start:end]
            r[s.key] = correlations(cosine_scores(emb[: len(s.gold)], emb[len(s.gold):])[0], s.gold)[0]
        return {name: float(np.mean([r[k] for k in keys])) for name, keys in groups.items()}

    return select


def word_similarity_selector(words: Sequence[str]) -> Callable[[CompositionEncoder], dict[str, float]]:
    """A ``select`` scoring word vectors: Spearman ρ ×100 on SimLex-999 and WordSim-353 as gensim's
    ``evaluate_word_pairs`` scores them (:func:`sentemb.core.evaluation.word_similarity.word_similarity`), pairs with
    a word outside ``words`` skipped.

    Args:
        words: the word of each row of the encoder's embedding matrix.
    """
    rows = word_similarity_rows(words)  # the rows the two datasets can look up: the same scores as all of them
    scored = [words[i] for i in rows]

    def select(encoder: CompositionEncoder) -> dict[str, float]:
        w = encoder.embedding.weight.detach()[torch.from_numpy(rows)].float().cpu().numpy()
        scores = word_similarity(WordVectors.from_arrays(scored, np.zeros(len(rows), dtype=np.int64), w))
        return {name: s["spearman"] for name, s in scores.items()}

    return select
