"""Paraphrastic encoders (Wieting et al. 2016; Wieting & Gimpel 2017): composition functions, the margin loss with
in-batch negatives, scrambling, training with model selection, saved models, and the training pairs."""

import math
import os
import re
import subprocess
import sys
from pathlib import Path

from helpers import TEXT, composition, params_section, script_module

import numba
import numpy as np
import pytest
import torch
import torch.nn.functional as F

from sentemb.core.config import validate
from sentemb.core.data.benchmarks import evaluation_sentences, load_benchmarks, read_pit2015
from sentemb.core.data.pairs import (
    build_training_pairs,
    match_key,
    read_msrp,
    read_ppdb_lexical,
    read_turkcorpus,
    read_twitter_url,
)
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models import load_model
from sentemb.core.models.word_averaging import save_word_averaging_model
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.optim.sparse import CompiledSparseAdam
from sentemb.paraphrastic.composition import (
    COMPOSITIONS,
    GRANComposition,
    LSTMComposition,
    Packing,
    PaddedBatch,
    PeepholeLSTM,
    build_composition,
    dropout_multipliers,
    encode_ids,
    token_mean,
)
from sentemb.paraphrastic.config import ParaphrasticConfig
from sentemb.paraphrastic.gated_mean import GatedMean
from sentemb.paraphrastic.inference import CompositionForward, RowOverlay, parameter_shapes
from sentemb.paraphrastic.model import save_paraphrastic_model
from sentemb.paraphrastic.peephole import PackedPeepholeLSTM, _cell_backward
from sentemb.paraphrastic.peephole_cpu import cell_backward
from sentemb.paraphrastic.training import (
    IdPairs,
    margin_loss,
    negative_indices,
    scramble,
    sts_selector,
    train_paraphrastic,
)

# every member of the family, as (encoder, arguments)
FAMILY = {
    "AVG": ("avg", {}),
    "PROJ": ("proj", {}),
    "DAN": ("dan", {"layers": 2}),
    "RNN": ("rnn", {"activation": "tanh"}),
    "iRNN": ("rnn", {"activation": "identity"}),
    "LSTM": ("lstm", {}),
    "LSTM-no-o": ("lstm", {"output_gate": False}),
    "LSTMAVG": ("lstmavg", {}),
    "BiLSTMAVG": ("lstmavg", {"bidirectional": True, "combine": "tanh"}),
    "GRAN": ("gran", {}),
    "GRAN-2": ("gran", {"variant": 2}),
    "GRAN-3": ("gran", {"variant": 3}),
    "GRAN-4": ("gran", {"variant": 4}),
    "GRAN-5": ("gran", {"variant": 5}),
    "BiGRAN": ("gran", {"bidirectional": True}),
}
SENTENCES = [[3, 1, 4, 1, 5], [9, 2], [6, 5, 3, 5, 8, 9, 7], [2]]


def _vectors(v: int = 12, d: int = 8, seed: int = 0) -> torch.Tensor:
    return torch.randn(v, d, generator=torch.Generator().manual_seed(seed))


def build(encoder: str, vectors, sparse: bool = False, **args):
    """An encoder with params.yaml's arguments for it, no dropout, changed by ``args``."""
    return build_composition(composition(encoder, **args), vectors, sparse=sparse)


# the toy runs' training settings: the papers' margin and MAX negatives, no regularisation, Adam at 1e-3 on the CPU
TOY = {"margin": 0.4, "negatives": "max", "batch_size": 100, "epochs": 10, "optimizer": "adam", "lr": 0.001,
       "lambda_w": 0.0, "lambda_c": 0.0, "scramble": 0.0, "grad_clip": None, "sparse_embeddings": True,
       "evals_per_epoch": 4, "seed": 1, "device": "cpu", "products": "float32"}


def training(encoder: str = "avg", **overrides) -> ParaphrasticConfig:
    """A paraphrastic config of ``encoder`` (params.yaml's model of it, the toy settings), changed by ``overrides``."""
    model = {"avg": "para-avg", "gran": "para-gran", "lstmavg": "para-lstmavg", "lstm": "para-lstm"}[encoder]
    return ParaphrasticConfig.model_validate(params_section(f"paraphrastic.{model}") | TOY | overrides)


@pytest.mark.parametrize("member", FAMILY)
def test_encoder_shape_and_padding_invariance(member):
    name, args = FAMILY[member]
    torch.manual_seed(0)
    enc = build(name, _vectors(), **args).eval()
    out = enc(PaddedBatch.from_lists(SENTENCES))
    assert out.shape == (4, 8) and out.dtype == torch.float32 and torch.isfinite(out).all()
    # extra padding columns, with junk ids, change nothing
    batch = PaddedBatch.from_lists(SENTENCES)
    padded = torch.cat([batch.ids, torch.full((4, 5), 7)], dim=1)
    padded[torch.arange(padded.shape[1])[None, :] >= batch.lengths[:, None]] = 11
    torch.testing.assert_close(enc(PaddedBatch(padded, batch.lengths)), out, rtol=0, atol=1e-6)
    # a sentence alone encodes as it does in a batch with longer ones
    torch.testing.assert_close(enc(PaddedBatch.from_lists([SENTENCES[1]]))[0], out[1], rtol=0, atol=1e-6)
    # an empty sentence is the zero vector
    assert enc(PaddedBatch.from_lists([[], [1, 2]]))[0].abs().sum() == 0


