"""What the CPU trainers share: :func:`settle_sqrt` (torch's square root reproducible on several threads),
:func:`numba_threads` (numba's thread count for a compiled step, torch's left as it was) and :func:`prefetch` (ask the
CPU for a cache line before a compiled loop reads it).

**settle_sqrt.** Measured on the 2-core machine of README's figures (torch 2.13.0+cpu, MKL 2024.2, AVX-512), 2 threads:
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

**prefetch.** The GloVe cell loop waits on memory: each cell reads four random rows of 2,400 bytes (w_i, w̃_j and their
AdaGrad sums) and its own count and weight at a random place. Asking for them a few cells ahead (LLVM's
``llvm.prefetch``, which x86 compiles to ``prefetchw``) overlaps those waits; the arithmetic is untouched.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numba
import torch
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

CACHE_LINE = 64
"""Bytes per cache line on x86-64 and the AArch64 cores torch supports: the stride of :func:`prefetch_row`."""

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


@intrinsic
def prefetch(typingctx, array, index):
    """``prefetch(array, i)`` or ``prefetch(array, (i, j))`` inside a numba-compiled function: asks the CPU to bring
    the cache line of ``array[i]`` / ``array[i, j]`` near, for writing, and goes on (LLVM ``llvm.prefetch``, rw=1,
    locality=3). Nothing is read or checked: an index out of bounds prefetches a wrong line and is otherwise harmless.
    Any array of numba's (C order or not); integer indices of any width, one per dimension."""
    indices = list(index) if isinstance(index, types.BaseTuple) else [index]
    if not isinstance(array, types.Array) or len(indices) != array.ndim:
        return None
    if not all(isinstance(t, types.Integer) for t in indices):
        return None
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):
        arrty, idxty = signature.args
        ary = context.make_array(arrty)(context, builder, args[0])
        if isinstance(idxty, types.BaseTuple):
            values = cgutils.unpack_tuple(builder, args[1], len(idxty))
            types_ = list(idxty)
        else:
            values, types_ = [args[1]], [idxty]
        ints = [context.cast(builder, v, t, types.intp) for v, t in zip(values, types_, strict=True)]
        ptr = cgutils.get_item_pointer(context, builder, arrty, ary, ints)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 1), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@numba.njit(inline="always")
def prefetch_row(matrix, i):  # pragma: no cover (compiled; tested through test_cpu.py)
    """Prefetch every cache line of row ``i`` of a C-ordered 2-D array (:func:`prefetch` a line at a time)."""
    step = max(1, CACHE_LINE // matrix.itemsize)
    for d in range(0, matrix.shape[1], step):
        prefetch(matrix, (i, d))
