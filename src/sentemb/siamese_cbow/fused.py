"""One Siamese CBOW SGD step on the CPU as a single compiled pass (numba): forward, loss and sparse SGD update fused.

The arithmetic is that of :class:`~sentemb.siamese_cbow.encoder.AverageEncoder` +
:func:`~sentemb.adjacent_sentences.loss.adjacent_sentence_loss` (cosine) + ``torch.optim.SGD`` on the embedding's sparse
gradient (Kenter et al. 2016 §2.1-2.2, §3.4): every sentence of the batch is averaged with the weights before the step,
the softmax cross-entropy over (previous, next, negatives) is averaged over the centres, and each word row then moves by
−lr × (its summed gradient). What torch does in a dozen kernels with a sparse gradient built, coalesced and added,
this does in passes over the batch's token rows, read from the corpus where they lie, without allocating per token.
With in-batch negatives (:func:`~sentemb.adjacent_sentences.sampling.in_batch_negatives`) the batch holds each sentence
once and a sentence may be a candidate of several centres: the step is the same, on three sentences per centre instead
of five.

Threads share the sentences of the forward pass and the centres of the loss (each centre writes the gradient of its
own candidates; with in-batch negatives the threads share the sentences again, each summing its gradient over the
centres that name it, in a fixed order); in the update, where a frequent word's row is written by many sentences,
each thread owns the rows of a share of the words and walks every token in order.
So no two threads write the same float, the result does not depend on the number of threads or their timing (unlike
Hogwild word2vec), and it equals the torch step up to float rounding (``tests/test_training.py`` compares them on the
same sampled tuples).
"""

from __future__ import annotations

import numba
import numpy as np

from sentemb.adjacent_sentences.kernels import clear_rows, softmax_cross_entropy
from sentemb.adjacent_sentences.sampling import step_candidates
from sentemb.core.runtime.threads import numba_threads

_EPS = 1e-8  # torch.nn.functional.cosine_similarity's eps (on the product of the norms)


@numba.njit(parallel=True, cache=True)
def _sgd_step(weights, tokens, starts, lengths, candidates, shared, ref_starts, refs, lr, chunks, emb, grad,
              coef):  # pragma: no cover
    dim = weights.shape[1]
    n_bags = lengths.shape[0]
    n_centre, n_candidates = candidates.shape
    # 1. every sentence's mean vector (sentences across threads; each row summed in token order), read straight from
    #    the corpus: sentence s is tokens[starts[s]:starts[s] + lengths[s]]. emb and grad are the caller's (n_bags,
    #    dim) buffers, reused from step to step (7% faster on the full corpus than fresh arrays each step): zeroed here
    for s in numba.prange(n_bags):
        n = lengths[s]
        e = emb[s]
        clear_rows(e, grad[s])
        if n == 0:
            continue
        for t in range(starts[s], starts[s] + n):
            w = weights[tokens[t]]
            for j in range(dim):
                e[j] += w[j]
        inv = np.float32(1.0) / np.float32(n)
        for j in range(dim):
            e[j] *= inv
    # 2a. cosine similarities, softmax cross-entropy and its gradient with respect to each centre's mean (centres
    #     across threads; centre i writes its own row). When no sentence is the candidate of two centres (not
    #     shared: negatives from the corpus), centre i also writes its candidates' rows; otherwise it keeps for each
    #     candidate k the factors of its gradient for 2b: coef[i, k] = (dL/d sim_ik, 1 / (|a| |x|), sim_ik / |x|²),
    #     dL/d sim = 0 where it is skipped
    losses = np.zeros(n_centre, dtype=np.float64)
    for i in numba.prange(n_centre):
        a = emb[i]
        ga = grad[i]
        na = 0.0
        for j in range(dim):
            na += a[j] * a[j]
        na = np.sqrt(na)
        sims = np.empty(n_candidates, dtype=np.float64)
        norms = np.empty(n_candidates, dtype=np.float64)
        for k in range(n_candidates):
            x = emb[candidates[i, k]]
            nx, dot = 0.0, 0.0
            for j in range(dim):
                nx += x[j] * x[j]
                dot += a[j] * x[j]
            nx = np.sqrt(nx)
            norms[k] = nx
            sims[k] = dot / max(na * nx, _EPS)
        grad_sims = np.empty(n_candidates, dtype=np.float64)
        losses[i] = softmax_cross_entropy(sims, n_centre, grad_sims)
        for k in range(n_candidates):
            g = grad_sims[k]  # d(mean loss)/d sim_k
            if shared:
                coef[i, k, 0] = 0.0  # 2b skips the pair unless it is set below
            if g == 0.0 or na == 0.0 or norms[k] == 0.0:
                continue
            x = emb[candidates[i, k]]
            inv = 1.0 / (na * norms[k])
            ca = sims[k] / (na * na)
            cx = sims[k] / (norms[k] * norms[k])
            for j in range(dim):
                ga[j] += g * (x[j] * inv - ca * a[j])
            if shared:
                coef[i, k, 0] = g
                coef[i, k, 1] = inv
                coef[i, k, 2] = cx
            else:  # the candidate's row is centre i's alone (rows past the centres: never ga's)
                gx = grad[candidates[i, k]]
                for j in range(dim):
                    gx[j] += g * (a[j] * inv - cx * x[j])
    # 2b. the gradient with respect to each candidate's mean (sentences across threads): sentence r adds the terms
    #     of every (centre, candidate) pair that names it, refs[ref_starts[r]:ref_starts[r + 1]] (flat indices
    #     i × n_candidates + k, in increasing order), so a sentence that is the candidate of several centres
    #     (in-batch negatives) is written by one thread, in a fixed order
    if shared:
        for r in numba.prange(n_bags):
            x = emb[r]
            gx = grad[r]
            for q in range(ref_starts[r], ref_starts[r + 1]):
                i = refs[q] // n_candidates
                k = refs[q] % n_candidates
                g = coef[i, k, 0]
                if g == 0.0:
                    continue
                a = emb[i]
                inv = coef[i, k, 1]
                cx = coef[i, k, 2]
                for j in range(dim):
                    gx[j] += g * (a[j] * inv - cx * x[j])
    # 3. the SGD step on every word row of the batch, W[w] -= lr * Σ_sentences (grad of the mean) / length, in
    #    token order; a word may occur in many sentences, so each thread owns the rows of a share of the words
    #    (id mod chunks: whole rows, 7% faster than sharing out the dimensions) and walks every token
    for c in numba.prange(chunks):
        for s in range(n_bags):
            n = lengths[s]
            if n == 0:
                continue
            scale = np.float32(lr) / np.float32(n)
            gs = grad[s]
            for t in range(starts[s], starts[s] + n):
                word = tokens[t]
                if word % chunks != c:
                    continue
                w = weights[word]
                for j in range(dim):
                    w[j] -= scale * gs[j]
    return losses.mean()


