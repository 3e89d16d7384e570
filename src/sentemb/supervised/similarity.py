"""Supervised semantic relatedness on top of a sentence encoder: Tai, Socher & Manning (2015) §4.2 / Eq. 6, the
setting of Wieting & Gimpel (ACL 2017) §4.3 (Tables 5, 6 and 8) and Wieting et al. (ICLR 2016) §4.3.

For sentence embeddings h_L and h_R of a pair:

    h× = h_L ⊙ h_R,  h+ = |h_L − h_R|,  h_s = σ(W× h× + W+ h+ + b_h),  p̂ = softmax(W_p h_s + b_p),  ŷ = rᵀ p̂,

with r = [1, 2, …, K]. A gold score y ∈ [1, K] becomes the sparse distribution p with rᵀp = y
(p_⌊y⌋ = ⌊y⌋ − y + 1, p_⌊y⌋+1 = y − ⌊y⌋), and the loss is the mean KL(p ‖ p̂) over the pairs. Scores on another
range are shifted onto [1, K] (:func:`score_range`): STS's [0, 5] becomes [1, 6] (K = 6), SICK's [1, 5] stays
(K = 5); Pearson's r of the prediction does not change with the shift.

The reference code (jwieting/iclr2016, ``similarity/*_model_sim.py``) computes the same head as one dense layer over
the concatenation [h×; h+] (which is W× h× + W+ h+ + b), adds 1e-6 to every entry of p before taking its log and
divides the KL by K; here the KL is exact (0 · log 0 = 0) and not divided by K, as in Tai et al.'s Eq. 6. Under Adam
the constant factor only rescales the regularisers' weights.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from sentemb.core.errors import SentembError


def score_range(low: float, high: float) -> tuple[float, int]:
    """The shift onto [1, K] of gold scores in [low, high]: returns (offset, K) with y' = y + offset.

    Raises:
        SentembError: a range whose width is not a positive integer (K classes need integer steps).
    """
    width = high - low
    if width < 1 or width != int(width):
        raise SentembError(f"supervised similarity: the score range [{low}, {high}] must span a positive integer")
    return 1.0 - low, int(width) + 1


def score_distribution(scores: np.ndarray | torch.Tensor, k: int) -> torch.Tensor:
    """Tai et al.'s sparse target: float32 (n, K), p_i over the classes 1 … K with Σ_i i·p_i = y.

    Args:
        scores: float (n,), each in [1, K].

    Raises:
        SentembError: a score outside [1, K] or not finite (naming the first).
    """
    y = torch.as_tensor(np.asarray(scores, dtype=np.float64))
    bad = ~torch.isfinite(y) | (y < 1) | (y > k)
    if bad.any():
        i = int(bad.nonzero()[0, 0])
        raise SentembError(f"supervised similarity: score {float(y[i])} (pair {i}) is outside [1, {k}]")
    floor = y.floor().clamp(max=k - 1)  # y = K puts all its mass on class K through the upper weight
    upper = y - floor
    p = torch.zeros(len(y), k, dtype=torch.float64)
    rows = torch.arange(len(y))
    p[rows, floor.long() - 1] = 1.0 - upper
    p[rows, floor.long()] += upper
    return p.float()


class SimilarityHead(nn.Module):
    """The relatedness head (Tai et al. 2015 §4.2): a pair of embeddings → log p̂ over K score classes.

    Args:
        dim: size of the sentence embeddings.
        hidden: size of h_s (the reference code's ``memsize``).
        k: number of classes K.
    """

    def __init__(self, dim: int, hidden: int, k: int) -> None:
        super().__init__()
        if hidden < 1 or k < 2:
            raise SentembError(f"supervised similarity: hidden must be ≥ 1 and K ≥ 2, got {hidden} and {k}")
        self.hidden = nn.Linear(2 * dim, hidden)  # [W× W+] over [h×; h+], bias b_h
        self.output = nn.Linear(hidden, k)
        self.k = k

    def forward(self, left: torch.Tensor, right: torch.Tensor) -> torch.Tensor:
        """left, right: float (B, dim) → log p̂, float (B, K)."""
        features = torch.cat([left * right, (left - right).abs()], dim=1)
        return F.log_softmax(self.output(torch.sigmoid(self.hidden(features))), dim=1)

    def predict(self, log_p: torch.Tensor) -> torch.Tensor:
        """ŷ = rᵀ p̂ with r = [1 … K]: float (B,), in [1, K]."""
        return log_p.exp() @ torch.arange(1, self.k + 1, dtype=log_p.dtype, device=log_p.device)


def kl_loss(log_p_hat: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean over the batch of KL(p ‖ p̂) = Σ_i p_i (log p_i − log p̂_i) (Tai et al. Eq. 6, without the regulariser);
    0 · log 0 is 0. Both (B, K); returns a scalar."""
    return (torch.xlogy(target, target) - target * log_p_hat).sum(dim=1).mean()
