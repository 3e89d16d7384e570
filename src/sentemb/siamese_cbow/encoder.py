"""Siamese CBOW's sentence encoder: the mean of trained word vectors (Kenter et al. 2016 §2.2)."""

from __future__ import annotations

import torch
from torch import nn

from sentemb.adjacent_sentences.batch import TokenBatch


class AverageEncoder(nn.Module):
    """Sentence embedding = mean of its word vectors (Kenter et al. 2016 §2.2; Wieting et al. 2016 AVG).

    The word-embedding matrix is the only parameter. An empty sentence encodes to the zero vector.

    Args:
        vocab_size: V, rows of the embedding matrix.
        dim: embedding size d (paper: 300).
        init_std: weights drawn from N(0, init_std²) (Kenter et al. §3.4: 0.01).
        sparse: sparse gradients (only the rows of words in the batch are updated; needed for speed on CPU).
        seed: seeds the initialisation (its own generator; ``None``: torch's global one).
    """

    def __init__(
        self, vocab_size: int, dim: int, *, init_std: float, sparse: bool = True, seed: int | None = None
    ) -> None:
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, dim, mode="mean", sparse=sparse)
        generator = torch.Generator().manual_seed(seed) if seed is not None else None
        nn.init.normal_(self.embedding.weight, mean=0.0, std=init_std, generator=generator)

    @property
    def dim(self) -> int:
        return self.embedding.embedding_dim

    def forward(self, batch: TokenBatch) -> torch.Tensor:
        """Returns float32, shape (batch, dim)."""
        return self.embedding(batch.ids, batch.offsets)
