"""Data-parallel training under ``torchrun``: the process group, this process's rank and device, and the relaunch of a
script as several processes. Outside ``torchrun`` every function answers as for one process."""

from __future__ import annotations

import os
import sys

import torch
import torch.distributed as dist

from sentemb.core.errors import SentembError


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
        SentembError: torchrun's rendezvous variables are missing, a process has no GPU of its own (more processes
            than GPUs) or the group cannot be formed.
    """
    if int(os.environ.get("WORLD_SIZE", "1")) <= 1 or dist.is_initialized():
        return False
    for key in ("RANK", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"):
        if key not in os.environ:
            raise SentembError(f"WORLD_SIZE is {os.environ['WORLD_SIZE']} but {key} is not set: start distributed "
                               "runs with torchrun")
    cuda = torch.cuda.is_available()
    if cuda:
        rank, gpus = int(os.environ["LOCAL_RANK"]), torch.cuda.device_count()
        if rank >= gpus:
            raise SentembError(f"torchrun started process {rank} (LOCAL_RANK) on a machine with {gpus} GPU(s): run "
                               "at most one process a GPU (params: processes)")
        torch.cuda.set_device(rank)
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


def relaunch_under_torchrun(processes: int) -> None:
    """Run this script again as ``processes`` data-parallel processes under ``torchrun`` (``python -m
    torch.distributed.run --standalone``), replacing this process, unless it already is one of them or
    ``processes`` is 1.

    Raises:
        SentembError: more processes than the machine has GPUs, when it has any (each process takes one).
    """
    if processes <= 1 or "LOCAL_RANK" in os.environ:
        return
    if torch.cuda.is_available() and processes > torch.cuda.device_count():
        raise SentembError(f"processes: {processes} data-parallel processes, but this machine has "
                           f"{torch.cuda.device_count()} GPU(s): one process a GPU (set processes to at most that, or "
                           "hide the GPUs with CUDA_VISIBLE_DEVICES= to share the CPU)")
    os.execv(sys.executable, [sys.executable, "-m", "torch.distributed.run", "--standalone",
                              f"--nproc_per_node={processes}", sys.argv[0], *sys.argv[1:]])
