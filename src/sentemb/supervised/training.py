"""Training an encoder and the relatedness head on scored pairs, selecting on the dev split (Wieting & Gimpel 2017
§4.3; Tai et al. 2015 Eq. 6).

The encoder is any ``torch.nn.Module`` with a function that embeds a list of token-id sentences (``embed``), such
as a paraphrastic composition encoder; this module does not depend on which. The three settings of Wieting &
Gimpel's Table 8 differ only in the encoder's starting parameters and in the anchors of the L2 terms
(λ/2)‖θ − anchor‖² (the authors' code: ``0.5*params.LC*l2(...)``; the papers write λ):

- ``random``: composition parameters freshly initialised, word vectors from PARAGRAM; (λc/2)‖W_c‖²,
  (λw/2)‖W_w − W_w,0‖²;
- ``initialised``: every parameter from the transfer (paraphrastic) model, then the same terms;
- ``universal``: initialised from the transfer model and every parameter pulled back to it (λw on the word vectors,
  λc on the composition).

The optimiser is Adam as the authors' Lasagne computes it (:class:`~sentemb.core.optim.lasagne.LasagneAdam`), which also
adds the L2 terms' gradients (on the CPU in one compiled pass a parameter: the word vectors are dense, every row moves
every step, as in the authors' code).
Scrambling (shuffle the words of both sentences of a pair with probability p) and the encoder's own dropout and word
dropout act during training, as in the transfer setting.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from sentemb.core.data.corpus import distinct_sentences
from sentemb.core.errors import SentembError
from sentemb.core.evaluation.correlation import correlations
from sentemb.core.optim.lasagne import LasagneAdam
from sentemb.core.runtime.threads import settle_sqrt
from sentemb.core.training import BestCheckpoint, Schedule, train_loop
from sentemb.supervised.config import Setting, TrainingConfig
from sentemb.supervised.similarity import SimilarityHead, kl_loss, score_distribution

log = logging.getLogger(__name__)

@dataclass
class ScoredPairs:
    """A split: token-id sentences and gold scores already shifted onto [1, K].

    Attributes:
        sentences1, sentences2: int64 arrays of token ids, one per pair.
        scores: float64 (n,), each in [1, K].
    """

    sentences1: list[np.ndarray]
    sentences2: list[np.ndarray]
    scores: np.ndarray

    def __post_init__(self) -> None:
        if not (len(self.sentences1) == len(self.sentences2) == len(self.scores)):
            raise SentembError(f"scored pairs: {len(self.sentences1)} first sentences, {len(self.sentences2)} second "
                               f"sentences and {len(self.scores)} scores")
        if not len(self.scores):
            raise SentembError("scored pairs: an empty split")

    def __len__(self) -> int:
        return len(self.scores)


def _scramble(s1: list[np.ndarray], s2: list[np.ndarray], rate: float, rng: np.random.Generator
              ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    if rate <= 0:
        return s1, s2
    flips = rng.random(len(s1)) < rate
    return ([rng.permutation(a) if f else a for a, f in zip(s1, flips, strict=True)],
            [rng.permutation(b) if f else b for b, f in zip(s2, flips, strict=True)])


def predict(encoder: nn.Module, embed: Callable, head: SimilarityHead, pairs: ScoredPairs,
            batch_size: int = 512) -> np.ndarray:
    """ŷ for every pair, in eval mode: float64 (n,), in [1, K]. Each distinct sentence is embedded once, in batches of
    2 × ``batch_size`` sentences (SICK's test split: 9,854 sentences, 5,007 distinct)."""
    was = encoder.training, head.training
    encoder.eval()
    head.eval()
    out = []
    distinct, index = distinct_sentences(pairs.sentences1 + pairs.sentences2)
    with torch.no_grad():
        embedded = torch.cat([embed(distinct[i:i + 2 * batch_size]) for i in range(0, len(distinct), 2 * batch_size)])
        left, right = embedded[torch.from_numpy(index).to(embedded.device)].split(len(pairs))
        for i in range(0, len(pairs), batch_size):
            out.append(head.predict(head(left[i:i + batch_size], right[i:i + batch_size])).double().cpu().numpy())
    encoder.train(was[0])
    head.train(was[1])
    return np.concatenate(out)


def train_supervised(encoder: nn.Module, embed: Callable[[list[np.ndarray]], torch.Tensor],
                     train: ScoredPairs, dev: ScoredPairs, test: ScoredPairs, config: TrainingConfig,
                     setting: Setting, scramble: float, k: int, device: torch.device,
                     anchors: dict[str, torch.Tensor] | None = None,
                     word_parameter: str = "embedding.weight", log_path: str | Path | None = None) -> dict:
    """Minimise the mean KL(p ‖ p̂) over ``train`` plus the anchored L2 terms; keep the checkpoint with the best dev
    Pearson's r and report its test Pearson's r.

    Args:
        encoder: the sentence encoder, trained with the head (its parameters move).
        embed: token-id sentences → float (n, dim) embeddings on the encoder's device, with gradients.
        train, dev, test: the splits, scores on [1, K].
        config: ``supervised.training`` (h_s, batches, epochs, Adam's rate, checkpoints, seed: the head's
            initialisation, batching, scrambling and dropout).
        setting: λw and λc (each term (λ/2)‖θ − anchor‖², as the authors' code).
        scramble: the probability of shuffling the words of both sentences of a pair.
        k: the number of score classes K.
        device: where to train.
        anchors: parameter name (of ``encoder``) → the value its L2 term pulls it to; absent names are pulled to 0
            (the composition) or, for ``word_parameter``, to its value on entry.
        word_parameter: the encoder's word-vector parameter (weighted by λw; every other one by λc).
        log_path: CSV of ``step, epoch, loss, dev, test`` per checkpoint (Pearson ×100), written atomically.

    Returns:
        ``dev`` and ``test`` Pearson ×100 and ``spearman`` of test at the selected checkpoint, ``selected`` (its
        row), ``best_test`` (the oracle: the highest test r of any checkpoint), ``checkpoints``, ``pairs_per_second``,
        ``seconds`` and ``device``. The encoder and ``head`` (in the result) are left at the selected
        checkpoint, on the CPU.

    Raises:
        SentembError: a score outside [1, K], an unknown anchor name, or a non-finite loss (naming the step).
    """
    settle_sqrt()  # Adam's square roots, the same on several threads (sentemb.core.runtime.threads)
    torch.manual_seed(config.seed)
    encoder.to(device)
    params = dict(encoder.named_parameters())
    if word_parameter not in params:
        raise SentembError(f"supervised: the encoder has no parameter {word_parameter!r}")
    anchors = {name: value.detach().to(device) for name, value in (anchors or {}).items()}
    unknown = set(anchors) - set(params)
    if unknown:
        raise SentembError(f"supervised: anchors for parameters the encoder does not have: {sorted(unknown)}")
    anchors.setdefault(word_parameter, params[word_parameter].detach().clone())
    dim = embed([train.sentences1[0]]).shape[1]
    head = SimilarityHead(dim, config.hidden, k).to(device)
    targets = score_distribution(train.scores, k).to(device)
    for split in (dev, test):
        score_distribution(split.scores, k)  # the range check
    # every parameter the L2 terms see: λw on the word vectors, λc on the composition and the head (head anchored at
    # 0); the optimiser adds each term's gradient, λ(θ − anchor)
    regularised = params | {f"head.{n}": p for n, p in head.named_parameters()}
    optimizer = LasagneAdam([{"params": [p], "l2": setting.lambda_w if name == word_parameter else setting.lambda_c,
                              "anchor": anchors.get(name)} for name, p in regularised.items()],
                            lr=config.lr, compiled=device.type == "cpu")
    batches = ScoredPairBatches(train, config)

    def step(idx: np.ndarray) -> float:
        s1, s2 = _scramble([train.sentences1[i] for i in idx], [train.sentences2[i] for i in idx], scramble,
                           batches.rng)
        encoder.train()
        head.train()
        left, right = embed(s1 + s2).split(len(idx))
        loss = kl_loss(head(left, right), targets[torch.as_tensor(idx, device=device)])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        return loss.item()

    best = BestCheckpoint(encoder, head)

    def record(at: int, position: float, loss: float) -> dict:
        dev_r = correlations(predict(encoder, embed, head, dev), dev.scores)[0]
        test_r, test_rho = correlations(predict(encoder, embed, head, test), test.scores)
        row = {"step": at, "epoch": position, "loss": round(loss, 6), "dev": round(dev_r, 4),
               "test": round(test_r, 4), "test_spearman": round(test_rho, 4)}
        log.info("checkpoint %s", row)
        best.offer(dev_r, row)
        return row

    every = max(1, math.ceil(batches.per_epoch / config.evals_per_epoch))
    run = train_loop(batches, step, Schedule(config.epochs, batches.per_epoch, every, per_epoch=True), record,
                     what="supervised training", hint="lower the learning rate, supervised.training.lr",
                     log_path=log_path, total=config.epochs * len(train), unit="pair")
    sel = best.restore()
    return {"dev": sel["dev"], "test": sel["test"], "spearman": sel["test_spearman"], "selected": sel,
            "best_test": max(r["test"] for r in run.rows), "checkpoints": len(run.rows), "head": head,
            "pairs_per_second": round(batches.seen / max(run.train_seconds, 1e-9), 1),
            "seconds": round(run.seconds, 1), "device": str(device)}


class ScoredPairBatches:
    """The mini-batches of a training split, epoch by epoch (``batches(epoch)`` for
    :func:`~sentemb.core.training.train_loop`): the pairs' indices in a seeded order each epoch. The same generator
    then scrambles each batch's sentences (in the step), as the order and the scrambling have always shared it."""

    def __init__(self, train: ScoredPairs, config: TrainingConfig):
        self.n, self.size = len(train), config.batch_size
        self.rng = np.random.default_rng(config.seed)
        self.per_epoch = math.ceil(self.n / self.size)
        self.seen = 0

    def __call__(self, epoch: int) -> Iterator[tuple[float, int, np.ndarray]]:
        order = self.rng.permutation(self.n)
        for b in range(self.per_epoch):
            idx = order[b * self.size:(b + 1) * self.size]
            self.seen += len(idx)
            yield round(epoch + (b + 1) / self.per_epoch, 4), len(idx), idx