@pytest.mark.parametrize("member", [*FAMILY, "BiLSTM-sum", "BiGRAN-4-tanh-no-o", "DAN-1"])
def test_numpy_forward_is_the_torch_encoder(member):
    # a saved model encodes with the NumPy forward pass (no torch import): the same embeddings as the torch module in
    # evaluation mode, on every parameter drawn at random (peepholes and biases too), with sentences of every length,
    # an empty one and repeats, across batches
    name, args = {"BiLSTM-sum": ("lstm", {"bidirectional": True, "combine": "sum"}),
                  "BiGRAN-4-tanh-no-o": ("gran", {"bidirectional": True, "combine": "tanh", "output_gate": False,
                                                  "variant": 4}),
                  "DAN-1": ("dan", {"layers": 1})}.get(member) or FAMILY[member]
    spec = composition(name, **args)
    torch.manual_seed(0)
    enc = build_composition(spec, _vectors(v=30, d=8), sparse=False).eval()
    with torch.no_grad():
        for p in enc.parameters():
            p.normal_(0, 0.35)
    parameters = {k: v.numpy().copy() for k, v in enc.state_dict().items()}
    assert {k: v.shape for k, v in parameters.items()} == parameter_shapes(spec, 30, 8)
    rng = np.random.default_rng(1)
    sentences = [rng.integers(0, 30, n) for n in (3, 1, 9, 0, 5, 2, 9, 4, 7, 1, 6, 8)]
    sentences += [sentences[2], np.empty(0, dtype=np.int64), sentences[0]]
    expected = encode_ids(enc, sentences, batch_size=4)
    got = CompositionForward(spec, parameters).encode(sentences, batch_size=4)
    assert got.dtype == np.float32 and got.shape == (len(sentences), 8)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=2e-6)
    assert not got[3].any() and got[2].any()


def test_word_sum_is_the_padded_sum_to_the_bit():
    # the averaging encoders sum each sentence's word vectors position by position over the sentences still going,
    # without the zero-padded (B, T, dim) block: the same float32 additions in the same order as that block's sum over
    # T, so the same bits, over a row overlay (a saved model's trained rows on its base) and with empty sentences
    rng = np.random.default_rng(3)
    base = (rng.standard_normal((50, 16)) * rng.choice([1e-3, 1.0, 1e3], (50, 1))).astype(np.float32)
    rows = np.array([2, 7, 11, 40])
    overlay = RowOverlay(base, rows, rng.standard_normal((4, 16)).astype(np.float32))
    lengths = np.array([23, 17, 17, 9, 4, 1, 0, 0])  # longest first, as a batch is
    ids = np.zeros((len(lengths), lengths[0]), dtype=np.int64)
    for row, n in enumerate(lengths):
        ids[row, :n] = rng.integers(0, 50, n)
    active = [int((lengths > t).sum()) for t in range(lengths[0])]
    mask = (np.arange(lengths[0])[None, :] < lengths[:, None])[..., None]
    padded = np.where(mask, overlay[ids], np.float32(0)).sum(axis=1)
    got = CompositionForward(composition("avg"), {"embedding.weight": overlay}).word_sum(ids, active)
    assert got.dtype == np.float32 and got.tobytes() == padded.tobytes()
    assert not got[6:].any() and got[:6].all()


@pytest.mark.parametrize("output_gate", [True, False])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_packed_recurrence_is_the_padded_loop(output_gate, dtype):
    # the packed LSTM (each step over the sentences still going, its backward pass written out in
    # PackedPeepholeLSTM) computes what autograd of the cell in a loop over every row and all T steps computes at the
    # real positions, forwards and backwards; padding positions and empty rows get zeros
    torch.manual_seed(0)
    lstm = PeepholeLSTM(8, 6, output_gate).to(dtype)
    with torch.no_grad():
        lstm.peephole.normal_()
    lengths = torch.tensor([7, 3, 0, 5, 1, 3, 7, 2])
    mask = (torch.arange(7)[None, :] < lengths[:, None])[..., None]
    x = (torch.randn(8, 7, 8, dtype=dtype) * mask).requires_grad_()
    padded, packed = lstm(x) * mask, lstm(x, lengths)
    tol = 1e-6 if dtype == torch.float32 else 1e-13
    torch.testing.assert_close(packed, padded, rtol=0, atol=tol)
    assert packed[~mask.expand_as(packed)].abs().max() == 0
    weights = torch.randn(8, 7, 6, dtype=dtype)
    grads = [torch.autograd.grad((out * weights).sum(), [x, *lstm.parameters()]) for out in (padded, packed)]
    for a, b in zip(*grads, strict=True):
        torch.testing.assert_close(b, a, rtol=0, atol=10 * tol)


@pytest.mark.parametrize("output_gate", [True, False])
def test_packed_peephole_lstm_gradient_is_the_numerical_one(output_gate):
    # the written-out backward pass against finite differences (float64), for every input that takes a gradient
    gen = torch.Generator().manual_seed(1)
    gates, hidden, sizes = (4 if output_gate else 3), 3, [4, 3, 3, 1]
    inputs = [torch.randn(*shape, dtype=torch.float64, generator=gen, requires_grad=True) for shape in (
        (sum(sizes), 2), (gates * hidden, 2), (gates * hidden,), (gates * hidden, hidden), (gates - 1, hidden))]
    assert torch.autograd.gradcheck(
        lambda x, w_x, b, w_h, peephole: PackedPeepholeLSTM.apply(x, sizes, w_x, b, w_h, peephole, output_gate),
        inputs)


