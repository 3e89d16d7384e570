"""A batch of sentences as concatenated token ids (:class:`TokenBatch`), the layout of ``torch.nn.EmbeddingBag``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch


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
