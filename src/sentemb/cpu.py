"""One call that keeps torch's CPU square root reproducible on several threads: trainers run it before their first
step.

Measured on the 2-core machine of README's figures (torch 2.13.0+cpu, MKL 2024.2, AVX-512), 2 threads: when the
first float32 ``torch.sqrt`` of a process is split across threads, the second thread's share is sometimes computed
by a low-accuracy square root (relative error about 4e-5, where the root on one thread is within an ulp), and that
lasts for the life of the process. It happened in 16 of 90 fresh processes,
and in none of 100 whose first square root ran on one thread. ``torch.sqrt`` goes through MKL's vector maths library
(VML); the pattern fits a race in its lazy set-up. None of 32 other unary functions tried behaves so.
A test in ``tests/test_training.py`` (``..._after_settle_sqrt``) checks it in fresh processes.

AdaGrad, Adam and SparseAdam take that square root at every step, so NWS (AdaGrad), Siamese CBOW with AdaGrad and
the paraphrastic and supervised trainers (Adam, SparseAdam) gave one of two results from run to run on 2 threads.
:func:`settle_sqrt` takes one square root on the calling thread first; every later one then gives the bits it gives
on one thread.
"""

from __future__ import annotations

import torch

_settled = False


def settle_sqrt() -> None:
    """Take one small ``torch.sqrt`` on the calling thread, once per process, so that the square roots torch later
    splits across threads are the ones it takes on one thread (module docstring). 16 elements; idempotent."""
    global _settled
    if not _settled:
        torch.sqrt(torch.ones(16))
        _settled = True