@pytest.mark.parametrize("output_gate", [True, False])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_compiled_backward_step_is_the_torch_step(output_gate, dtype):
    # the CPU kernel of a backward step (peephole_cpu) against the torch operations a GPU runs (peephole's
    # _cell_backward), on the same saved values, at a middle step and at the first (c_0 = 0: dz_f = 0);
    # rows are split between threads, so 1 and 2 threads write the same bytes
    gen = torch.Generator().manual_seed(2)
    gates_n, hidden, n_rows, n = (4 if output_gate else 3), 5, 12, 4
    rand = lambda *shape: torch.rand(*shape, generator=gen, dtype=dtype)  # noqa: E731
    saved = [rand(n_rows, gates_n * hidden), rand(n_rows, hidden) * 2 - 1, torch.randn(n_rows, hidden, generator=gen,
             dtype=dtype), torch.randn(n_rows, hidden, generator=gen, dtype=dtype)]  # gates, tanh c, c, dL/dh
    peephole = torch.randn(gates_n - 1, hidden, generator=gen, dtype=dtype)
    for start, previous in ((7, 3), (0, -1)):
        results, grad_h0, grad_c0 = [], rand(6, hidden), rand(6, hidden)
        for run in ("torch", 1, 2):
            grad_h, grad_c = grad_h0.clone(), grad_c0.clone()
            grad_z = torch.full((n_rows, gates_n * hidden), 7.0, dtype=dtype)
            tensors = [*saved, grad_h, grad_c, grad_z, peephole]
            if run == "torch":
                _cell_backward(*tensors, start, previous, n, output_gate)
            else:
                numba.set_num_threads(min(run, numba.config.NUMBA_NUM_THREADS))
                cell_backward(*[x.numpy() for x in tensors], start, previous, n, output_gate, threads=run)
            results.append((grad_z, grad_c))
        assert (results[0][0][start + n:] == 7).all() and (results[0][0][:start] == 7).all()  # other rows untouched
        tol = 1e-6 if dtype == torch.float32 else 1e-14
        for grad_z, grad_c in results[1:]:
            torch.testing.assert_close(grad_z, results[0][0], rtol=0, atol=tol)
            if previous >= 0:  # dc_{t−1} (at the first step grad_c is left as scratch)
                torch.testing.assert_close(grad_c, results[0][1], rtol=0, atol=tol)
        assert torch.equal(results[1][0], results[2][0]) and torch.equal(results[1][1], results[2][1])
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_compiled_sparse_adam_is_torchs_to_the_bit(dtype):
    # CompiledSparseAdam against torch.optim.SparseAdam over 30 steps of an embedding's sparse gradients (repeated
    # ids, so the gradient is coalesced first; rows a step does not touch keep their moments): the same weights and
    # moments to the bit, on one thread and on two
    gen = torch.Generator().manual_seed(3)
    start = torch.randn(80, 300, generator=gen, dtype=dtype)  # 300 columns: torch's vectorised kernels run
    batches = [(torch.randint(0, 80, (60,), generator=gen), torch.randn(60, 300, generator=gen, dtype=dtype))
               for _ in range(30)]
    runs, before = [], torch.get_num_threads()
    for optimiser, threads in ((torch.optim.SparseAdam, 1), (CompiledSparseAdam, 1), (CompiledSparseAdam, 2)):
        torch.set_num_threads(threads)
        emb = torch.nn.Embedding.from_pretrained(start.clone(), freeze=False, sparse=True)
        opt = optimiser(emb.parameters(), lr=0.01)
        for ids, weights in batches:
            opt.zero_grad(set_to_none=True)
            (emb(ids) * weights).sum().backward()
            opt.step()
        state = opt.state[emb.weight]
        runs.append((emb.weight.detach(), state["exp_avg"], state["exp_avg_sq"], state["step"]))
    torch.set_num_threads(before)
    assert not torch.equal(runs[0][0], start)
    for run in runs[1:]:
        assert run[3] == runs[0][3] == 30
        for a, b in zip(run[:3], runs[0][:3], strict=True):
            assert torch.equal(a, b)


def test_compiled_sparse_adam_refuses_a_dense_gradient():
    w = torch.nn.Parameter(torch.randn(4, 3))
    w.grad = torch.ones(4, 3)
    with pytest.raises(RuntimeError, match="dense gradients"):
        CompiledSparseAdam([w]).step()


def test_gated_mean_is_the_autograd_pooling_to_the_bit():
    # GRAN's pooling (GatedMean: torch's sigmoid, then one compiled pass each way on the CPU) against the autograd
    # operations it replaces (sigmoid, product, index_add, division), on a packed batch with an empty sentence: the
    # same embeddings and the same gradients of x and z to the bit, on one thread and on two
    gen = torch.Generator().manual_seed(4)
    lengths = torch.tensor([5, 0, 3, 7, 1, 3])
    packing = Packing(lengths)
    x, z = (torch.randn(int(lengths.sum()), 6, generator=gen, requires_grad=True) for _ in range(2))
    weights = torch.randn(len(lengths), 6, generator=gen)
    gate = torch.sigmoid(z)
    total = (x * gate).new_zeros(len(lengths), 6).index_add(0, packing.sentence, x * gate)
    reference = total / lengths.clamp(min=1)[:, None].to(x.dtype)
    expected = [reference, *torch.autograd.grad((reference * weights).sum(), [x, z])]
    before = torch.get_num_threads()
    for threads in (1, 2):
        torch.set_num_threads(threads)
        out = GatedMean.apply(x, z, packing)
        got = [out, *torch.autograd.grad((out * weights).sum(), [x, z])]
        for a, b in zip(got, expected, strict=True):
            assert torch.equal(a, b)
    torch.set_num_threads(before)
    assert out[1].abs().sum() == 0 and out[0].abs().sum() > 0


def test_cpu_backward_keeps_torch_threads():
    # numba's OpenMP layer sets the process's OpenMP thread count to its pool's size (the cores by default) when its
    # first parallel loop starts; the backward pass puts torch's back, or a lane given fewer threads than the cores
    # would run torch on all of them (a fresh process: the layer starts once a process; 2 torch threads, so that the
    # parallel loop runs, and a pool of 4)
    code = ("import torch; from sentemb.paraphrastic.peephole import PackedPeepholeLSTM as L\n"
            "x, w_x, w_h = (torch.randn(*s, requires_grad=True) for s in ((6, 4), (12, 4), (12, 3)))\n"
            "L.apply(x, [3, 2, 1], w_x, torch.zeros(12), w_h, torch.zeros(2, 3), False).sum().backward()\n"
            "print(torch.get_num_threads())")
    env = os.environ | {"OMP_NUM_THREADS": "2", "NUMBA_NUM_THREADS": "4"}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert res.stdout.split() == ["2"]