class FusedSGD:
    """Siamese CBOW's SGD step over a weight matrix in place (a step function for
    :func:`~sentemb.adjacent_sentences.loop.train_adjacent_sentences`).

    Args:
        weights: float32, shape (V, dim), C-contiguous: updated in place (e.g. ``encoder.embedding.weight`` as
            numpy, which shares its memory).
        threads: numba threads (the result does not depend on it); each step leaves torch's thread count as it
            was (:func:`sentemb.core.runtime.threads.numba_threads`).

    Raises:
        ValueError: weights that are not a C-contiguous float32 matrix.
    """

    def __init__(self, weights: np.ndarray, threads: int = 1) -> None:
        if weights.dtype != np.float32 or weights.ndim != 2 or not weights.flags.c_contiguous:
            raise ValueError("FusedSGD needs a C-contiguous float32 (V, dim) weight matrix")
        self.weights = weights
        self.threads = max(1, min(threads, numba.config.NUMBA_NUM_THREADS))
        self._emb = self._grad = np.zeros((0, weights.shape[1]), dtype=np.float32)  # grown to the largest batch
        self._coef = np.zeros((0, 0, 3), dtype=np.float64)

    def __call__(self, tokens: np.ndarray, starts: np.ndarray, lengths: np.ndarray, n_centre: int, lr: float,
                 negatives: np.ndarray | None = None) -> float:
        """One step on a batch of sentences, read from the corpus in place (no gathered copy of their tokens).

        Args:
            tokens: int32 or int64, shape (n_tokens,): the corpus's token ids (:attr:`TokenCorpus.token_ids`).
            starts: int64, shape (k,): where each sentence of the batch starts in ``tokens``, in the order
                [centres, previous, next, negatives…] (each block ``n_centre`` sentences), or [centres, previous,
                next] with ``negatives``.
            lengths: int64, shape (k,): its tokens (cut at ``max_length``).
            n_centre: centres in the batch.
            lr: the step's learning rate.
            negatives: int64, shape (n, n_centre): in-batch negatives
                (:func:`~sentemb.adjacent_sentences.sampling.in_batch_negatives`), the row among the batch's
                sentences of each centre's negatives; ``None``: the batch holds its negatives after the next sentences.

        Returns:
            The batch's mean loss (nats).
        """
        n_bags = len(starts)
        # shared: a sentence may be the candidate of several centres (in-batch negatives; 2b of the kernel)
        candidates, shared, ref_starts, refs = step_candidates(n_bags, n_centre, negatives)
        if len(self._emb) < n_bags:
            self._emb = np.empty((n_bags, self.weights.shape[1]), dtype=np.float32)
            self._grad = np.empty_like(self._emb)
        if self._coef.shape[0] < n_centre or self._coef.shape[1] < candidates.shape[1]:
            self._coef = np.empty((n_centre, candidates.shape[1], 3), dtype=np.float64)
        coef = self._coef[:n_centre, : candidates.shape[1]]
        with numba_threads(self.threads):  # torch's thread count is left as it was (sentemb.core.runtime.threads)
            return float(_sgd_step(self.weights, tokens, starts, lengths, candidates, shared, ref_starts, refs, lr,
                                   self.threads, self._emb[:n_bags], self._grad[:n_bags], coef))
