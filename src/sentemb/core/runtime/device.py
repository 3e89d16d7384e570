"""Where a trainer runs: ``device: auto`` picks CUDA when present, else the CPU. A trainer resolves its device once
(:func:`resolve_device`, then :func:`~sentemb.core.runtime.distributed.local_device` under torchrun) and passes the
``torch.device`` down."""

from __future__ import annotations

import torch

from sentemb.core.errors import SentembError


def resolve_device(device: str) -> torch.device:
    """``"auto"`` → CUDA when available, else CPU; ``"cpu"``, ``"cuda"`` and ``"cuda:N"`` as they are.

    Raises:
        SentembError: ``"cuda"`` asked for on a machine without it, or an unknown name.
    """
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device not in ("cpu", "cuda") and not device.startswith("cuda:"):
        raise SentembError(f"device: expected 'auto', 'cpu' or 'cuda', got {device!r}")
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise SentembError(f"device: {device!r} asked for, but CUDA is not available on this machine")
    return torch.device(device)
