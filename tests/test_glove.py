import itertools
import tracemalloc
from pathlib import Path

from helpers import configured

import numpy as np
import pytest
import scipy.sparse as sp
import torch

from sentemb.core.data.corpus import TokenCorpus, build_token_corpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.runtime.device import resolve_device
from sentemb.wordvectors.config import GloveConfig
from sentemb.wordvectors.cooccurrence import (
    CELL,
    FIT_BYTES_PER_CELL,
    CooccurrenceCells,
    cooccurrence_cells,
    cooccurrence_matrix,
)
from sentemb.wordvectors.glove import (
    _exclusive_cumsum_by_row,
    glove_initial_parameters,
    glove_weight,
    parameter_bytes,
    train_glove,
)
from sentemb.wordvectors.glove_inner import stratify, word_groups

CPU = torch.device("cpu")


def fit(x, device=CPU, shuffle=True, **overrides):
    """train_glove with params.yaml's GloVe settings, changed where a test says (one thread: deterministic)."""
    return train_glove(x, configured(GloveConfig, "pretrain.glove", **({"threads": 1} | overrides)), device,
                       shuffle=shuffle)


def test_cooccurrence_equals_a_hand_count():
    # a=0 b=1 c=2; sentences "a b c a" and "b b", window 2, weights 1/distance, symmetric, not across sentences.
    corpus = build_token_corpus([[["a", "b", "c", "a"], ["b", "b"]]], {"a": 0, "b": 1, "c": 2})
    x = cooccurrence_matrix(corpus, 3, window=2).toarray()
    expected = np.zeros((3, 3))
    for s in ([0, 1, 2, 0], [1, 1]):
        for p, w in enumerate(s):
            for q in range(max(0, p - 2), p):
                expected[w, s[q]] += 1 / (p - q)
                expected[s[q], w] += 1 / (p - q)
    # by hand: a-b 1 + 1/2 (b..a at distance 2), a-c 1/2 + 1, a-a 0 (distance 3 > window), b-c 1, b-b 2 (1 each way)
    assert expected[0, 1] == 1.5 and expected[0, 2] == 1.5 and expected[1, 1] == 2.0 and expected[0, 0] == 0
    np.testing.assert_allclose(x, expected, rtol=1e-6)


def test_chunking_does_not_change_the_counts():
    rng = np.random.default_rng(0)
    docs = [[[f"w{i}" for i in rng.integers(0, 30, rng.integers(0, 12))] for _ in range(40)] for _ in range(3)]
    corpus = build_token_corpus(docs, {f"w{i}": i for i in range(30)})
    whole = cooccurrence_matrix(corpus, 30, window=5).toarray()
    chunked = cooccurrence_matrix(corpus, 30, window=5, chunk_tokens=17).toarray()
    np.testing.assert_allclose(chunked, whole, rtol=1e-5)
    np.testing.assert_allclose(whole, whole.T)


def test_weighting_function():
    x = np.array([1.0, 50.0, 100.0, 400.0])
    np.testing.assert_allclose(glove_weight(x, 100.0, 0.75), [0.01**0.75, 0.5**0.75, 1.0, 1.0], rtol=1e-12)


def test_the_fit_recovers_a_low_rank_log_count_matrix():
    # log X = A Bᵀ + 2.5 has rank 4 (+ the biases): 8-d GloVe can fit every cell, and the cost must go to ~0
    rng = np.random.default_rng(0)
    a, b = rng.normal(0, 0.7, (30, 4)), rng.normal(0, 0.7, (30, 4))
    x = sp.coo_matrix(np.exp(a @ b.T + 2.5))  # counts from 0.36 to 1,017
    for method, extra in (("cells", {"threads": 2}), ("batches", {"batch_size": 64})):
        vectors, stats = fit(x, vector_size=8, epochs=60, seed=1, fit=method, **extra)
        assert vectors.shape == (30, 8) and vectors.dtype == np.float32 and stats["method"] == method
        losses = stats["losses"]
        every_tenth = losses[::10]
        assert len(losses) == 60 and all(b < a for a, b in itertools.pairwise(every_tenth))
        assert losses[-1] < 0.01 * losses[0]


