"""Adjacent-sentence training, shared by Siamese CBOW (Kenter et al. 2016) and Neural Word Salience (Bollegala et
al.): the token-id batch, the softmax loss over the previous, next and random sentences, and one training loop
(device, batching, learning-rate schedule, progress, loss log, throughput).

:func:`train_adjacent_sentences` trains any encoder that maps a :class:`TokenBatch` to (batch, dim) on
(centre, previous, next, negatives) tuples of a :class:`~sentemb.data.corpus.TokenCorpus` with
:func:`adjacent_sentence_loss`. The encoders live with their families (:mod:`sentemb.siamese_cbow`,
:mod:`sentemb.salience`).
"""

from __future__ import annotations

import csv
import logging
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numba
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from tqdm.auto import tqdm

from sentemb.atomic import atomic_open
from sentemb.cpu import settle_sqrt
from sentemb.data.corpus import TokenCorpus
from sentemb.device import local_device, resolve_device, world
from sentemb.errors import SentembError

log = logging.getLogger(__name__)

OPTIMIZERS = ("sgd", "adadelta", "adagrad", "sparse_adam")
NEGATIVES = ("corpus", "batch")  # where negative sentences are drawn from (AdjacentSentenceConfig.negatives)


@dataclass
class TokenBatch:
    """Sentences as concatenated token ids, the layout of ``torch.nn.EmbeddingBag``.

    Attributes:
        ids: int64, shape (n_tokens,): token ids of all sentences, one after another.
        offsets: int64, shape (batch,): where each sentence starts in ``ids``; an empty sentence has the same
            offset as the next one.
    """

    ids: torch.Tensor
    offsets: torch.Tensor

    @classmethod
    def from_numpy(cls, ids: np.ndarray, offsets: np.ndarray, device: torch.device | str = "cpu") -> TokenBatch:
        return cls(torch.from_numpy(ids).to(device, non_blocking=True), torch.from_numpy(offsets).to(device))

    @classmethod
    def from_lists(cls, sentences: list[list[int]], device: torch.device | str = "cpu") -> TokenBatch:
        lengths = np.array([len(s) for s in sentences], dtype=np.int64)
        offsets = np.zeros(len(sentences), dtype=np.int64)
        np.cumsum(lengths[:-1], out=offsets[1:])
        ids = np.fromiter((i for s in sentences for i in s), dtype=np.int64, count=int(lengths.sum()))
        return cls.from_numpy(ids, offsets, device)

    def __len__(self) -> int:
        return len(self.offsets)


def adjacent_sentence_loss(
    center: torch.Tensor, candidates: torch.Tensor, n_positive: int, similarity: str = "cosine"
) -> torch.Tensor:
    """Siamese CBOW's loss (Kenter et al. 2016 §2.1, Eq. 1 and the cross-entropy below it).

    p_θ(s_i, s_j) = exp(sim(s_i, s_j)) / Σ_{s_r ∈ S+ ∪ S−} exp(sim(s_i, s_r)), no temperature;
    L = −Σ_j p(s_i, s_j) log p_θ(s_i, s_j) with target p = 1/|S+| on each positive and 0 on each negative,
    averaged over the batch.

    Args:
        center: float, shape (batch, dim): embeddings of the centre sentences s_i.
        candidates: float, shape (batch, n_positive + n_negative, dim): the positives first, then the negatives.
        n_positive: |S+| (2: the previous and the next sentence).
        similarity: ``"cosine"`` (Siamese CBOW) or ``"dot"`` (inner product, Bollegala et al.'s Eq. 2).

    Returns:
        The mean loss, a scalar tensor (nats).
    """
    if similarity == "cosine":
        sims = F.cosine_similarity(center.unsqueeze(1), candidates, dim=-1, eps=1e-8)
    elif similarity == "dot":
        sims = torch.einsum("bd,bkd->bk", center, candidates)
    else:
        raise ValueError(f"similarity must be 'cosine' or 'dot', got {similarity!r}")
    log_p = F.log_softmax(sims, dim=1)
    return -log_p[:, :n_positive].mean(dim=1).mean()