def test_gran_with_open_gate_is_avg():
    vectors = _vectors()
    gran = build_composition(composition("gran"), vectors, sparse=False).eval()
    with torch.no_grad():
        for lin in (gran.gate_x, gran.gate_h):
            lin.weight.zero_()
        gran.gate_x.bias.fill_(50.0)  # σ(50) = 1 in float32
    avg = build("avg", vectors).eval()
    batch = PaddedBatch.from_lists(SENTENCES)
    torch.testing.assert_close(gran(batch), avg(batch))
    expected = vectors[torch.tensor(SENTENCES[0])].mean(0)
    torch.testing.assert_close(avg(batch)[0], expected)


def test_token_mean_is_the_padded_mean():
    """AVG, PROJ and DAN average the real tokens with one index_add, never building the padded layout: the same mean
    as summing the masked padded rows (to float rounding; the gradient to the bit), zero for an empty sentence."""
    g = torch.Generator().manual_seed(0)
    lengths = torch.tensor([3, 0, 7, 1, 12, 5])
    x = torch.randn(int(lengths.sum()), 8, generator=g, dtype=torch.float64, requires_grad=True)
    mask = torch.arange(int(lengths.max()))[None, :] < lengths[:, None]
    padded = x.new_zeros(*mask.shape, 8).index_put((mask,), x)
    reference = padded.sum(1) / lengths.clamp(min=1)[:, None]
    ours = token_mean(x, lengths)
    torch.testing.assert_close(ours, reference, rtol=0, atol=1e-14)
    assert torch.equal(ours[1], torch.zeros(8, dtype=torch.float64))
    w = torch.randn(6, 8, generator=g, dtype=torch.float64)
    (grad_ours,) = torch.autograd.grad((ours * w).sum(), x)
    (grad_reference,) = torch.autograd.grad((reference * w).sum(), x)
    assert torch.equal(grad_ours, grad_reference)


def _padded_reference(enc, batch: PaddedBatch) -> torch.Tensor:
    """What a recurrent encoder computes, written plainly: every row through all T steps of the LSTM's cell under
    autograd (PeepholeLSTM without lengths), the backward LSTM over each sentence reversed, then the pooling."""
    mask = batch.mask
    x = enc.embedding(batch.ids) * mask[..., None]
    h = enc.lstm(x) * mask[..., None]
    n = batch.lengths.clamp(min=1)[:, None].to(x.dtype)
    if enc.bidirectional:
        reversed_ids = [batch.ids[b, :k].flip(0).tolist() for b, k in enumerate(batch.lengths.tolist())]
        rev = PaddedBatch.from_lists(reversed_ids)
        hb_rev = enc.backward_lstm(enc.embedding(rev.ids) * rev.mask[..., None])
        hb = torch.stack([torch.cat([hb_rev[b, :k].flip(0), hb_rev[b, k:]]) for b, k in
                          enumerate(batch.lengths.tolist())]) * mask[..., None]
        h = h + hb if enc.combine == "sum" else torch.tanh(enc.combine_layer(torch.cat([h, hb], dim=2)))
    last = h[torch.arange(len(h)), (batch.lengths - 1).clamp(min=0)]
    if isinstance(enc, LSTMComposition):
        return last
    if not isinstance(enc, GRANComposition):
        return (h * mask[..., None]).sum(1) / n
    z = enc.gate_x(x) + enc.gate_h(h)
    if enc.variant in (1, 2, 5):
        gate = torch.sigmoid(z)
        a = {1: x * gate, 2: h * gate}.get(enc.variant) if enc.variant != 5 else (
            x * gate[..., :enc.dim] + h * gate[..., enc.dim:])
        return (a * mask[..., None]).sum(1) / n
    a, states = x.new_zeros(len(x), enc.dim), []
    for t in range(x.shape[1]):
        g = torch.sigmoid(z[:, t] + (enc.gate_a(a) if enc.variant == 4 else 0))
        a = x[:, t] * g[:, :enc.dim] + a * g[:, enc.dim:]
        states.append(a)
    return torch.stack(states, 1)[torch.arange(len(x)), (batch.lengths - 1).clamp(min=0)] / n


@pytest.mark.parametrize("member", [m for m in FAMILY if FAMILY[m][0] in ("lstm", "lstmavg", "gran")]
                         + ["BiLSTMAVG-sum", "BiGRAN-tanh", "BiLSTM"])
def test_recurrent_encoders_are_the_padded_reference(member):
    # the packed path (tokens never padded, the written-out LSTM backward pass) against the plain padded
    # computation under autograd, in float64: the embeddings and the gradient of every parameter
    name, args = FAMILY.get(member) or {"BiLSTMAVG-sum": ("lstmavg", {"bidirectional": True, "combine": "sum"}),
                                        "BiGRAN-tanh": ("gran", {"bidirectional": True, "combine": "tanh"}),
                                        "BiLSTM": ("lstm", {"bidirectional": True})}[member]
    torch.manual_seed(0)
    enc = build(name, _vectors(), **args).double().eval()
    with torch.no_grad():
        for module in [enc.lstm] + ([enc.backward_lstm] if enc.bidirectional else []):
            module.peephole.normal_()
    batch = PaddedBatch.from_lists([*SENTENCES, [], [7, 7, 1]])
    weights = torch.randn(len(batch), 8, dtype=torch.float64)
    outs = [enc(batch), _padded_reference(enc, batch) * (batch.lengths > 0)[:, None]]
    torch.testing.assert_close(outs[0], outs[1], rtol=0, atol=1e-13)
    grads = [torch.autograd.grad((out * weights).sum(), list(enc.parameters())) for out in outs]
    for (pname, _), a, b in zip(enc.named_parameters(), *grads, strict=True):
        torch.testing.assert_close(a, b, rtol=0, atol=1e-12, msg=lambda m, pname=pname: f"{pname}: {m}")


