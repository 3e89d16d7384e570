"""sentemb.core.runtime: the prefetch intrinsic and numba_threads (settle_sqrt is tested in test_training.py)."""

import numba
import numpy as np
import pytest
import torch
from numba.core.errors import TypingError

from sentemb.core.runtime.prefetch import prefetch, prefetch_row
from sentemb.core.runtime.threads import numba_threads


@numba.njit
def _sum_with_prefetch(matrix, ids):
    total = 0.0
    for k in range(len(ids)):
        if k + 1 < len(ids):
            prefetch(ids, k + 1)
            prefetch(matrix, (ids[k + 1], np.int64(0)))
            prefetch_row(matrix, ids[k + 1])
        total += matrix[ids[k]].sum()
    return total


def test_prefetch_emits_prefetch_instructions_and_changes_no_result():
    matrix = np.arange(40 * 33, dtype=np.float64).reshape(40, 33)
    ids = np.array([3, 39, 0, 17], dtype=np.int32)
    assert _sum_with_prefetch(matrix, ids) == matrix[ids].sum()
    llvm = next(iter(_sum_with_prefetch.inspect_llvm().values()))
    # one 1-D and one 2-D call, and prefetch_row's loop over the row's cache lines (33 float64: 5 lines)
    assert llvm.count("call void @llvm.prefetch") >= 3
    asm = next(iter(_sum_with_prefetch.inspect_asm().values()))
    assert "prefetch" in asm  # x86's prefetchw, AArch64's prfm


def test_prefetch_rejects_what_is_not_an_array_element():
    @numba.njit
    def scalar(x):
        prefetch(x, 0)

    @numba.njit
    def wrong_rank(a):
        prefetch(a, 0)

    @numba.njit
    def float_index(a):
        prefetch(a, 1.5)

    for f, arg in ((scalar, 3.0), (wrong_rank, np.zeros((2, 2))), (float_index, np.zeros(3))):
        with pytest.raises(TypingError):
            f(arg)


def test_numba_threads_sets_numbas_count_and_puts_torchs_back():
    before = torch.get_num_threads()
    with numba_threads(1) as threads:
        assert threads == numba.get_num_threads() == 1
        torch.set_num_threads(before + 1)  # as numba's OpenMP layer may do when its first parallel loop starts
    assert torch.get_num_threads() == before
    with numba_threads() as threads:  # default: torch's count, at most numba's pool
        assert threads == min(before, numba.config.NUMBA_NUM_THREADS)
    with pytest.raises(ValueError, match="threads must be at least 1"), numba_threads(0):
        pass