class SparseAdadelta(torch.optim.Optimizer):
    """AdaDelta (Zeiler 2012) that accepts sparse gradients, as the Siamese CBOW authors' code trains by default
    (Lasagne's ``adadelta``: lr 1.0, rho 0.95, eps 1e-6).

    For each parameter row with a gradient g: E[g²] ← ρE[g²] + (1−ρ)g²; Δ = g·√(E[Δ²]+ε)/√(E[g²]+ε);
    E[Δ²] ← ρE[Δ²] + (1−ρ)Δ²; θ ← θ − lr·Δ. With a sparse gradient the update is *lazy*: rows absent from the
    batch keep their accumulators (dense AdaDelta would decay them by ρ at every step), as torch's SparseAdam does
    for Adam.
    """

    def __init__(self, params, lr: float = 1.0, rho: float = 0.95, eps: float = 1e-6) -> None:
        super().__init__(params, {"lr": lr, "rho": rho, "eps": eps})

    @staticmethod
    def _delta(square_avg: torch.Tensor, acc_delta: torch.Tensor, g: torch.Tensor, rho: float, eps: float):
        """Update the accumulators in place and return the step Δ, for dense rows or the selected sparse ones."""
        square_avg.mul_(rho).addcmul_(g, g, value=1 - rho)
        delta = acc_delta.add(eps).sqrt_().div_(square_avg.add(eps).sqrt_()).mul_(g)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        return delta

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            lr, rho, eps = group["lr"], group["rho"], group["eps"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["square_avg"] = torch.zeros_like(p)
                    state["acc_delta"] = torch.zeros_like(p)
                grad = p.grad
                if grad.is_sparse:
                    grad = grad.coalesce()
                    rows = grad.indices()[0]
                    sq = state["square_avg"].index_select(0, rows)
                    acc = state["acc_delta"].index_select(0, rows)
                    delta = self._delta(sq, acc, grad.values(), rho, eps)
                    state["square_avg"].index_copy_(0, rows, sq)
                    state["acc_delta"].index_copy_(0, rows, acc)
                    p.index_add_(0, rows, delta, alpha=-lr)
                else:
                    p.add_(self._delta(state["square_avg"], state["acc_delta"], grad, rho, eps), alpha=-lr)


@dataclass
class AdjacentSentenceConfig:
    """Hyperparameters of adjacent-sentence training (defaults: Kenter et al. 2016 §3.4).

    The learning rate decays linearly with the number of batches, lr_t = lr₀·max(1 − t/T, lr_floor), as the
    authors' ``updateLearningRate`` (siamese_cbowUtils.py), which they apply to SGD only. Their released Toronto
    vectors (``…sgd_lr_0_0001_…epochs_5…end_of_epoch_1``) are SGD at lr₀ = 1e-4 with T = 5 epochs of batches, saved
    after the first epoch (740k batches): Σ_t lr_t ≈ 67. ``sgd_lr_sum`` expresses that training amount for any
    corpus size.

    Attributes:
        neg: n, random negative sentences per centre sentence (paper: 2).
        negatives: where they are drawn from. ``"corpus"`` (paper, authors' code): uniformly from the corpus's
            non-empty sentences, independently of the batch. ``"batch"`` (in-batch negatives, not the paper's): from
            the sentences of the batch's other tuples, reweighted to be uniform over the corpus
            (:func:`in_batch_negatives`); a step then encodes three sentences per centre instead of 3 + n
            (both fits, in one process; under torchrun each process encodes its share's negatives again).
        batch_size: centre sentences per batch (paper: 100).
        epochs: passes over the corpus (the released vectors: 1).
        optimizer: ``"sgd"`` (paper), ``"adadelta"`` (the authors' script default, :class:`SparseAdadelta`),
            ``"adagrad"`` or ``"sparse_adam"`` (all take sparse gradients).
        lr: initial learning rate lr₀ (for SGD only when ``sgd_lr_sum`` is ``None``).
        lr_floor: lr_t never falls below ``lr₀ · lr_floor`` (authors' code: 1e-4; 1.0 keeps it constant).
        sgd_lr_sum: SGD only: lr₀ is set so that Σ_t lr_t over the whole run equals this (the released vectors: 67;
            ``None``: use ``lr``).
        sgd_decay_epochs: SGD only: the decay horizon T in epochs (the released vectors: 5; ``None``: ``epochs``).
            Other optimizers decay over ``epochs``.
        max_length: cut sentences to this many in-vocabulary tokens (authors' code: 50; ``None``: no cut, paper).
        similarity: ``"cosine"`` (Siamese CBOW) or ``"dot"``.
        seed: seeds numpy and torch.
        device: ``"auto"`` (CUDA when present), ``"cpu"`` or ``"cuda"``.
        log_every: batches between loss-log rows.

    Raises:
        SentembError: a value out of range, naming the key.
    """

    neg: int = 2
    negatives: str = "corpus"
    batch_size: int = 100
    epochs: int = 1
    optimizer: str = "sgd"
    lr: float = 1e-4
    lr_floor: float = 1e-4
    sgd_lr_sum: float | None = None
    sgd_decay_epochs: int | None = None
    max_length: int | None = None
    similarity: str = "cosine"
    seed: int = 1
    device: str = "auto"
    log_every: int = 500

    def __post_init__(self) -> None:
        for key in ("neg", "batch_size", "epochs", "log_every"):
            if getattr(self, key) < 1:
                raise SentembError(f"model.{key}: must be >= 1, got {getattr(self, key)}")
        if self.negatives not in NEGATIVES:
            raise SentembError(f"model.negatives: unknown source {self.negatives!r} (expected one of {NEGATIVES})")
        if self.negatives == "batch" and self.batch_size < 2:
            raise SentembError("model.batch_size: in-batch negatives need batches of at least 2 centres, got 1")
        if self.optimizer not in OPTIMIZERS:
            raise SentembError(f"model.optimizer: unknown optimizer {self.optimizer!r} (expected one of {OPTIMIZERS})")
        if not self.lr > 0 or not 0 < self.lr_floor <= 1:
            raise SentembError(f"model.lr/lr_floor: need lr > 0 and 0 < lr_floor <= 1, got {self.lr}, {self.lr_floor}")
        if self.sgd_lr_sum is not None and not self.sgd_lr_sum > 0:
            raise SentembError(f"model.sgd_lr_sum: must be > 0, got {self.sgd_lr_sum}")
        if self.sgd_decay_epochs is not None and self.sgd_decay_epochs < 1:
            raise SentembError(f"model.sgd_decay_epochs: must be >= 1, got {self.sgd_decay_epochs}")

    def schedule(self, batches_per_epoch: int) -> tuple[float, Callable[[int], float]]:
        """The initial rate lr₀ and the factor lr_t / lr₀ as a function of the batch count t.

        Returns:
            ``(lr0, factor)``; Σ_{t < epochs·batches_per_epoch} lr0·factor(t) = ``sgd_lr_sum`` when that is set.
        """
        total = self.epochs * batches_per_epoch
        sgd = self.optimizer == "sgd"
        horizon = (self.sgd_decay_epochs if sgd and self.sgd_decay_epochs else self.epochs) * batches_per_epoch
        floor = self.lr_floor

        def factor(step: int) -> float:
            return max(1.0 - step / horizon, floor)

        if sgd and self.sgd_lr_sum is not None:
            steps = np.arange(total, dtype=np.float64)
            return self.sgd_lr_sum / float(np.maximum(1.0 - steps / horizon, floor).sum()), factor
        return self.lr, factor


def training_tuples(corpus: TokenCorpus) -> tuple[np.ndarray, np.ndarray]:
    """Centre sentences with a non-empty previous and next sentence in the same document, and the non-empty
    sentences that negatives are drawn from.

    Returns:
        ``(centres, candidates)``, int64 arrays of sentence indices.

    Raises:
        SentembError: when the corpus has no valid training tuple.
    """
    docs = np.asarray(corpus.document_ids)
    nonempty = corpus.lengths > 0
    mid = np.arange(1, corpus.n_sentences - 1)
    ok = (
        nonempty[mid] & nonempty[mid - 1] & nonempty[mid + 1]
        & (docs[mid - 1] == docs[mid]) & (docs[mid + 1] == docs[mid])
    )
    centres = mid[ok].astype(np.int64)
    if len(centres) == 0:
        raise SentembError("empty corpus: no sentence has a non-empty previous and next sentence in its document")
    return centres, np.flatnonzero(nonempty).astype(np.int64)


def tuple_roles(corpus: TokenCorpus, centres: np.ndarray) -> np.ndarray:
    """m(s): in how many of the three places of a training tuple (centre, previous, next) sentence s occurs.

    Args:
        corpus: the token-id corpus.
        centres: int64, the training tuples' centres (:func:`training_tuples`).

    Returns:
        uint8, shape (n_sentences,): 0 to 3; 3 for a sentence inside a document, fewer at its edges.
    """
    roles = np.zeros(corpus.n_sentences, dtype=np.uint8)
    for shift in (0, -1, 1):  # centres are distinct, so each fancy-index += adds once per sentence
        roles[centres + shift] += 1
    return roles


def in_batch_negatives(sentences: np.ndarray, roles: np.ndarray, n_negative: int,
                       rng: np.random.Generator) -> np.ndarray:
    """Negatives drawn from the batch's own sentences (in-batch negatives), uniform over the corpus.

    Centre i's negatives come from the other tuples j ≠ i of the batch: a tuple j uniformly, one of its three
    sentences (centre, previous, next) uniformly, accepted with probability 1/m(s) (:func:`tuple_roles`) and drawn
    again otherwise. A sentence s occurs in a random tuple's three places with probability ∝ m(s), so each accepted
    draw is uniform over the sentences that occur in some tuple, independent of centre i, as the paper's draw from
    the corpus (Kenter et al. 2016 §2.1) is, up to two differences: the draws of one batch share their pool (they
    are not independent of each other), and a redraw stays in the batch, which leaves a bias of order 1/batch for
    sentences at a document's edge. A sentence that is not among three consecutive non-empty sentences of its
    document occurs in no tuple and is never drawn.

    Args:
        sentences: int64, shape (3B,): the batch's sentence indices, [centres, previous, next], B ≥ 2.
        roles: uint8, shape (n_sentences,): m(s), from :func:`tuple_roles`.
        n_negative: negatives per centre.
        rng: the training run's generator.

    Returns:
        int64, shape (n_negative, B): for each negative of each centre, its row in ``sentences``.

    Raises:
        ValueError: a batch of fewer than 2 tuples (no other tuple to draw from).
    """
    b = len(sentences) // 3
    if b < 2:
        raise ValueError(f"in-batch negatives need at least 2 tuples in a batch, got {b}")
    rows = np.empty(n_negative * b, dtype=np.int64)
    done = 0
    while done < len(rows):  # 8 proposals a negative where about 3 are needed: one block, nearly always
        done = _accept_in_batch(rng.random(16 * len(rows)), sentences, roles, b, rows, done)
    return rows.reshape(n_negative, b)


def candidate_rows(n_centre: int, negatives: np.ndarray) -> np.ndarray:
    """Each centre's candidates as rows of a batch [centres, previous, next, …].

    Args:
        n_centre: B, the batch's centres.
        negatives: int64, shape (n, B): the rows of each centre's negatives, from :func:`in_batch_negatives`, or,
            for negatives from the corpus placed after the next sentences, (k + 1) × B + i for negative k ≥ 2.

    Returns:
        int64, shape (B, 2 + n), C-contiguous: centre i's previous (row B + i), next (2B + i), then its negatives.
    """
    positives = np.arange(n_centre, 3 * n_centre, dtype=np.int64).reshape(2, n_centre)
    return np.ascontiguousarray(np.concatenate([positives, negatives]).T)


_NO_REFERENCES = np.zeros(1, dtype=np.int64)  # the references of a batch whose candidates are each a centre's own


def step_candidates(n_bags: int, n_centre: int, negatives: np.ndarray | None
                    ) -> tuple[np.ndarray, bool, np.ndarray, np.ndarray]:
    """The candidates of a compiled step's batch (:class:`sentemb.siamese_cbow.fused.FusedSGD`,
    :class:`sentemb.salience.fused.FusedAdagrad`) and, when a sentence may be the candidate of several centres, for
    each sentence the (centre, candidate) pairs that name it.

    Args:
        n_bags: the batch's sentences, [centres, previous, next, …].
        n_centre: B, its centres.
        negatives: int64, shape (n, B): in-batch negatives' rows (:func:`in_batch_negatives`); ``None``: negatives
            from the corpus, placed after the next sentences (centre i's k-th at row (k + 3) × B + i).

    Returns:
        ``(candidates, shared, ref_starts, refs)``: :func:`candidate_rows`; whether a sentence may be named by
        several centres (in-batch negatives); the flat indices i × n_candidates + k of the pairs naming sentence r,
        ``refs[ref_starts[r]:ref_starts[r + 1]]``, increasing (placeholders when not shared).
    """
    shared = negatives is not None
    if not shared:
        negatives = np.arange(3 * n_centre, n_bags, dtype=np.int64).reshape(-1, n_centre)
    candidates = candidate_rows(n_centre, negatives)
    if not shared:
        return candidates, False, _NO_REFERENCES, _NO_REFERENCES
    flat = candidates.ravel()
    ref_starts = np.zeros(n_bags + 1, dtype=np.int64)
    np.cumsum(np.bincount(flat, minlength=n_bags), out=ref_starts[1:])
    return candidates, True, ref_starts, np.argsort(flat, kind="stable")


@numba.njit(cache=True)
def clear_rows(embedding, gradient):  # pragma: no cover
    """Zero a sentence's rows of a compiled step's reused (batch, dim) buffers (numba): its mean and its gradient."""
    for j in range(embedding.shape[0]):
        embedding[j] = 0.0
        gradient[j] = 0.0


@numba.njit(cache=True)
def softmax_cross_entropy(sims, n_centre, grad_sims):  # pragma: no cover
    """:func:`adjacent_sentence_loss` for one centre inside a compiled step (numba): the softmax over its candidates'
    similarities, the two positives first with target 1/2 each.

    Args:
        sims: float64, shape (2 + n,): the similarities to the previous, next and negative sentences.
        n_centre: the batch's centres (the loss is their mean).
        grad_sims: float64, shape (2 + n,): filled with d(mean loss)/d sims[k].

    Returns:
        The centre's loss (nats).
    """
    top = sims.max()
    total = 0.0
    for k in range(sims.shape[0]):
        total += np.exp(sims[k] - top)
    log_total = np.log(total) + top
    for k in range(sims.shape[0]):
        grad_sims[k] = (np.exp(sims[k] - log_total) - (0.5 if k < 2 else 0.0)) / n_centre
    return -0.5 * ((sims[0] - log_total) + (sims[1] - log_total))


@numba.njit(cache=True)
def _accept_in_batch(u, sentences, roles, b, rows, done):  # pragma: no cover
    """Fill rows[done:] by proposal and acceptance (:func:`in_batch_negatives`) from the uniforms u, two a proposal;
    returns how many rows are filled when u runs out."""
    q = 0
    for t in range(done, len(rows)):
        while True:
            if q + 2 > len(u):
                return t
            place = int(u[q] * (3 * (b - 1)))  # one of the three sentences of one of the other b − 1 tuples
            row = (place // (b - 1)) * b + (t % b + 1 + place % (b - 1)) % b
            accept = u[q + 1] * roles[sentences[row]] < 1.0  # probability 1/m(s)
            q += 2
            if accept:
                rows[t] = row
                break
    return len(rows)


def _optimizer(name: str, params, lr: float) -> torch.optim.Optimizer:
    if name == "sgd":
        return torch.optim.SGD(params, lr=lr)
    if name == "adadelta":
        return SparseAdadelta(params, lr=lr)
    if name == "adagrad":
        # Adagrad builds sparse tensors from the coalesced gradient; say explicitly that their invariants go unchecked
        # (torch's default), or torch warns once a process that the checks are "implicitly disabled"
        torch.sparse.check_sparse_tensor_invariants.disable()
        return torch.optim.Adagrad(params, lr=lr)
    return torch.optim.SparseAdam(list(params), lr=lr)


FITS = ("auto", "torch", "fused")  # a trainer's fit: its compiled CPU step (fused) or torch's autograd


def fused_fit(fit: str, config: AdjacentSentenceConfig, optimizer: str, key: str) -> bool:
    """Whether a trainer takes its compiled step (``fit: fused``; ``auto``: when it can) rather than torch's autograd.

    A compiled step implements one optimiser on the CPU in one process.

    Args:
        fit: ``"auto"``, ``"torch"`` or ``"fused"``.
        config: the run's settings (optimiser, device).
        optimizer: the one optimiser the trainer's compiled step implements (``"sgd"``, ``"adagrad"``).
        key: the params key named in errors (``model.fit``, ``nws.fit``).

    Raises:
        SentembError: an unknown fit, a bad device, or ``fused`` asked for with another optimiser, a GPU or several
            processes.
    """
    if fit not in FITS:
        raise SentembError(f"{key}: unknown fit {fit!r} (expected one of {FITS})")
    processes = world()[1]
    possible = config.optimizer == optimizer and resolve_device(config.device).type == "cpu" and processes == 1
    if fit == "fused" and not possible:
        raise SentembError(f"{key}: the fused fit is optimizer {optimizer!r} on the CPU in one process (optimizer "
                           f"{config.optimizer!r}, device {config.device!r}, {processes} processes); use fit: torch "
                           "or auto")
    return fit == "fused" or (fit == "auto" and possible)


def train_adjacent_sentences(
    encoder: nn.Module,
    corpus: TokenCorpus,
    config: AdjacentSentenceConfig,
    log_path: str | Path | None = None,
    progress: bool = True,
    checkpoint: Callable[[int, nn.Module], None] | None = None,
    checkpoint_every: int | None = None,
    step_function: Callable[[np.ndarray, np.ndarray, np.ndarray, int, float], float] | None = None,
) -> dict:
    """Train ``encoder`` to predict each sentence's neighbours among random sentences (Kenter et al. 2016 §2).

    For each centre sentence s_i: S+ = {s_{i−1}, s_{i+1}} (same document), S− = ``config.neg`` sentences drawn
    uniformly from the non-empty sentences of the corpus (not de-duplicated against S+, as the authors' code), or,
    with ``config.negatives == "batch"``, from the batch's other tuples (:func:`in_batch_negatives`; a last batch
    of a single centre is skipped). Centres are visited in a seeded random order each epoch.

    Under ``torchrun`` (a process group up, :func:`sentemb.device.init_distributed`) the encoder is wrapped in
    ``DistributedDataParallel``. Every process draws the same centres and negatives (the same seed) and takes its
    share of each batch's centres; its mean loss is weighted by its share, so the gradients DDP averages are those
    of the whole batch's mean: the same step as one process, up to float rounding. The embedding's sparse gradients
    are all-reduced by Gloo as sparse tensors (on the CPU); NCCL has no sparse all-reduce, so on GPUs the caller
    gives the encoder dense gradients. Only rank 0 writes the loss log.

    Args:
        encoder: a module mapping a :class:`TokenBatch` to (batch, dim).
        corpus: the token-id corpus.
        config: hyperparameters.
        log_path: CSV file for the loss log (``step,epoch,sentences,loss,lr``), written atomically at the end.
        progress: show a tqdm bar in sentences/s.
        checkpoint: called as ``checkpoint(step, encoder)`` before the first batch, every ``checkpoint_every``
            batches and after the last (e.g. to score the model during training); its time is not counted in the
            throughput.
        step_function: a compiled step ``f(token_ids, starts, lengths, n_centres, lr, negatives) -> mean loss``
            that reads the batch's sentences from the corpus in place (``token_ids``, each sentence's start, its
            length cut at ``max_length``; in-batch negatives: ``negatives`` gives their rows among the batch's
            sentences, else ``None`` and they follow the next sentences) and updates the encoder's parameters in
            place with ``config.optimizer`` at rate ``lr`` (:class:`sentemb.siamese_cbow.fused.FusedSGD`,
            :class:`sentemb.salience.fused.FusedAdagrad`) instead of torch's forward, backward and optimiser; the
            same tuples, the same learning rates, the same arithmetic. The caller matches it to the optimiser.

    Returns:
        Training statistics: tuples, batches, wall seconds, centre sentences/s, corpus words/s (tokens of the
        centre sentences), encoded words/s (tokens of every sentence encoded), the final mean loss, the initial
        learning rate and Σ_t lr_t over the run (the training amount).

    Raises:
        SentembError: an empty corpus or a bad device.
    """
    device = local_device(resolve_device(config.device))
    rank, world_size = world()
    settle_sqrt()  # the optimisers' square roots, the same on several threads (sentemb.cpu)
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
    opt = _optimizer(config.optimizer, encoder.parameters(), lr0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, factor)
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
                neg = candidates[rng.integers(0, len(candidates), size=(config.neg, len(c)))]
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
                loss = adjacent_sentence_loss(center, cands, n_positive=2, similarity=config.similarity) * share
                opt.zero_grad(set_to_none=True)
                loss.backward()
                lr_sum += opt.param_groups[0]["lr"]
                opt.step()
                sched.step()
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
                    raise SentembError(f"training diverged: mean loss {last_loss} before step {step} (lower model.lr)")
                rows.append({"step": step, "epoch": epoch + (b + 1) / batches_per_epoch, "sentences": n_sent,
                             "loss": round(last_loss, 6),
                             "lr": lr0 * factor(step) if step_function is not None else opt.param_groups[0]["lr"]})
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
        "config": asdict(config),
    }