def test_packing_rows():
    # lengths 3, 0, 1, 2: tokens 0-2, (none), 3, 4-5 in reading order; packed longest first, step by step
    p = Packing(torch.tensor([3, 0, 1, 2]))
    assert p.sizes == [3, 2, 1]
    assert p.index.tolist() == [0, 4, 3, 1, 5, 2] and p.sentence.tolist() == [0, 3, 2, 0, 3, 0]
    assert p.last.tolist() == [5, 0, 2, 4] and p.step.tolist() == [0, 0, 0, 1, 1, 2]
    assert p.reverse_to_forward.tolist() == [5, 4, 2, 3, 1, 0]
    assert Packing(torch.tensor([0, 0])).sizes == []


def test_encoder_errors():
    """A bad encoder section is one line naming the key: an unknown encoder, a variant out of range, an argument its
    encoder reads and the section does not set, a rate out of range."""
    section = params_section("paraphrastic.para-gran")
    cases = [({"encoder": "transformer"}, "paraphrastic.x.encoder: Input should be 'avg', 'proj'"),
             ({"variant": 6}, "paraphrastic.x.variant: Input should be less than or equal to 5 (got 6)"),
             ({"encoder": "dan"}, "paraphrastic.x: Value error, encoder 'dan' reads layers, which the section does "
                                  "not set"),
             ({"dropout": 1.0}, "paraphrastic.x.dropout: Input should be less than 1 (got 1.0)"),
             ({"products": "bfloat16", "encoder": "avg"}, "only the recurrent encoders")]
    for change, message in cases:
        with pytest.raises(SentembError, match=re.escape(message)):
            validate(ParaphrasticConfig, section | change, "params.yaml", "paraphrastic.x")
    with pytest.raises(SentembError, match="dropout must be in"):
        GRANComposition(_vectors(), dropout=1.0, word_dropout=0.0, sparse=False, **composition("gran").arguments())
    assert set(COMPOSITIONS) == {"avg", "proj", "dan", "rnn", "lstm", "lstmavg", "gran"}


def test_max_negatives_and_margin_loss_by_hand():
    # 3 pairs in 2-d; candidates in the order [s1_0, s1_1, s1_2, s2_0, s2_1, s2_2]
    g1 = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    g2 = torch.tensor([[1.0, 0.1], [-1.0, 1.0], [0.9, 1.0]])
    t1, t2 = negative_indices(g1, g2, "max")
    # By hand (cosines): s1_0 = (1,0) → s1_1 0, s1_2 .707, s2_1 -.707, s2_2 .669: s1_2, never itself (1) nor its
    # partner s2_0 (.995). s1_1 = (0,1) → s1_0 0, s1_2 .707, s2_0 .100, s2_2 .743: s2_2. s1_2 = (1,1) → s1_0 .707,
    # s1_1 .707, s2_0 .774, s2_1 0: s2_0. s2_0 → s1_1 .100, s1_2 .774, s2_1 -.633, s2_2 .740: s1_2.
    # s2_1 = (-1,1) → s1_0 -.707, s1_2 0, s2_0 -.633, s2_2 .053: s2_2. s2_2 → s1_0 .669, s1_1 .743, s2_0 .740: s1_1.
    assert t1.tolist() == [2, 5, 3] and t2.tolist() == [2, 5, 1]
    cand = F.normalize(torch.cat([g1, g2]), dim=1)
    for i in range(3):
        sims = cand[i] @ cand.T
        sims[[i, i + 3]] = -2
        assert t1[i] == sims.argmax()
        sims2 = cand[i + 3] @ cand.T
        sims2[[i, i + 3]] = -2
        assert t2[i] == sims2.argmax()
        assert t1[i] not in (i, i + 3) and t2[i] not in (i, i + 3)
    all_ = torch.cat([g1, g2])
    loss = margin_loss(g1, g2, all_[t1], all_[t2], margin=0.4)

    def cos(a, b):
        return float(a @ b / (a.norm() * b.norm()))

    expected = 0.0
    for i in range(3):
        pos = cos(g1[i], g2[i])
        expected += max(0, 0.4 - pos + cos(g1[i], all_[t1[i]])) + max(0, 0.4 - pos + cos(g2[i], all_[t2[i]]))
    assert loss.item() == pytest.approx(expected / 3, abs=1e-6)
    # by hand for pair 0: pos = cos((1,0),(1,.1)) = .99504; t1 = (1,1): .70711; hinge 0.4 - .99504 + .70711 = .11207
    assert max(0, 0.4 - cos(g1[0], g2[0]) + cos(g1[0], all_[2])) == pytest.approx(0.11207, abs=1e-4)


