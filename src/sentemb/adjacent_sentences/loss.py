"""The adjacent-sentence loss (Kenter et al. 2016 §2.1; Bollegala et al. Eq. 2-3)."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def adjacent_sentence_loss(
    center: torch.Tensor, candidates: torch.Tensor, n_positive: int, similarity: str
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
