"""The compiled (numba) kernels of adjacent-sentence training: the softmax cross-entropy of one centre and the buffer
reset inside the families' fused steps (:mod:`sentemb.siamese_cbow.fused`, :mod:`sentemb.salience.fused`), and the
in-batch negatives' acceptance loop (:func:`sentemb.adjacent_sentences.sampling.in_batch_negatives`)."""

from __future__ import annotations

import numba
import numpy as np


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
def accept_in_batch(u, sentences, roles, b, rows, done):  # pragma: no cover
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