def test_negatives_skip_same_text_and_random_modes():
    g1 = torch.tensor([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    g2 = torch.tensor([[0.0, 1.0], [0.5, 0.5], [1.0, 1.0]])
    keys = np.array([7, 7, 8, 9, 10, 11])  # s1_0 and s1_1 are the same sentence
    t1, _ = negative_indices(g1, g2, "max", keys)
    assert t1[0].item() not in (0, 1, 3) and t1[1].item() not in (0, 1, 4)
    gen = torch.Generator().manual_seed(0)
    for mode in ("rand", "mix"):
        for _ in range(20):
            a, b = negative_indices(g1, g2, mode, keys, gen)
            for i in range(3):
                assert a[i] not in (i, i + 3) and b[i] not in (i, i + 3)
    with pytest.raises(SentembError, match="unknown mode 'best'"):
        negative_indices(g1, g2, "best")


def test_dropout_and_negative_draws_are_made_on_the_cpu_whatever_the_device():
    """A GPU run draws the numbers a CPU run draws: dropout's multipliers and MIX's and RAND's uniforms come from CPU
    generators and are copied to the model's device. The "meta" device stands in for a GPU (it has no generator of
    its own): a draw made on the device would leave the CPU generators where they were."""
    states, masks, picks = [], [], []
    for device in ("cpu", "meta"):
        torch.manual_seed(0)
        like = torch.empty(0, device=device)
        m = dropout_multipliers(7, 5, 0.3, like)
        assert m.device.type == device and m.shape == (7, 5) and m.dtype == torch.float32
        masks.append(m)
        states.append(torch.get_rng_state())
        gen = torch.Generator().manual_seed(1)
        g1, g2 = torch.ones(4, 3, device=device), torch.ones(4, 3, device=device)
        t1, t2 = negative_indices(g1, g2, "mix", np.arange(8), gen)
        assert t1.device.type == device and t2.shape == (4,)
        picks.append(gen.get_state())
    assert torch.equal(states[0], states[1]) and not torch.equal(states[0], torch.manual_seed(0).get_state())
    assert torch.equal(picks[0], picks[1]) and not torch.equal(picks[0], torch.Generator().manual_seed(1).get_state())
    # the CPU's multipliers: torch's first 35 uniforms from seed 0, kept when ≥ 0.3, scaled by 1/0.7 (on the CPU)
    torch.manual_seed(0)
    expected = (torch.rand(7, 5) >= 0.3).float() / 0.7
    assert torch.equal(masks[0], expected) and set(masks[0].unique().tolist()) <= {0.0, expected.max().item()}


def test_scrambling_keeps_the_multiset_and_scrambles_both():
    rng = np.random.default_rng(0)
    pairs = [(np.arange(10), np.arange(10, 22)) for _ in range(50)]
    out = scramble(pairs, 1.0, rng)
    for (a, b), (sa, sb) in zip(pairs, out, strict=True):
        assert sorted(sa.tolist()) == a.tolist() and sorted(sb.tolist()) == b.tolist()
    assert sum((sa != a).any() and (sb != b).any() for (a, b), (sa, sb) in zip(pairs, out, strict=True)) == 50
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(pairs, scramble(pairs, 0.0, rng), strict=True))


def _toy_pairs(n: int = 200, seed: int = 0):
    """Words 0-19 come in synonym pairs (2k, 2k+1); a pair's second sentence swaps each word for its synonym."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        s = rng.integers(0, 20, size=rng.integers(2, 6))
        out.append((s, s ^ 1))
    return out


def test_sts_selector_encodes_each_distinct_sentence_once():
    """The selector's scores are each set scored on its own (scipy's Pearson r of the cosines), though a sentence
    shared by two sets, or repeated in one, is encoded once."""
    from scipy.stats import pearsonr

    torch.manual_seed(0)
    enc = build("lstmavg", _vectors(20, 8))
    rng = np.random.default_rng(1)
    pool = [rng.integers(0, 20, size=rng.integers(1, 7)) for _ in range(15)]
    sets = [IdPairs(f"toy.{k}", [pool[i].copy() for i in rng.integers(0, 15, 12)],
                    [pool[i].copy() for i in rng.integers(0, 15, 12)], rng.random(12)) for k in range(3)]
    seen = []
    enc.register_forward_pre_hook(lambda module, args: seen.append(len(args[0].lengths)))
    scores = sts_selector(sets, {"first": ["toy.0"], "all": ["toy.0", "toy.1", "toy.2"]})(enc)
    distinct = {x.tobytes() for s in sets for x in s.sentences1 + s.sentences2}
    assert sum(seen) == len(distinct) < 3 * 24
    r = []
    for s in sets:
        emb = encode_ids(enc, s.sentences1 + s.sentences2)
        r.append(100 * pearsonr(F.cosine_similarity(torch.from_numpy(emb[:12]), torch.from_numpy(emb[12:])),
                                s.gold).statistic)
    assert scores["first"] == pytest.approx(r[0], abs=1e-4)
    assert scores["all"] == pytest.approx(np.mean(r), abs=1e-4)


@pytest.mark.parametrize("sparse", [True, False])
def test_training_learns_synonyms_and_keeps_the_best_checkpoint(tmp_path, sparse):
    torch.manual_seed(0)
    enc = build("gran", _vectors(20, 8), dropout=0.1, sparse=sparse)
    words = enc.embedding.weight.detach()
    before = F.cosine_similarity(words[0::2], words[1::2]).mean().item()
    ids = [np.array([2 * k]) for k in range(10)]
    syn = IdPairs("toy.synonyms", ids, [i ^ 1 for i in ids], np.linspace(0, 1, 10))

    def select(e):  # the synonyms' similarity, under the name the checkpoint is selected by
        w = e.embedding.weight.detach()
        return {"STS16": F.cosine_similarity(w[0::2], w[1::2]).mean().item() * 100,
                **sts_selector([syn], {"toy": ["toy.synonyms"]})(e)}

    cfg = training("gran", epochs=3, batch_size=20, lr=0.05, lambda_w=1e-4, scramble=0.5, evals_per_epoch=2,
                   grad_clip=5.0, sparse_embeddings=sparse)
    stats = train_paraphrastic(enc, _toy_pairs(), cfg, select, log_path=tmp_path / "log.csv")
    rows = (tmp_path / "log.csv").read_text().splitlines()
    assert rows[0] == "step,epoch,pairs_seen,loss,STS16,toy" and len(rows) == 1 + 6
    assert stats["checkpoints"] == 6 and stats["selected"]["STS16"] == max(float(r.split(",")[4]) for r in rows[1:])
    after = F.cosine_similarity(enc.embedding.weight[0::2], enc.embedding.weight[1::2]).mean().item()
    assert after > before + 0.3
    assert after * 100 == pytest.approx(stats["selected"]["STS16"], abs=1e-3)  # the selected state is loaded


def test_a_diverging_run_stops_in_one_line_naming_the_step(tmp_path):
    """A learning rate far too high: training stops at the step whose loss is no longer finite, writing no log."""
    torch.manual_seed(0)
    cfg = training("gran", epochs=2, batch_size=20, lr=1e30)
    with pytest.raises(SentembError, match=r"^paraphrastic training: training diverged: mean loss nan at step \d+ "
                                           r"\(lower the learning rate or set grad_clip\)$"):
        train_paraphrastic(build("gran", _vectors(20, 8), sparse=True), _toy_pairs(), cfg, lambda e: {"STS16": 0.0},
                           log_path=tmp_path / "log.csv")
    assert not (tmp_path / "log.csv").exists()


@pytest.mark.parametrize("encoder, args", [("gran", {}), ("gran", {"variant": 4}), ("lstmavg", {})],
                         ids=["gran", "gran-4", "lstmavg"])
def test_bfloat16_products_stay_close_to_float32_and_only_in_training(encoder, args):
    """products: bfloat16 rounds the recurrence's and GRAN's gate products to bfloat16 in training mode only: the
    embeddings and every gradient within bfloat16's rounding of the float32 ones (and not equal: the option acts);
    in eval mode the float32 encoder's outputs to the bit; after training, or a training that raised, the encoder is
    float32 again."""
    batch = PaddedBatch.from_lists([[1, 2, 3, 4, 5, 6, 7], [8, 9], [], [3, 3, 10, 11, 1]])
    weights = torch.randn(4, 32, generator=torch.Generator().manual_seed(3))
    results = {}
    for products in (None, torch.bfloat16):
        torch.manual_seed(0)
        enc = build(encoder, _vectors(12, 32), **args)
        enc.set_training_products(products)
        out = enc(batch)
        grads = torch.autograd.grad((out * weights).sum(), list(enc.parameters()))
        results[products] = (out, grads, enc.eval()(batch))
    (out32, grads32, eval32), (out16, grads16, eval16) = results[None], results[torch.bfloat16]
    assert torch.equal(eval16, eval32)
    assert 0 < (out16 - out32).abs().max() < 2e-2 * out32.abs().max()
    for g32, g16 in zip(grads32, grads16, strict=True):
        g32, g16 = (g.to_dense() if g.is_sparse else g for g in (g32, g16))
        assert (g16 - g32).norm() <= 2e-2 * g32.norm()
    assert any(not torch.equal(a.to_dense(), b.to_dense()) for a, b in zip(grads32, grads16, strict=True))
    # the training loop sets and clears it; the encoders without a recurrence written for it refuse it
    enc = build(encoder, _vectors(20, 8), sparse=True, **args)
    bfloat16 = training(encoder, epochs=1, batch_size=10, products="bfloat16", **args)
    train_paraphrastic(enc, _toy_pairs(), bfloat16, lambda e: {"STS16": 0.0})
    assert enc.lstm.products is None
    seen = []

    def failing_select(e):  # a selection that fails mid-training, after recording the setting in force
        seen.append(e.lstm.products)
        raise RuntimeError("selection failed")

    with pytest.raises(RuntimeError, match="selection failed"):
        train_paraphrastic(enc, _toy_pairs(), bfloat16, failing_select)
    assert seen == [torch.bfloat16] and enc.lstm.products is None  # float32 again, though training raised
    with pytest.raises(SentembError, match=r"products in torch\.bfloat16 are implemented for the recurrent encoders"):
        build("avg", _vectors()).set_training_products(torch.bfloat16)
    with pytest.raises(SentembError, match=r"paraphrastic.x.products: Input should be 'float32' or 'bfloat16'"):
        validate(ParaphrasticConfig, params_section("paraphrastic.para-gran") | {"products": "float16"}, "params.yaml",
                 "paraphrastic.x")


def test_speed_benchmark_times_the_products_by_their_operator_names():
    """``benchmarks/paraphrastic_speed.py --profile`` finds the matrix products among torch.profiler's operators by
    name (``PRODUCT_OPS``): a GRAN step spends time in them, and not all of it (a torch that renamed them would read
    no products, or a renamed profiler API would fail here rather than in a benchmark run)."""
    bench = script_module("benchmarks/paraphrastic_speed.py")
    enc = build("gran", _vectors(20, 8), sparse=True)
    speed, products, total = bench.profile_products(enc, _toy_pairs(), training("gran", epochs=1, batch_size=10))
    assert speed > 0 and 0 < products < total


def test_config_errors():
    with pytest.raises(SentembError, match="no training pairs"):
        train_paraphrastic(build("avg", _vectors()), [], training(), lambda e: {})
    with pytest.raises(SentembError, match="sparse_embeddings is True but the encoder's embedding has sparse=False"):
        train_paraphrastic(build("avg", _vectors()), _toy_pairs(2), training(), lambda e: {})


def test_saved_model_round_trip(tmp_path):
    vocab = Vocabulary(["the", "cat", "sat", "mat", "dog"], np.array([5, 4, 3, 2, 1]))
    base = _vectors(5, 8).numpy()
    text = TEXT
    save_word_averaging_model(tmp_path / "base", "base", WordVectors(vocab, base), text, info={})
    trained_words = ["cat", "the", "sat"]
    torch.manual_seed(0)
    spec = composition("lstmavg", bidirectional=True)
    enc = build_composition(spec, base[[1, 0, 2]], sparse=False)
    with torch.no_grad():
        enc.embedding.weight.add_(1.0)
    save_paraphrastic_model(tmp_path / "m", "m", enc, trained_words, spec, tmp_path / "base", text, info={})
    model = load_model(tmp_path / "m")
    out = model.encode(["The cat sat.", "the dog", "zebra"])
    idx = {"cat": 0, "the": 1, "sat": 2}
    expected = enc.eval()(PaddedBatch.from_lists([[idx["the"], idx["cat"], idx["sat"]]]))[0].detach().numpy()
    np.testing.assert_allclose(out[0], expected, atol=1e-5)
    # "dog" was not trained: its base vector is used
    w = model.embedding.full()
    np.testing.assert_allclose(w[4], base[4])
    np.testing.assert_allclose(w[1], base[1] + 1.0)
    assert not out[2].any()  # no known word
    (tmp_path / "m" / "encoder.safetensors").unlink()
    with pytest.raises(SentembError, match=r"encoder\.safetensors: missing file"):
        load_model(tmp_path / "m")


# --- training pairs and the overlap filter, on the staged files -------------------------------------------------


@pytest.fixture(scope="module")
def raw_root(shared):
    """The mirror has the download stage's layout (pairs/, sts/, sick/, stsbenchmark/, pit2015/)."""
    return shared