def _symmetric_counts(size: int, density: float, seed: int) -> sp.coo_matrix:
    rng = np.random.default_rng(seed)
    x = rng.gamma(0.5, 40.0, size=(size, size)) * (rng.random((size, size)) < density)
    return sp.coo_matrix(np.triu(x) + np.triu(x, 1).T)  # symmetric, as cooccur.c's counts


def test_word_groups_balance_the_cells_and_stratify_gives_disjoint_rows():
    x = _symmetric_counts(60, 0.3, seed=4)
    counts = np.bincount(x.row, minlength=60)
    for groups in (2, 3):
        group = word_groups(counts, groups)
        assert group.dtype == np.int32 and set(group.tolist()) == set(range(groups))
        load = np.bincount(group, weights=counts, minlength=groups)
        assert load.max() - load.min() <= counts.max()  # LPT: within one word's cells of each other
        rows, cols = x.row.astype(np.int32), x.col.astype(np.int32)
        order, bounds = stratify(rows, cols, group, groups)
        assert sorted(order.tolist()) == list(range(x.nnz)) and bounds[0] == 0 and bounds[-1] == x.nnz
        for s in range(groups):  # the segments of one stratum share no word row and no context row
            segments = [order[bounds[s * groups + t]:bounds[s * groups + t + 1]] for t in range(groups)]
            for a, b in itertools.combinations(segments, 2):
                assert not set(rows[a]) & set(rows[b]) and not set(cols[a]) & set(cols[b])
            for t, seg in enumerate(segments):
                assert (group[rows[seg]] == t).all() and (group[cols[seg]] == (t + s) % groups).all()
                assert (np.diff(seg) > 0).all()  # storage order within a segment, before the fit shuffles it
    assert (word_groups(counts, 1) == 0).all()
    with pytest.raises(ValueError, match="at least 1"):
        word_groups(counts, 0)


_STRATIFIED_RUN = """
import hashlib, sys
sys.path.insert(0, "tests")
import numpy as np, scipy.sparse as sp, torch
from helpers import configured
from sentemb.wordvectors.config import GloveConfig
from sentemb.wordvectors.glove import train_glove
rng = np.random.default_rng(5)
x = rng.gamma(0.5, 40.0, size=(80, 80)) * (rng.random((80, 80)) < 0.3)
x = sp.coo_matrix(np.triu(x) + np.triu(x, 1).T)
config = configured(GloveConfig, "pretrain.glove", threads=2, vector_size=8, epochs=3, seed=2, fit="cells")
vectors, stats = train_glove(x, config, torch.device("cpu"))
print(hashlib.sha256(vectors.tobytes()).hexdigest(), stats["losses"][-1])
"""


def test_the_stratified_fit_gives_the_same_bytes_on_any_number_of_cores():
    # two threads of the schedule in fresh processes: the same bytes run after run, and with numba's pool at one
    # core as at two (the segments of a stratum then run one after the other)
    import os
    import subprocess
    import sys

    def run(cores: int) -> str:
        env = os.environ | {"NUMBA_NUM_THREADS": str(cores)}
        return subprocess.run([sys.executable, "-c", _STRATIFIED_RUN], env=env, capture_output=True, text=True,
                              check=True, cwd=Path(__file__).resolve().parents[1]).stdout

    two = run(2)
    assert run(2) == two and run(1) == two
    x = _symmetric_counts(80, 0.3, seed=5)
    vectors, stats = train_glove(x, configured(GloveConfig, "pretrain.glove", threads=2, vector_size=8, epochs=3,
                                               seed=2, fit="cells"), CPU)
    assert stats["device"] == "cpu (2 threads, float64)"
    one_thread, _ = fit(x, vector_size=8, epochs=3, seed=2, fit="cells")
    assert one_thread.tobytes() != vectors.tobytes()  # another schedule: another (equally good) order


