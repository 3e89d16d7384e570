"""Which sentences a training step sees: the (centre, previous, next) tuples of the corpus and their negatives, drawn
from the corpus (the papers) or from the batch's own sentences (in-batch negatives), and their rows in a batch."""

from __future__ import annotations

import numpy as np

from sentemb.adjacent_sentences.kernels import accept_in_batch
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.errors import SentembError


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


def corpus_negatives(candidates: np.ndarray, neg: int, n_centre: int, rng: np.random.Generator) -> np.ndarray:
    """S−, the negatives of a batch's centres drawn from the corpus (Kenter et al. 2016 §2.1: "n sentences drawn at
    random"): uniformly, with replacement, from the non-empty sentences, not de-duplicated against the positives (as
    the authors' code).

    Args:
        candidates: int64, the non-empty sentences (:func:`training_tuples`).
        neg: n, negatives per centre (``model.neg``, ``nws.neg``).
        n_centre: B, the batch's centres.
        rng: the training run's generator.

    Returns:
        int64, shape (neg, B): sentence indices, centre i's k-th negative at [k, i].
    """
    return candidates[rng.integers(0, len(candidates), size=(neg, n_centre))]


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
        done = accept_in_batch(rng.random(16 * len(rows)), sentences, roles, b, rows, done)
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