def test_pair_sources_positives(raw_root):
    twitter = list(read_twitter_url(raw_root, min_votes=4))
    assert len(twitter) == 11_167 + 583 + 602 + 636  # train label 1 + raw test pairs with 4, 5 or 6 votes of 6
    assert len(list(read_twitter_url(raw_root, min_votes=6))) == 11_167 + 636
    assert len(list(read_msrp(raw_root))) == 2_753 + 1_147
    turk = list(read_turkcorpus(raw_root))
    assert len(turk) == 16_000 and len({c for c, _ in turk}) == 2_000
    lexical = read_ppdb_lexical(raw_root)
    assert len(lexical) > 150_000 and all(a != b and " " not in a + b for a, b in lexical[:1000])


def test_overlap_filter_catches_a_planted_evaluation_sentence(raw_root):
    sts = load_benchmarks(raw_root, ["STS16"])[0]
    planted = sts.sentences1[0]
    sources = {"planted": [(planted.upper().replace(" ", "  "), "something else entirely"),
                           ("a fresh sentence .", "a new sentence"),
                           ("a new sentence", "a fresh sentence"),  # the same pair reversed, without punctuation
                           ("same words", "Same words .")]}
    pairs, stats = build_training_pairs(sources, evaluation_sentences(raw_root), TEXT)
    st = stats["planted"]
    assert (st.positives, st.evaluation_overlap, st.duplicates, st.identical, st.kept) == (4, 1, 1, 1, 1)
    assert pairs.values.tolist() == [["planted", "a fresh sentence .", "a new sentence"]]
    assert match_key(planted) in {match_key(s) for s in evaluation_sentences(raw_root)}


