"""One Neural Word Salience AdaGrad step on the CPU as a single compiled pass (numba): forward, loss and the sparse
AdaGrad update of the saliences fused.

The arithmetic is that of :class:`~sentemb.salience.encoder.SalienceEncoder` +
:func:`~sentemb.adjacent_sentences.loss.adjacent_sentence_loss` (inner product) + ``torch.optim.Adagrad`` on the
saliences' sparse gradient (Bollegala et al. §3, Eq. 1-3): each sentence is the salience-weighted mean of its FIXED word
vectors, s = (1/|S|) Σ_w q_w x_w; the softmax cross-entropy over (previous, next, negatives) is averaged over the
centres; each salience's gradient is Σ over its tokens of x_w · (∂L/∂s) / |S|; and every salience with a gradient takes
torch's AdaGrad step, G_w ← G_w + g_w², q_w ← q_w − lr · g_w / (√G_w + 1e-10) (Duchi et al. 2011; torch's ``eps``).
torch builds, coalesces and adds a sparse gradient in a dozen kernels; this reads the batch's tokens from the corpus
where they lie, twice (forward, and the saliences' gradient), without allocating per token.

Threads share the sentences of the forward pass and the centres of the loss as in
:mod:`sentemb.siamese_cbow.fused`; in the saliences' gradient and update each thread owns the words of a share (id
mod threads) and walks every token in order, so no two threads write the same float and the result does not depend
on the number of threads. It equals the torch step up to float rounding (``tests/test_training.py`` compares the
two fits on the same sampled tuples).
"""

from __future__ import annotations

import numba
import numpy as np

from sentemb.adjacent_sentences.kernels import clear_rows, softmax_cross_entropy
from sentemb.adjacent_sentences.sampling import step_candidates
from sentemb.core.runtime.threads import numba_threads

ADAGRAD_EPS = 1e-10  # torch.optim.Adagrad's default eps, added to √G


@numba.njit(fastmath={"reassoc"}, cache=True)
def _dot(x, y):  # pragma: no cover
    """Σ_j x_j y_j in float32, summed in whatever order vectorises (the same order on every call and thread)."""
    total = np.float32(0.0)
    for j in range(x.shape[0]):
        total += x[j] * y[j]
    return total


@numba.njit(parallel=True, cache=True)
def _adagrad_step(vectors, saliences, sums, tokens, starts, lengths, candidates, shared, ref_starts, refs, lr, eps,
                  chunks, emb, grad, coef, salience_grad, stamp, step_id):  # pragma: no cover
    dim = vectors.shape[1]
    n_bags = lengths.shape[0]
    n_centre, n_candidates = candidates.shape
    # 1. every sentence's salience-weighted mean (sentences across threads; summed in token order, then divided by
    #    the length, as embedding_bag's per-sample weights and the encoder's division); emb and grad are the
    #    caller's (n_bags, dim) buffers, zeroed here
    for s in numba.prange(n_bags):
        n = lengths[s]
        e = emb[s]
        clear_rows(e, grad[s])
        if n == 0:
            continue
        for t in range(starts[s], starts[s] + n):
            word = tokens[t]
            q = saliences[word]
            x = vectors[word]
            for j in range(dim):
                e[j] += q * x[j]
        length = np.float32(n)
        for j in range(dim):
            e[j] /= length
    # 2a. inner products, softmax cross-entropy and the gradient with respect to each centre's mean (centres across
    #     threads). Negatives from the corpus: centre i also writes its candidates' rows (its own); in-batch
    #     negatives: it keeps dL/d sim_ik in coef[i, k] for 2b
    losses = np.zeros(n_centre, dtype=np.float64)
    for i in numba.prange(n_centre):
        a = emb[i]
        ga = grad[i]
        sims = np.empty(n_candidates, dtype=np.float64)
        for k in range(n_candidates):
            x = emb[candidates[i, k]]
            dot = 0.0
            for j in range(dim):
                dot += a[j] * x[j]
            sims[k] = dot
        grad_sims = np.empty(n_candidates, dtype=np.float64)
        losses[i] = softmax_cross_entropy(sims, n_centre, grad_sims)
        for k in range(n_candidates):
            g = grad_sims[k]  # d(mean loss)/d sim_k
            x = emb[candidates[i, k]]
            for j in range(dim):
                ga[j] += g * x[j]
            if shared:
                coef[i, k] = g
            else:
                gx = grad[candidates[i, k]]
                for j in range(dim):
                    gx[j] += g * a[j]
    # 2b. in-batch negatives: each sentence sums the terms of the (centre, candidate) pairs that name it
    #     (sentences across threads, pairs in increasing order)
    if shared:
        for r in numba.prange(n_bags):
            gx = grad[r]
            for p in range(ref_starts[r], ref_starts[r + 1]):
                i = refs[p] // n_candidates
                g = coef[i, refs[p] % n_candidates]
                a = emb[i]
                for j in range(dim):
                    gx[j] += g * a[j]
    # 2c. the gradient with respect to each sentence's weighted sum: dL/ds / |S| (sentences across threads)
    for s in numba.prange(n_bags):
        if lengths[s] == 0:
            continue
        gs = grad[s]
        length = np.float32(lengths[s])
        for j in range(dim):
            gs[j] /= length
    # 3. each salience's gradient, Σ over its tokens of x_w · dL/d(sum), then its AdaGrad step; each thread owns
    #    the words of a share (id mod chunks) and walks every token in order. stamp[w] == step_id: w has a gradient
    #    this step; −step_id: its step is taken
    for c in numba.prange(chunks):
        for s in range(n_bags):
            gs = grad[s]
            for t in range(starts[s], starts[s] + lengths[s]):
                word = tokens[t]
                if word % chunks != c:
                    continue
                dot = _dot(vectors[word], gs)
                if stamp[word] != step_id:
                    stamp[word] = step_id
                    salience_grad[word] = dot
                else:
                    salience_grad[word] += dot
        for s in range(n_bags):
            for t in range(starts[s], starts[s] + lengths[s]):
                word = tokens[t]
                if word % chunks != c or stamp[word] != step_id:
                    continue
                stamp[word] = -step_id
                g = salience_grad[word]
                sums[word] += g * g
                saliences[word] -= np.float32(lr) * (g / (np.sqrt(sums[word]) + np.float32(eps)))
    return losses.mean()


