"""Ask the CPU for a cache line before a compiled (numba) loop reads it.

The GloVe cell loop waits on memory: each cell reads four random rows of 2,400 bytes (w_i, w̃_j and their
AdaGrad sums) and its own count and weight at a random place. Asking for them a few cells ahead (LLVM's
``llvm.prefetch``, which x86 compiles to ``prefetchw``) overlaps those waits; the arithmetic is untouched.
"""

from __future__ import annotations

import numba
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

CACHE_LINE = 64
"""Bytes per cache line on x86-64 and the AArch64 cores torch supports: the stride of :func:`prefetch_row`."""

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