def test_the_cell_loop_walked_in_pieces_gives_the_bits_of_one_walk(monkeypatch):
    # the fit returns to Python every PIECE cells a thread (so that a signal stops it): the same bits, costs included
    import sentemb.wordvectors.glove_inner as inner

    x = _symmetric_counts(50, 0.4, seed=6)
    for threads in (1, 2):
        whole = fit(x, vector_size=8, epochs=2, seed=3, fit="cells", threads=threads)
        monkeypatch.setattr(inner, "PIECE", 7)
        pieces = fit(x, vector_size=8, epochs=2, seed=3, fit="cells", threads=threads)
        monkeypatch.undo()
        assert pieces[0].tobytes() == whole[0].tobytes() and pieces[1]["losses"] == whole[1]["losses"]


def test_bad_input_is_named():
    with pytest.raises(SentembError, match="square"):
        fit(sp.csr_matrix(np.ones((2, 3))), vector_size=2)
    with pytest.raises(SentembError, match="empty"):
        fit(sp.csr_matrix((3, 3)), vector_size=2)
    gpu = torch.cuda.is_available()
    with pytest.raises(SentembError, match="the cell fit runs on the CPU" if gpu else "CUDA is not available"):
        fit(sp.csr_matrix(np.ones((2, 2))), resolve_device("cuda"), vector_size=2, fit="cells")
    empty = build_token_corpus([[["zz"]]], {"a": 0})
    with pytest.raises(SentembError, match="no in-vocabulary token"):
        cooccurrence_matrix(empty, 1, window=10)


def _glove_c_reference(x: sp.coo_matrix, dim, epochs, lr, grad_clip, x_max, alpha, seed):
    """glove.c's training loop, one cell at a time, written from its equations (src/glove.c, glove_thread): the
    vector step clip(fdiff·w_other)·η / √G with G += (that)², the bias step fdiff / √G_b with G_b += fdiff²."""
    init = glove_initial_parameters(x.shape[0], dim, seed)
    w, wc, b, bc = (init[k].numpy().astype(np.float64) for k in ("w", "w_ctx", "b", "b_ctx"))
    gw, gwc, gb, gbc = np.ones_like(w), np.ones_like(wc), np.ones_like(b), np.ones_like(bc)
    costs = []
    for _ in range(epochs):
        cost = 0.0
        for i, j, v in zip(x.row, x.col, x.data, strict=True):
            diff = w[i] @ wc[j] + b[i] + bc[j] - np.log(v)
            fdiff = diff if v > x_max else (v / x_max) ** alpha * diff
            cost += 0.5 * fdiff * diff
            t1 = np.clip(fdiff * wc[j], -grad_clip, grad_clip) * lr
            t2 = np.clip(fdiff * w[i], -grad_clip, grad_clip) * lr
            u1, u2 = t1 / np.sqrt(gw[i]), t2 / np.sqrt(gwc[j])
            gw[i] += t1 * t1
            gwc[j] += t2 * t2
            w[i] -= u1
            wc[j] -= u2
            b[i] -= fdiff / np.sqrt(gb[i])
            bc[j] -= fdiff / np.sqrt(gbc[j])
            gb[i] += fdiff * fdiff
            gbc[j] += fdiff * fdiff
        costs.append(cost / x.nnz)
    return w + wc, costs