class FusedAdagrad:
    """Neural Word Salience's AdaGrad step over the saliences in place (a step function for
    :func:`~sentemb.adjacent_sentences.loop.train_adjacent_sentences`), torch's ``Adagrad`` (eps 1e-10, no decay) on the
    sparse gradient.

    Args:
        vectors: float32, shape (V, dim), C-contiguous: the fixed word vectors x_w.
        saliences: float32, shape (V,), contiguous: q, updated in place (e.g. the encoder's salience weight as numpy,
            which shares its memory).
        threads: numba threads (the result does not depend on it); each step leaves torch's thread count as it was
            (:func:`sentemb.core.runtime.threads.numba_threads`).

    Raises:
        ValueError: arrays of the wrong dtype, shape or layout.
    """

    def __init__(self, vectors: np.ndarray, saliences: np.ndarray, threads: int = 1) -> None:
        if vectors.dtype != np.float32 or vectors.ndim != 2 or not vectors.flags.c_contiguous:
            raise ValueError("FusedAdagrad needs C-contiguous float32 (V, dim) word vectors")
        if saliences.dtype != np.float32 or saliences.shape != (len(vectors),) or not saliences.flags.c_contiguous:
            raise ValueError(f"FusedAdagrad needs contiguous float32 saliences of shape ({len(vectors)},)")
        self.vectors = vectors
        self.saliences = saliences
        self.sums = np.zeros_like(saliences)  # G_w, torch's state_sum (initial_accumulator_value 0)
        self.threads = max(1, min(threads, numba.config.NUMBA_NUM_THREADS))
        self._salience_grad = np.zeros_like(saliences)
        self._stamp = np.zeros(len(saliences), dtype=np.int64)
        self._steps = 0
        self._emb = self._grad = np.zeros((0, vectors.shape[1]), dtype=np.float32)  # grown to the largest batch
        self._coef = np.zeros((0, 0), dtype=np.float64)

    def __call__(self, tokens: np.ndarray, starts: np.ndarray, lengths: np.ndarray, n_centre: int, lr: float,
                 negatives: np.ndarray | None = None) -> float:
        """One step on a batch of sentences read from the corpus in place; the arguments are
        :meth:`sentemb.siamese_cbow.fused.FusedSGD.__call__`'s.

        Returns:
            The batch's mean loss (nats).
        """
        n_bags = len(starts)
        candidates, shared, ref_starts, refs = step_candidates(n_bags, n_centre, negatives)
        if len(self._emb) < n_bags:
            self._emb = np.empty((n_bags, self.vectors.shape[1]), dtype=np.float32)
            self._grad = np.empty_like(self._emb)
        if self._coef.shape[0] < n_centre or self._coef.shape[1] < candidates.shape[1]:
            self._coef = np.empty((n_centre, candidates.shape[1]), dtype=np.float64)
        self._steps += 1
        with numba_threads(self.threads):
            return float(_adagrad_step(self.vectors, self.saliences, self.sums, tokens, starts, lengths, candidates,
                                       shared, ref_starts, refs, lr, ADAGRAD_EPS, self.threads, self._emb[:n_bags],
                                       self._grad[:n_bags], self._coef[:n_centre, : candidates.shape[1]],
                                       self._salience_grad, self._stamp, self._steps))