def test_pit2015_test_set(raw_root):
    ds = read_pit2015(raw_root / "pit2015" / "test.data", raw_root / "pit2015" / "test.label")
    assert len(ds) == 972 and ds.gold.min() == 0 and ds.gold.max() == 1
    assert ds.sentences1[0] == "All the home alones watching 8 mile" and ds.gold[0] == pytest.approx(0.6)
    assert math.isclose(ds.gold[1], 0.4)


def test_report_names_and_published_values():
    from sentemb.reporting.transfer import paper_model_name, regularization
    from sentemb.reporting.wieting2017 import gran_paper_values, read_gran_tables

    assert [paper_model_name(*m) for m in [("avg", {}), ("lstm", {"output_gate": False}), ("rnn", {
        "activation": "identity"}), ("lstmavg", {"bidirectional": True}), ("gran", {"variant": 3}),
        ("gran", {"variant": 1, "bidirectional": True})]] == ["AVG", "LSTM (no o.g.)", "iRNN", "BiLSTMAVG",
                                                              "GRAN-3", "BiGRAN"]
    assert regularization(0.4, 0, 0.5) == "dropout, scrambling" and regularization(0, 0, 0) == "none"
    ref = read_gran_tables(Path(__file__).resolve().parents[1] / "reference/gran2017_tables.csv")
    assert set(ref["selection"]) == {"test", "oracle"}
    gran = gran_paper_values(ref, "GRAN", "dropout, scrambling")
    assert (gran["paper regularization"], gran["paper test"], gran["paper oracle"]) == ("dropout, scrambling", 68.9,
                                                                                         69.5)
    lstm = gran_paper_values(ref, "LSTM", "word dropout, scrambling")  # no such row: the unregularised one
    assert lstm["paper regularization"] == "none" and lstm["paper test"] == 59.3 and lstm["paper oracle"] == 60.6
    assert lstm["paper PPDB test"] == 54.2
    assert math.isnan(gran_paper_values(ref, "PROJ", "none")["paper test"])


def _paraphrastic_toy_run():
    """LSTMAVG with sparse embeddings on the synonym pairs (the torchrun run of the DDP test)."""
    torch.manual_seed(0)
    enc = build("lstmavg", _vectors(20, 8), dropout=0.1, sparse=True)
    before = F.cosine_similarity(enc.embedding.weight[0::2], enc.embedding.weight[1::2]).mean().item()

    def select(e):  # the synonyms' similarity, under the name the checkpoint is selected by
        w = e.embedding.weight.detach()
        return {"STS16": F.cosine_similarity(w[0::2], w[1::2]).mean().item() * 100}

    cfg = training("lstmavg", epochs=4, batch_size=20, lr=0.05, scramble=0.5, evals_per_epoch=1)
    stats = train_paraphrastic(enc, _toy_pairs(), cfg, select)
    return enc.embedding.weight.detach().numpy(), stats | {"before": before * 100}


def test_paraphrastic_training_under_torchrun(tmp_path):
    """Two Gloo processes, each on mini-batches of its own, gradients (sparse embedding rows included) averaged by
    DistributedDataParallel: the processes end with the same weights, and the model learns."""
    from test_training import torchrun

    got = torchrun("paraphrastic", tmp_path / "ddp")
    stats = got["stats"]
    assert got["world"] == 2 and stats["device"] == "cpu × 2 processes"
    assert got["spread"] == 0.0  # every process holds the same parameters
    assert stats["checkpoints"] == 4 and stats["selected"]["pairs_seen"] % 40 == 0  # 2 × 20 pairs an update
    assert stats["selected"]["STS16"] > stats["before"] + 20