@pytest.mark.parametrize("grad_clip", [100.0, 1e-3])  # glove.c's default, and one that clips every step
def test_one_cell_at_a_time_equals_glove_c(grad_clip):
    rng = np.random.default_rng(0)
    dense = rng.gamma(0.5, 40.0, size=(12, 12)) * (rng.random((12, 12)) < 0.6)
    x = sp.coo_matrix(dense)
    order = rng.permutation(x.nnz)  # a shuffled cell file, read in the same order every epoch
    x = sp.coo_matrix((x.data[order], (x.row[order], x.col[order])), shape=x.shape)
    ref, ref_costs = _glove_c_reference(x, 6, 3, 0.05, grad_clip, 10.0, 0.75, seed=3)
    kwargs = {"vector_size": 6, "epochs": 3, "lr": 0.05, "grad_clip": grad_clip, "x_max": 10.0, "seed": 3,
              "shuffle": False}
    cells, stats = fit(x, fit="cells", threads=1, **kwargs)  # the compiled loop, float64 as glove.c
    np.testing.assert_allclose(cells, ref, rtol=1e-5, atol=1e-7)  # the vectors are returned in float32
    np.testing.assert_allclose(stats["losses"], ref_costs, rtol=1e-5)
    batches, stats = fit(x, fit="batches", batch_size=1, **kwargs)  # the torch path, float32
    np.testing.assert_allclose(batches, ref, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(stats["losses"], ref_costs, rtol=1e-4)


def test_a_batch_without_repeated_rows_equals_one_cell_at_a_time():
    # cells (i, (i + s) mod V) grouped by shift s: each group of V cells has V distinct rows and V distinct columns
    v = 9
    rows = np.concatenate([np.arange(v) for _ in range(5)])
    cols = np.concatenate([(np.arange(v) + s) % v for s in range(5)])
    data = np.random.default_rng(1).uniform(1, 60, size=len(rows))
    x = sp.coo_matrix((data, (rows, cols)), shape=(v, v))
    one, _ = fit(x, vector_size=4, epochs=2, fit="batches", batch_size=1, shuffle=False, seed=2, x_max=10.0)
    batched, _ = fit(x, vector_size=4, epochs=2, fit="batches", batch_size=v, shuffle=False, seed=2, x_max=10.0)
    np.testing.assert_allclose(batched, one, rtol=1e-5, atol=1e-7)


def test_repeated_rows_see_the_accumulator_grown_by_their_earlier_cells():
    index = torch.tensor([3, 1, 3, 3, 0, 1])
    values = torch.tensor([[1.0, 10.0], [2.0, 20.0], [4.0, 40.0], [8.0, 80.0], [16.0, 160.0], [32.0, 320.0]])
    expected = torch.tensor([[0.0, 0.0], [0.0, 0.0], [1.0, 10.0], [5.0, 50.0], [0.0, 0.0], [2.0, 20.0]])
    assert torch.equal(_exclusive_cumsum_by_row(index, values), expected)
    assert torch.equal(_exclusive_cumsum_by_row(index, values[:, 0]), expected[:, 0])


def _random_corpus(seed=0, vocab=30, docs=3, sentences=40, longest=12):
    rng = np.random.default_rng(seed)
    text = [[[f"w{i}" for i in rng.integers(0, vocab, rng.integers(0, longest))] for _ in range(sentences)]
            for _ in range(docs)]
    return build_token_corpus(text, {f"w{i}": i for i in range(vocab)})


def test_counts_spilled_to_disk_equal_the_in_memory_counts_bit_for_bit(tmp_path):
    corpus = _random_corpus(vocab=60, docs=6, sentences=80)
    whole = cooccurrence_matrix(corpus, 60, window=5)
    # a budget of a few sentences: counted in dozens of chunks, the total spilled into runs, merged in row blocks and
    # dealt out to buckets of at most 150 cells
    cells = cooccurrence_cells(corpus, 60, 5, memory_bytes=40_000, block_cells=150, scratch=tmp_path, seed=1)
    assert cells.runs > 3 and cells.n_blocks > 5 and cells.n_cells == whole.nnz
    sizes = [len(cells.block(k)[0]) for k in range(cells.n_blocks)]
    assert sum(sizes) == whole.nnz and max(sizes) <= 2 * 150  # each cell's bucket is drawn: about 150, not at most
    spilled = cells.to_matrix()
    assert np.array_equal(spilled.indptr, whole.indptr) and np.array_equal(spilled.indices, whole.indices)
    assert np.array_equal(spilled.data.view(np.uint32), whole.data.view(np.uint32))  # the same bits
    assert sorted(p.name for p in tmp_path.iterdir()) == [p.name for p in cells.buckets]  # the runs are gone
    roomy = cooccurrence_cells(corpus, 60, 5, memory_bytes=10**9, block_cells=10**6, scratch=tmp_path, seed=1)
    assert roomy.runs == 0 and roomy.buckets == [] and roomy.n_blocks == 1
    assert np.array_equal(roomy.to_matrix().data, whole.data)


def _zipf_corpus(n_tokens, vocab, seed=0):
    """Word ids drawn from Zipf's law (p ∝ 1/rank) in sentences of 5-39 tokens: counts shaped like text's."""
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, vocab + 1)
    ids = rng.choice(vocab, size=n_tokens, p=p / p.sum()).astype(np.int32)
    offsets = np.concatenate([[0], np.cumsum(rng.integers(5, 40, size=n_tokens // 5))])
    offsets = offsets[offsets <= n_tokens].astype(np.int64)
    return TokenCorpus(ids[: offsets[-1]], offsets, np.zeros(len(offsets) - 1, dtype=np.int32))


def _heap_peak(run):
    """``run()`` and the most bytes NumPy and SciPy arrays held beyond those alive before it (tracemalloc sees each
    array's buffer: the anonymous memory a budget bounds; not the interpreter, the libraries or mapped files)."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        out = run()
        return out, tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_counting_and_the_fit_stay_within_their_memory_budget(tmp_path):
    vocab, dim = 4_000, 20
    corpus = _zipf_corpus(300_000, vocab)
    config = configured(GloveConfig, "pretrain.glove", threads=1, epochs=1, vector_size=dim, precision="float64")
    fixed = parameter_bytes(vocab, dim, "float64")
    budget = 8 * 2**20  # counted in chunks, spilled to runs, merged in row blocks
    (tmp_path / "a").mkdir()
    spilled, peak = _heap_peak(lambda: cooccurrence_cells(corpus, vocab, 15, memory_bytes=budget, block_cells=300_000,
                                                          scratch=tmp_path / "a", seed=1))
    assert spilled.runs > 2 and spilled.n_blocks > 2 and peak <= budget, (spilled.runs, peak / budget)
    train_glove(spilled, config, CPU)  # compiled first: the compiler's memory is the runtime's, not the budget's
    _, peak = _heap_peak(lambda: train_glove(spilled, config, CPU))
    assert peak <= fixed + 300_000 * FIT_BYTES_PER_CELL, (peak - fixed) / 300_000
    # one block in memory, exactly as large as the budget's block: its matrix counts against the budget too
    (tmp_path / "b").mkdir()
    whole = cooccurrence_cells(corpus, vocab, 15, memory_bytes=2**30, block_cells=spilled.n_cells,
                               scratch=tmp_path / "b", seed=1)
    assert whole.n_blocks == 1 and whole.runs == 0
    matrix = whole.matrix.data.nbytes + whole.matrix.indices.nbytes + whole.matrix.indptr.nbytes
    _, peak = _heap_peak(lambda: train_glove(whole, config, CPU))
    assert matrix + peak <= fixed + whole.n_cells * FIT_BYTES_PER_CELL, (matrix + peak - fixed) / whole.n_cells


def test_a_budget_below_one_sentence_is_named(tmp_path):
    with pytest.raises(SentembError, match="cannot count the longest sentence"):
        cooccurrence_cells(_random_corpus(), 30, 5, memory_bytes=100, block_cells=10, scratch=tmp_path, seed=1)


def test_the_fit_over_shuffled_blocks_recovers_a_low_rank_log_count_matrix(tmp_path):
    rng = np.random.default_rng(0)
    a, b = rng.normal(0, 0.7, (30, 4)), rng.normal(0, 0.7, (30, 4))
    coo = sp.coo_matrix(np.exp(a @ b.T + 2.5))
    draw = rng.integers(4, size=coo.nnz)  # four buckets, as cooccurrence_cells deals them
    buckets = []
    for k in range(4):
        cells = np.empty(int((draw == k).sum()), dtype=CELL)
        cells["row"], cells["col"], cells["x"] = coo.row[draw == k], coo.col[draw == k], coo.data[draw == k]
        cells.tofile(tmp_path / f"{k}.cells")
        buckets.append(tmp_path / f"{k}.cells")
    blocks = CooccurrenceCells(30, coo.nnz, buckets=buckets)
    for method, extra in (("cells", {"threads": 2}), ("cells", {"precision": "float32"}),
                          ("batches", {"batch_size": 64})):
        vectors, stats = fit(blocks, vector_size=8, epochs=60, seed=1, fit=method, **extra)
        assert stats["blocks"] == 4 and stats["cells"] == coo.nnz and vectors.dtype == np.float32
        assert stats["losses"][-1] < 0.01 * stats["losses"][0]


def test_float32_parameters_follow_glove_c_to_float32_rounding():
    rng = np.random.default_rng(0)
    x = sp.coo_matrix(rng.gamma(0.5, 40.0, size=(12, 12)) * (rng.random((12, 12)) < 0.6))
    ref, ref_costs = _glove_c_reference(x, 6, 3, 0.05, 100.0, 10.0, 0.75, seed=3)
    kwargs = {"vector_size": 6, "epochs": 3, "lr": 0.05, "x_max": 10.0, "seed": 3, "shuffle": False}
    single, stats = fit(x, fit="cells", precision="float32", **kwargs)
    np.testing.assert_allclose(single, ref, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(stats["losses"], ref_costs, rtol=1e-4)
    assert stats["device"] == "cpu (1 threads, float32)"


def test_fit_glove_spills_within_its_budget_and_leaves_no_scratch(tmp_path, monkeypatch):
    import sentemb.wordvectors.glove as glove

    corpus = _random_corpus(vocab=60, docs=6, sentences=80)
    vocab = Vocabulary([f"w{i}" for i in range(60)], np.ones(60, dtype=np.int64))
    config = configured(GloveConfig, "pretrain.glove", vector_size=8, epochs=2, threads=1, window=5)
    huge = config.model_copy(update={"memory_gib": 2.0, "vector_size": 10**6})  # 60 words × 10⁶: 2.0 GiB of float64
    with pytest.raises(SentembError, match=r"memory_gib 2\.0 cannot hold .* needs at least 2\.5. GiB \(or precision"):
        glove.fit_glove(corpus, vocab, huge, scratch=tmp_path)
    roomy = glove.fit_glove(corpus, vocab, config, progress=False, scratch=tmp_path)
    # a budget just above the parameters and 150 cells (blocks of 100,000 cells at least in real use)
    monkeypatch.setattr(glove, "MIN_BLOCK_CELLS", 10)
    tight_gib = (glove.RUNTIME_BYTES + glove.parameter_bytes(60, 8, "float64") + 150 * glove.FIT_BYTES_PER_CELL) / 2**30
    tight = glove.fit_glove(corpus, vocab, config.model_copy(update={"memory_gib": tight_gib}), progress=False,
                            scratch=tmp_path)
    assert roomy[1]["blocks"] == 1 and roomy[1]["spilled_runs"] == 0
    assert tight[1]["blocks"] > 1 and tight[1]["cells"] == roomy[1]["cells"]
    assert list(tmp_path.iterdir()) == []  # the scratch folders are gone
