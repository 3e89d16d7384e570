"""Threads of the CPU trainers: :func:`settle_sqrt` (torch's square root reproducible on several threads) and
:func:`numba_threads` (numba's thread count for a compiled step, torch's left as it was).

**settle_sqrt.** Measured on a 2-core AMD EPYC machine (torch 2.13.0+cpu, MKL 2024.2, AVX-512), 2 threads:
when the first float32 ``torch.sqrt`` of a process is split across threads, the second thread's share is sometimes
computed by a low-accuracy square root (relative error about 4e-5, where the root on one thread is within an ulp), and
that lasts for the life of the process. It happened in 16 of 90 fresh processes,
and in none of 100 whose first square root ran on one thread. ``torch.sqrt`` goes through MKL's vector maths library
(VML); the pattern fits a race in its lazy set-up. None of 32 other unary functions tried behaves so.
A test in ``tests/test_training.py`` (``..._after_settle_sqrt``) checks it in fresh processes.

AdaGrad, Adam and SparseAdam take that square root at every step, so NWS (AdaGrad), Siamese CBOW with AdaGrad and
the paraphrastic and supervised trainers (Adam, SparseAdam) gave one of two results from run to run on 2 threads.
:func:`settle_sqrt` takes one square root on the calling thread first; every later one then gives the bits it gives
on one thread.

**numba_threads.** numba's OpenMP layer, when its first parallel loop of a process starts, sets the process's OpenMP
thread count to its pool's size (the cores), and torch's operations follow that count: a lane given one thread would
run torch on every core. Every compiled parallel step runs inside :func:`numba_threads`, which puts torch's count back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numba
import torch

_settled = False


def settle_sqrt() -> None:
    """Take one small ``torch.sqrt`` on the calling thread, once per process, so that the square roots torch later
    splits across threads are the ones it takes on one thread (module docstring). 16 elements; idempotent."""
    global _settled
    if not _settled:
        torch.sqrt(torch.ones(16))
        _settled = True


@contextmanager
def numba_threads(threads: int | None = None) -> Iterator[int]:
    """Run compiled parallel loops on ``threads`` threads (default: as many as torch has, from ``OMP_NUM_THREADS`` or
    ``torch.set_num_threads``), at most numba's pool (``NUMBA_NUM_THREADS``), and leave torch's thread count as it
    was on exit (module docstring).

    Yields:
        int: the number of threads numba runs, for kernels that split their work themselves.

    Raises:
        ValueError: ``threads`` below 1.
    """
    before = torch.get_num_threads()
    wanted = before if threads is None else threads
    if wanted < 1:
        raise ValueError(f"numba_threads: threads must be at least 1 (got {wanted})")
    numba.set_num_threads(min(wanted, numba.config.NUMBA_NUM_THREADS))
    try:
        yield numba.get_num_threads()
    finally:
        if torch.get_num_threads() != before:
            torch.set_num_threads(before)
