"""Sentence encoders as torch modules with one interface: a :class:`TokenBatch` of token ids → (batch, dim).

The word average (Siamese CBOW, Kenter et al. 2016 §2.2) and the salience-weighted average over fixed word vectors
(Neural Word Salience, Bollegala et al. Eq. 1); the recurrent and projected encoders of Wieting et al. slot in beside
them in :data:`ENCODERS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
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

    def __init__(self, vectors: torch.Tensor | np.ndarray, init_low: float = 0.0, init_high: float = 1.0,
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


ENCODERS: dict[str, type[nn.Module]] = {"average": AverageEncoder, "salience": SalienceEncoder}


def build_encoder(name: str, **kwargs) -> nn.Module:
    """Instantiate an encoder by name.

    Raises:
        SentembError: an unknown name (the message lists the known ones).
    """
    if name not in ENCODERS:
        raise SentembError(f"unknown encoder {name!r}; known encoders: {', '.join(ENCODERS)}")
    return ENCODERS[name](**kwargs)
