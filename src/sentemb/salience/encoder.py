"""Neural Word Salience's sentence encoder: fixed word vectors weighted by one learnt scalar per word (Bollegala et
al. §3, Eq. 1)."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from sentemb.adjacent_sentences.batch import TokenBatch
from sentemb.core.errors import SentembError


class SalienceEncoder(nn.Module):
    """Sentence embedding s = (1/|S|) Σ_{w∈S} q_w x_w: FIXED word vectors x_w weighted by one learnt scalar
    salience q_w per word (Neural Word Salience, Bollegala et al. §3, Eq. 1). The saliences are the only
    parameters; an empty sentence encodes to the zero vector.

    Args:
        vectors: float, shape (V, dim): the pre-trained word vectors, kept fixed (a buffer, not a parameter).
        init_low, init_high: saliences start uniform in [init_low, init_high) (the paper initialises them
            randomly without saying how).
        sparse: sparse gradients for the saliences (only the words of a batch are updated).
        seed: seeds the initialisation (``None``: torch's global generator).

    Raises:
        SentembError: ``vectors`` not 2-d, or ``init_high`` < ``init_low``.
    """

    def __init__(self, vectors: torch.Tensor | np.ndarray, *, init_low: float, init_high: float,
                 sparse: bool = True, seed: int | None = None) -> None:
        super().__init__()
        vectors = torch.as_tensor(np.asarray(vectors, dtype=np.float32))
        if vectors.dim() != 2:
            raise SentembError(f"salience encoder: vectors must be (V, dim), got shape {tuple(vectors.shape)}")
        if init_high < init_low:
            raise SentembError(f"salience encoder: init_high ({init_high}) < init_low ({init_low})")
        self.register_buffer("vectors", vectors)
        self.salience = nn.Embedding(vectors.shape[0], 1, sparse=sparse)
        generator = torch.Generator().manual_seed(seed) if seed is not None else None
        nn.init.uniform_(self.salience.weight, init_low, init_high, generator=generator)

    @property
    def dim(self) -> int:
        return self.vectors.shape[1]

    @property
    def saliences(self) -> torch.Tensor:
        """float32, shape (V,): q."""
        return self.salience.weight[:, 0]

    def forward(self, batch: TokenBatch) -> torch.Tensor:
        """Returns float32, shape (batch, dim)."""
        q = self.salience(batch.ids)[:, 0]
        summed = F.embedding_bag(batch.ids, self.vectors, batch.offsets, mode="sum", per_sample_weights=q)
        ends = torch.cat([batch.offsets[1:], batch.offsets.new_tensor([batch.ids.numel()])])
        lengths = (ends - batch.offsets).clamp_(min=1).to(summed.dtype)
        return summed / lengths[:, None]
