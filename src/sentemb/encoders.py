"""Sentence encoders as torch modules with one interface: a :class:`TokenBatch` of token ids → (batch, dim).

This issue needs only the word average (Siamese CBOW, Kenter et al. 2016 §2.2); the recurrent and projected encoders
of Wieting et al. slot in beside it in :data:`ENCODERS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from sentemb.errors import SentembError


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
        self, vocab_size: int, dim: int, init_std: float = 0.01, sparse: bool = True, seed: int | None = None
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


ENCODERS: dict[str, type[nn.Module]] = {"average": AverageEncoder}


def build_encoder(name: str, **kwargs) -> nn.Module:
    """Instantiate an encoder by name.

    Raises:
        SentembError: an unknown name (the message lists the known ones).
    """
    if name not in ENCODERS:
        raise SentembError(f"unknown encoder {name!r}; known encoders: {', '.join(ENCODERS)}")
    return ENCODERS[name](**kwargs)
