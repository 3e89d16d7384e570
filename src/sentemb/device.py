"""Where a trainer runs: ``device: auto`` picks CUDA when present, else the CPU."""

from __future__ import annotations

import os

import torch
import torch.distributed as dist

from sentemb.errors import SentembError


def resolve_device(device: str) -> torch.device:
    """``"auto"`` → CUDA when available, else CPU.

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


def world() -> tuple[int, int]:
    """``(rank, world_size)`` of this process: ``(0, 1)`` unless a ``torch.distributed`` process group is up (a
    run under ``torchrun``)."""
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    return 0, 1


def is_main_process() -> bool:
    """Whether this process writes the outputs: always, except on ranks other than 0 under ``torchrun``."""
    return world()[0] == 0


def init_distributed() -> bool:
    """Join the process group when started by ``torchrun`` (``WORLD_SIZE`` > 1 in the environment): NCCL when CUDA
    is available (each process on the GPU of its ``LOCAL_RANK``), Gloo otherwise. Returns whether it did.

    Raises:
        SentembError: torchrun's rendezvous variables are missing or the group cannot be formed.
    """
    if int(os.environ.get("WORLD_SIZE", "1")) <= 1 or dist.is_initialized():
        return False
    for key in ("RANK", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"):
        if key not in os.environ:
            raise SentembError(f"WORLD_SIZE is {os.environ['WORLD_SIZE']} but {key} is not set: start distributed "
                               "runs with torchrun")
    cuda = torch.cuda.is_available()
    if cuda:
        torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    try:
        dist.init_process_group("nccl" if cuda else "gloo")
    except (RuntimeError, ValueError) as e:
        raise SentembError(f"torch.distributed: cannot form the process group ({e})") from None
    return True


def local_device(device: torch.device) -> torch.device:
    """Under torchrun with CUDA, this process's own GPU (``cuda:LOCAL_RANK``); otherwise ``device``."""
    if device.type == "cuda" and world()[1] > 1:
        return torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))
    return device
