import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers import configured, from_section

import numpy as np
import pytest
import torch

from sentemb.adjacent_sentences.batch import TokenBatch
from sentemb.adjacent_sentences.config import AdjacentSentenceConfig
from sentemb.adjacent_sentences.loop import train_adjacent_sentences
from sentemb.adjacent_sentences.sampling import training_tuples
from sentemb.core.config import validate
from sentemb.core.data.corpus import build_token_corpus
from sentemb.core.errors import SentembError
from sentemb.core.runtime.device import resolve_device
from sentemb.salience.config import NWSConfig
from sentemb.salience.encoder import SalienceEncoder
from sentemb.siamese_cbow.config import SiameseCBOWConfig
from sentemb.siamese_cbow.encoder import AverageEncoder

CPU = torch.device("cpu")


def adjacent(**overrides) -> AdjacentSentenceConfig:
    """The shared adjacent-sentence settings of params.yaml's ``model`` section, changed where a test says."""
    return from_section(AdjacentSentenceConfig, "model", **overrides)


def siamese(**overrides) -> SiameseCBOWConfig:
    return configured(SiameseCBOWConfig, "model", **overrides)


def nws(**overrides) -> NWSConfig:
    return configured(NWSConfig, "nws", **overrides)


def test_tuples_respect_documents_and_empty_sentences():
    index = {w: i for i, w in enumerate("abcdef")}
    docs = [[["a"], ["b"], ["c"], ["zz"], ["d"], ["e"]], [["f"], ["a"], ["b"]]]
    corpus = build_token_corpus(docs, index)
    centres, candidates = training_tuples(corpus)
    # sentence 1 (b) and 2 (c) have neighbours in doc 0; 2's next (zz) is empty → only 1; 4 (d) has an empty previous;
    # 5 is last of doc 0; 7 (a) is the middle of doc 1
    assert centres.tolist() == [1, 7]
    assert 3 not in candidates.tolist() and len(candidates) == 8


def test_in_batch_negatives_are_uniform_over_the_sentences_of_the_tuples():
    """In-batch negatives (model.negatives: batch) come from the batch's other tuples, and accepting each with
    probability 1/m(s) makes them uniform over the sentences that occur in a tuple, as the paper's draw from the corpus:
    a document's first and last sentences (one place in a tuple) as often as inner ones (up to three places). With
    every m(s) = 1 (no reweighting) the edges would be drawn a third as often as the inner sentences."""
    from sentemb.adjacent_sentences.sampling import in_batch_negatives, tuple_roles

    corpus = build_token_corpus([[["w"]] * n for n in (5, 4, 3, 2, 6)], {"w": 0})
    centres, _ = training_tuples(corpus)
    roles = tuple_roles(corpus, centres)
    assert roles.tolist() == [1, 2, 3, 2, 1, 1, 2, 2, 1, 1, 1, 1, 0, 0, 1, 2, 3, 3, 2, 1]  # doc of 2: no tuple
    for weights, tolerance in ((roles, 0.05), (np.minimum(roles, 1), None)):
        rng = np.random.default_rng(0)
        counts = np.zeros(corpus.n_sentences)
        for _ in range(10_000):  # batches of 8 of the 10 centres, 2 negatives each
            c = rng.permutation(centres)[:8]
            sentences = np.concatenate([c, c - 1, c + 1])
            rows = in_batch_negatives(sentences, weights, 2, rng)
            assert rows.shape == (2, 8) and ((rows % 8) != np.arange(8)).all()  # never the centre's own tuple
            np.add.at(counts, sentences[rows].ravel(), 1)
        assert counts[roles == 0].sum() == 0
        rate = counts[roles > 0] / counts[roles > 0].mean()
        if tolerance is not None:
            assert np.abs(rate - 1).max() < tolerance
        else:  # the reweighting is what makes it uniform: m(s) = 3 sentences about three times as often as m(s) = 1
            assert rate[roles[roles > 0] == 3].min() > 2.5 * rate[roles[roles > 0] == 1].max()
    with pytest.raises(ValueError, match="at least 2 tuples"):
        in_batch_negatives(np.array([1, 0, 2]), roles, 2, np.random.default_rng(0))


def test_initialisation_follows_the_seed():
    torch.manual_seed(123)
    a = AverageEncoder(50, 8, init_std=0.01, seed=1).embedding.weight
    torch.manual_seed(456)
    b = AverageEncoder(50, 8, init_std=0.01, seed=1).embedding.weight
    assert torch.equal(a, b)
    assert not torch.equal(a, AverageEncoder(50, 8, init_std=0.01, seed=2).embedding.weight)
    assert a.std().item() == pytest.approx(0.01, rel=0.15)


def test_average_encoder_ignores_nothing_but_averages():
    enc = AverageEncoder(4, 3, init_std=0.01)
    with torch.no_grad():
        enc.embedding.weight.copy_(torch.arange(12.0).view(4, 3))
    out = enc(TokenBatch.from_lists([[0, 2], [3], []]))
    assert out.tolist() == [[3.0, 4.0, 5.0], [9.0, 10.0, 11.0], [0.0, 0.0, 0.0]]


def _toy_corpus(n_docs=40, seed=0):
    """Documents about one of four topics each: adjacent sentences share the topic's words."""
    rng = np.random.default_rng(seed)
    topics = [[f"t{k}w{j}" for j in range(6)] for k in range(4)]
    common = ["the", "a", "of"]
    docs = []
    for d in range(n_docs):
        words = topics[d % 4]
        docs.append([list(rng.choice(words, 3)) + list(rng.choice(common, 2)) for _ in range(12)])
    vocab = sorted({w for doc in docs for s in doc for w in s})
    return build_token_corpus(docs, {w: i for i, w in enumerate(vocab)}), len(vocab)


def test_loss_falls_and_runs_are_reproducible(tmp_path):
    corpus, v = _toy_corpus()
    results = []
    for run in range(2):
        torch.manual_seed(0)
        enc = AverageEncoder(v, 16, init_std=0.1)
        cfg = adjacent(neg=3, batch_size=10, epochs=5, optimizer="adagrad", lr=0.05, lr_floor=1.0, log_every=10, seed=3)
        stats = train_adjacent_sentences(enc, corpus, cfg, "cosine", CPU, log_path=tmp_path / f"log{run}.csv",
                                         progress=False)
        results.append(enc.embedding.weight.detach().clone())
    rows = [line.split(",") for line in (tmp_path / "log0.csv").read_text().splitlines()[1:]]
    assert float(rows[-1][3]) < float(rows[0][3]) - 0.1  # the loss falls well below its start
    assert stats["tuples"] == 40 * 10 and stats["batches"] == 40 * 5 and stats["sentences_per_second"] > 0
    assert torch.equal(results[0], results[1])  # same seed, same weights


ADAGRAD_ON_SPARSE_GRADIENTS = {
    "siamese_cbow": """
        from helpers import configured
        from sentemb.core.data.corpus import build_token_corpus
        from sentemb.siamese_cbow.config import SiameseCBOWConfig
        from sentemb.siamese_cbow.train import train_siamese_cbow
        docs = [[[f"w{(d + k) % 7}", f"w{(d * k) % 7}", "x"] for k in range(8)] for d in range(10)]
        corpus = build_token_corpus(docs, {f"w{i}": i for i in range(7)} | {"x": 7})
        cfg = configured(SiameseCBOWConfig, "model", dim=4, init_std=0.1, batch_size=8, optimizer="adagrad", lr=0.05,
                         lr_floor=1.0, log_every=10, device="cpu")
        train_siamese_cbow(corpus, 8, cfg, progress=False)
    """,
    "paraphrastic": """
        import numpy as np, torch
        from helpers import configured
        from sentemb.paraphrastic.composition import build_composition
        from sentemb.paraphrastic.config import ParaphrasticConfig
        from sentemb.paraphrastic.training import train_paraphrastic
        pairs = [(np.array([k % 9, (k + 1) % 9]), np.array([(k + 2) % 9])) for k in range(20)]
        cfg = configured(ParaphrasticConfig, "paraphrastic.para-dan", encoder="avg", epochs=1, batch_size=5,
                         optimizer="adagrad_lasagne", lr=0.05, evals_per_epoch=1, device="cpu")
        enc = build_composition(cfg, torch.randn(10, 4), sparse=True)
        train_paraphrastic(enc, pairs, cfg, lambda e: {"STS16": 0.0})
    """,
}


@pytest.mark.parametrize("trainer", ADAGRAD_ON_SPARSE_GRADIENTS)
def test_adagrad_on_sparse_gradients_trains_without_torchs_invariant_warning(trainer):
    """torch warns once a process that sparse invariant checks are "implicitly disabled" when Adagrad meets a sparse
    gradient; both trainers that build Adagrad disable them explicitly. A fresh process, since torch warns only once
    in one."""
    code = textwrap.dedent(ADAGRAD_ON_SPARSE_GRADIENTS[trainer]) + 'print("trained")\n'
    res = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True,
                         env=os.environ | {"PYTHONPATH": str(Path(__file__).parent)})
    assert res.returncode == 0 and "trained" in res.stdout, res.stderr[-2000:]
    assert "Sparse invariant checks" not in res.stderr, res.stderr[-2000:]


def test_the_sgd_training_amount_is_the_sum_of_the_rates(tmp_path):
    """Kenter et al.'s released vectors: SGD at 1e-4 over a 5-epoch decay, saved after epoch 1 of 740k batches."""
    released = adjacent(optimizer="sgd", lr=1e-4, sgd_lr_sum=None, sgd_decay_epochs=5)
    lr0, factor = released.schedule(740_000)
    assert lr0 == 1e-4 and factor(0) == 1.0 and factor(740_000) == pytest.approx(0.8)
    assert sum(lr0 * factor(t) for t in range(0, 740_000, 1000)) * 1000 == pytest.approx(66.6, abs=0.1)
    corpus, v = _toy_corpus()
    for lr_sum in (3.0, 67.0):
        cfg = adjacent(batch_size=10, epochs=2, optimizer="sgd", sgd_lr_sum=lr_sum, sgd_decay_epochs=5, seed=1)
        stats = train_adjacent_sentences(AverageEncoder(v, 8, init_std=0.01, seed=1), corpus, cfg, "cosine", CPU,
                                         progress=False)
        assert stats["lr_sum"] == pytest.approx(lr_sum, rel=1e-6)  # what the optimizer really stepped with
        assert stats["lr_initial"] == pytest.approx(lr_sum / sum(max(1 - t / 200, 1e-4) for t in range(80)))
    # other optimizers keep lr₀ = lr and decay over `epochs`; the SGD settings do not touch them
    cfg = adjacent(batch_size=10, optimizer="adadelta", lr=1.0, sgd_lr_sum=67.0, sgd_decay_epochs=5)
    lr0, factor = cfg.schedule(40)
    assert lr0 == 1.0 and factor(20) == 0.5 and factor(40) == 1e-4


def test_bad_config_and_device_are_clear_errors():
    from helpers import params_section

    cases = {"neg": (0, "model.neg: Input should be greater than 0 (got 0)"),
             "optimizer": ("lbfgs", "model.optimizer: Input should be 'sgd', 'adadelta'"),
             "sgd_lr_sum": (0.0, "model.sgd_lr_sum: Input should be greater than 0 (got 0.0)"),
             "negatives": ("kb", "model.negatives: Input should be 'corpus' or 'batch' (got 'kb')")}
    for key, (value, message) in cases.items():
        with pytest.raises(SentembError, match=re.escape(f"params.yaml: {message}")):
            validate(SiameseCBOWConfig, params_section("model") | {key: value}, "params.yaml", "model")
    with pytest.raises(SentembError, match=r"params.yaml: model: Value error, in-batch negatives need batches of at "
                                           r"least 2 centres"):
        validate(SiameseCBOWConfig, params_section("model") | {"negatives": "batch", "batch_size": 1}, "params.yaml",
                 "model")
    with pytest.raises(SentembError, match=r"device: expected 'auto', 'cpu' or 'cuda', got 'tpu'"):
        resolve_device("tpu")
    if not torch.cuda.is_available():
        with pytest.raises(SentembError, match="CUDA is not available"):
            resolve_device("cuda")
    assert resolve_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")


def test_sparse_adadelta_matches_dense_adadelta_on_rows_in_every_batch():
    from sentemb.core.optim.sparse import SparseAdadelta

    torch.manual_seed(0)
    dense = torch.nn.Embedding(5, 3)
    sparse = torch.nn.Embedding(5, 3, sparse=True)
    sparse.weight.data.copy_(dense.weight.data)
    ref = torch.optim.Adadelta(dense.parameters(), lr=1.0, rho=0.95, eps=1e-6)
    ours = SparseAdadelta(sparse.parameters(), lr=1.0, rho=0.95, eps=1e-6)
    ids = torch.tensor([0, 2, 2, 4])  # every step touches the same rows, so lazy and dense updates agree
    for _ in range(5):
        for emb, opt in ((dense, ref), (sparse, ours)):
            opt.zero_grad()
            (emb(ids) ** 2).sum().backward()
            opt.step()
    assert torch.allclose(dense.weight, sparse.weight, atol=1e-6)
    assert torch.equal(sparse.weight[1], dense.weight[1])  # an untouched row is unchanged


def test_sparse_adadelta_dense_branch_matches_torch():
    from sentemb.core.optim.sparse import SparseAdadelta

    torch.manual_seed(0)
    a, b = torch.nn.Linear(3, 2), torch.nn.Linear(3, 2)
    b.load_state_dict(a.state_dict())
    ref = torch.optim.Adadelta(a.parameters(), lr=1.0, rho=0.95, eps=1e-6)
    ours = SparseAdadelta(b.parameters(), lr=1.0, rho=0.95, eps=1e-6)
    x = torch.randn(4, 3)
    for _ in range(5):
        for m, opt in ((a, ref), (b, ours)):
            opt.zero_grad()
            (m(x) ** 2).sum().backward()
            opt.step()
    assert all(torch.allclose(p, q, atol=1e-6) for p, q in zip(a.parameters(), b.parameters(), strict=True))


def _run_trainer(kind: str, device: str):
    """One tiny run of a trainer with ``device`` set in its config; returns the device its statistics report."""
    from helpers import composition

    import scipy.sparse as sp

    from sentemb.paraphrastic.composition import PaddedBatch, build_composition
    from sentemb.paraphrastic.config import ParaphrasticConfig
    from sentemb.paraphrastic.training import train_paraphrastic
    from sentemb.salience.train import train_neural_word_salience
    from sentemb.siamese_cbow.train import train_siamese_cbow
    from sentemb.supervised.config import Setting, TrainingConfig
    from sentemb.supervised.training import ScoredPairs, train_supervised
    from sentemb.wordvectors.config import GloveConfig
    from sentemb.wordvectors.glove import train_glove

    rng = np.random.default_rng(0)
    if kind in ("siamese_cbow", "nws"):
        corpus, v = _toy_corpus(8)
        if kind == "siamese_cbow":
            cfg = siamese(dim=8, batch_size=10, optimizer="adagrad", lr=0.05, lr_floor=1.0, device=device)
            return train_siamese_cbow(corpus, v, cfg, progress=False)[1]["device"]
        cfg = nws(batch_size=10, device=device)
        return train_neural_word_salience(corpus, rng.normal(size=(v, 8)).astype(np.float32), cfg,
                                          progress=False)[1]["device"]
    if kind == "glove":
        x = sp.csr_matrix(rng.integers(1, 5, size=(6, 6)).astype(np.float64))
        cfg = configured(GloveConfig, "pretrain.glove", vector_size=4, epochs=1, fit="batches", device=device)
        return train_glove(x, cfg, resolve_device(cfg.device))[1]["device"]
    pairs = [(rng.integers(0, 20, 4), rng.integers(0, 20, 3)) for _ in range(40)]
    if kind == "paraphrastic":
        cfg = configured(ParaphrasticConfig, "paraphrastic.para-lstmavg", epochs=1, batch_size=20, evals_per_epoch=1,
                         device=device)
        enc = build_composition(cfg, torch.randn(20, 8), sparse=True)
        return train_paraphrastic(enc, pairs, cfg, lambda e: {"STS16": 0.0})["device"]
    enc = build_composition(composition("gran"), torch.randn(20, 8), sparse=False)
    scored = ScoredPairs([a for a, _ in pairs], [b for _, b in pairs], rng.uniform(1, 5, len(pairs)))
    training = configured(TrainingConfig, "supervised.training", hidden=4, batch_size=10, epochs=1, device=device)
    target = resolve_device(training.device)

    def embed(sentences):
        return enc(PaddedBatch.from_lists(sentences, target))

    return train_supervised(enc, embed, scored, scored, scored, training, Setting(lambda_w=0.0, lambda_c=0.0), 0.0,
                            5, target)["device"]


@pytest.mark.parametrize("kind", ["siamese_cbow", "nws", "glove", "paraphrastic", "supervised"])
def test_every_torch_trainer_runs_on_the_device_it_is_given(kind):
    """device: cpu is honoured by every trainer; device: cuda without CUDA is one clear error, not a torch crash.
    (word2vec is gensim's CPU trainer and has no device.)"""
    assert _run_trainer(kind, "cpu").startswith("cpu")
    if torch.cuda.is_available():
        assert _run_trainer(kind, "cuda").startswith("cuda")
    else:
        with pytest.raises(SentembError, match="'cuda' asked for, but CUDA is not available on this machine"):
            _run_trainer(kind, "cuda")


@pytest.mark.parametrize("negatives", ["corpus", "batch"])
def test_the_fused_sgd_step_is_torchs_sgd_step_on_the_same_tuples(tmp_path, negatives):
    """Siamese CBOW's compiled SGD step (fit: fused) trains the same model as torch's autograd and SGD from the same
    sampled tuples and learning rates: equal up to float rounding, and the same loss log. With in-batch negatives
    both encode each of the batch's sentences once; a sentence's gradient is summed over the centres that name it by
    the fused step's own pass and by torch's autograd through the indexing."""
    from sentemb.siamese_cbow.train import train_siamese_cbow

    corpus, v = _toy_corpus(30)
    cfg = siamese(dim=16, init_std=0.01, neg=2, batch_size=10, epochs=2, optimizer="sgd", sgd_lr_sum=40.0,
                  sgd_decay_epochs=5, max_length=4, log_every=5, seed=2, device="cpu", negatives=negatives)
    start = AverageEncoder(v, 16, init_std=0.01, seed=2).embedding.weight.detach().numpy()
    got = {}
    for fit in ("torch", "fused"):
        vectors, stats = train_siamese_cbow(corpus, v, cfg.model_copy(update={"fit": fit}),
                                            log_path=tmp_path / f"{fit}.csv", progress=False)
        got[fit] = (vectors, stats, (tmp_path / f"{fit}.csv").read_text().splitlines())
        assert stats["fit"] == fit
    (torch_w, torch_stats, torch_log), (fused_w, fused_stats, fused_log) = got["torch"], got["fused"]
    moved = np.abs(torch_w - start).max()
    assert moved > 0.5  # training moved the vectors …
    assert np.abs(fused_w - torch_w).max() < 1e-5  # … and both fits moved them alike (here: 3e-7 of 1.02)
    assert fused_stats["lr_sum"] == pytest.approx(torch_stats["lr_sum"]) == pytest.approx(40.0)
    assert fused_stats["final_loss"] == pytest.approx(torch_stats["final_loss"], abs=1e-5)
    assert [r.split(",")[:3] + r.split(",")[4:] for r in fused_log] == [r.split(",")[:3] + r.split(",")[4:]
                                                                       for r in torch_log]
    with pytest.raises(SentembError, match=r"model\.fit: the fused fit is optimizer 'sgd' on the CPU"):
        train_siamese_cbow(corpus, v, siamese(dim=4, optimizer="adagrad", device="cpu", fit="fused"), progress=False)


@pytest.mark.parametrize(("negatives", "max_length"), [("corpus", 4), ("batch", 4), ("corpus", None)])
def test_the_gpu_fused_step_is_the_compiled_step_on_the_same_tuples(tmp_path, negatives, max_length):
    """The GPU's fused step (torch kernels with the gradient written out, TorchFusedSGD), run here on the CPU, trains
    the same vectors as the compiled CPU step from the same tuples and learning rates: equal up to float rounding,
    the same loss log; the encoder sees its updates (its weight is a view of the step's matrix)."""
    from sentemb.siamese_cbow.fused import FusedSGD
    from sentemb.siamese_cbow.fused_torch import TorchFusedSGD

    corpus, v = _toy_corpus(30)
    cfg = adjacent(neg=2, batch_size=10, epochs=2, optimizer="sgd", sgd_lr_sum=40.0, sgd_decay_epochs=5,
                   max_length=max_length, log_every=5, seed=2, device="cpu", negatives=negatives)
    got = {}
    for fit in ("compiled", "kernels"):
        encoder = AverageEncoder(v, 16, init_std=0.01, seed=2)
        start = encoder.embedding.weight.detach().clone()
        step = (FusedSGD(encoder.embedding.weight.detach().numpy()) if fit == "compiled"
                else TorchFusedSGD(encoder, corpus.token_ids, max_length, torch.device("cpu"), pad_rows=7))
        stats = train_adjacent_sentences(encoder, corpus, cfg, "cosine", CPU, log_path=tmp_path / f"{fit}.csv",
                                         progress=False, step_function=step)
        got[fit] = (encoder.embedding.weight.detach().numpy().copy(), stats,
                    [r.split(",") for r in (tmp_path / f"{fit}.csv").read_text().splitlines()])
    (compiled_w, compiled_stats, compiled_log), (kernel_w, kernel_stats, kernel_log) = got["compiled"], got["kernels"]
    assert np.abs(compiled_w - start.numpy()).max() > 0.5  # training moved the vectors …
    assert np.abs(kernel_w - compiled_w).max() < 1e-5  # … and both steps moved them alike
    assert kernel_stats["final_loss"] == pytest.approx(compiled_stats["final_loss"], abs=1e-5)
    assert kernel_stats["lr_sum"] == pytest.approx(compiled_stats["lr_sum"])
    assert [r[:3] + r[4:] for r in kernel_log] == [r[:3] + r[4:] for r in compiled_log]
    losses = [(float(a[3]), float(b[3])) for a, b in zip(kernel_log[1:], compiled_log[1:], strict=True)]
    assert all(a == pytest.approx(b, abs=1e-5) for a, b in losses)


@pytest.mark.parametrize("negatives", ["corpus", "batch"])
def test_the_fused_adagrad_step_is_torchs_nws_step_on_the_same_tuples(tmp_path, negatives):
    """Neural Word Salience's compiled AdaGrad step (nws.fit: fused) trains the same saliences as torch's autograd and
    Adagrad from the same sampled tuples: equal up to float rounding, and the same loss log."""
    from sentemb.salience.train import train_neural_word_salience

    corpus, v = _toy_corpus(30)
    vectors = np.random.default_rng(4).normal(size=(v, 16)).astype(np.float32)
    cfg = nws(neg=2, batch_size=10, epochs=2, optimizer="adagrad", lr=0.05, lr_floor=1.0, log_every=5, seed=2,
              device="cpu", negatives=negatives)
    got = {}
    for fit in ("torch", "fused"):
        saliences, stats = train_neural_word_salience(corpus, vectors, cfg.model_copy(update={"fit": fit}),
                                                      log_path=tmp_path / f"{fit}.csv", progress=False)
        got[fit] = (saliences, stats, (tmp_path / f"{fit}.csv").read_text().splitlines())
        assert stats["fit"] == fit
    (torch_q, torch_stats, torch_log), (fused_q, fused_stats, fused_log) = got["torch"], got["fused"]
    start = SalienceEncoder(vectors, init_low=cfg.init_low, init_high=cfg.init_high, seed=2).saliences.detach().numpy()
    assert np.abs(torch_q - start).max() > 0.2  # training moved the saliences …
    assert np.abs(fused_q - torch_q).max() < 1e-5  # … and both fits moved them alike
    assert fused_stats["final_loss"] == pytest.approx(torch_stats["final_loss"], abs=1e-5)
    assert [r.split(",")[:3] + r.split(",")[4:] for r in fused_log] == [r.split(",")[:3] + r.split(",")[4:]
                                                                       for r in torch_log]
    with pytest.raises(SentembError, match=r"nws\.fit: the fused fit is optimizer 'adagrad' on the CPU"):
        train_neural_word_salience(corpus, vectors, nws(optimizer="sgd", device="cpu", fit="fused"), progress=False)


def test_the_fused_adagrad_step_writes_the_same_bytes_with_any_number_of_threads():
    """Each thread of the NWS step owns the saliences of a share of the words, so one thread and several give the
    same saliences and AdaGrad sums to the bit, with corpus and with in-batch negatives."""
    import numba

    from sentemb.salience.fused import FusedAdagrad

    rng = np.random.default_rng(0)
    tokens = rng.integers(0, 12, size=600).astype(np.int32)  # 12 words: each salience has many tokens a batch
    vectors = rng.standard_normal((12, 8)).astype(np.float32)
    start = rng.uniform(size=12).astype(np.float32)
    in_batch = np.stack([(np.arange(10) + 1 + rng.integers(0, 9, size=10)) % 10 + rng.integers(0, 3, size=10) * 10
                         for _ in range(2)])
    batches = [(rng.integers(0, 590, size=50), rng.integers(0, 8, size=50), None) for _ in range(3)]
    batches.append((rng.integers(0, 590, size=30), rng.integers(1, 8, size=30), in_batch))
    got = {}
    for threads in sorted({1, min(3, numba.config.NUMBA_NUM_THREADS)}):
        saliences = start.copy()
        step = FusedAdagrad(vectors, saliences, threads=threads)
        assert all(np.isfinite(step(tokens, starts, lengths, 10, 0.5, neg)) for starts, lengths, neg in batches)
        got[threads] = (saliences, step.sums)
    assert np.abs(got[1][0] - start).max() > 1e-2  # the steps moved the saliences
    assert all(np.array_equal(got[1][0], q) and np.array_equal(got[1][1], g) for q, g in got.values())
    with pytest.raises(ValueError, match="saliences of shape"):
        FusedAdagrad(vectors, start[:5])


def test_the_fused_sgd_step_writes_the_same_bytes_with_any_number_of_threads():
    """The fused step's threads never write the same float (each owns whole word rows in the update), so one thread
    and several give the same weights to the bit, here with every word in many sentences of each batch."""
    import numba

    from sentemb.siamese_cbow.fused import FusedSGD

    rng = np.random.default_rng(0)
    tokens = rng.integers(0, 12, size=600).astype(np.int32)  # 12 words: each row updated by many tokens
    start = (rng.standard_normal((12, 8)) * 0.1).astype(np.float32)
    # 4 batches of 10 centres with 2 neighbours and 2 negatives each: 50 sentences of 0-7 tokens
    batches = [(rng.integers(0, 590, size=50), rng.integers(0, 8, size=50)) for _ in range(4)]
    got = {}
    for threads in sorted({1, min(3, numba.config.NUMBA_NUM_THREADS)}):
        weights = start.copy()
        step = FusedSGD(weights, threads=threads)
        assert all(np.isfinite(step(tokens, starts, lengths, 10, 0.5)) for starts, lengths in batches)
        got[threads] = weights
    assert np.abs(got[1] - start).max() > 1e-3  # the steps moved the vectors
    assert all(np.array_equal(got[1], w) for w in got.values())


def test_the_fused_step_keeps_torchs_thread_count():
    # numba's OpenMP layer sets the process's OpenMP thread count to its pool's size when its first parallel loop
    # starts, and torch's operations then take that count; the step puts torch's back (a fresh process, as the layer
    # starts once a process: torch on 2 threads, OMP_NUM_THREADS, and the step on 2 of a pool of 4; torch reads its
    # count before the step, as the trainer, which builds the encoder first, does)
    code = ("import numpy as np, torch; print(torch.get_num_threads())\n"
            "from sentemb.siamese_cbow.fused import FusedSGD\n"
            "rng = np.random.default_rng(0); w = rng.standard_normal((12, 8)).astype(np.float32)\n"
            "FusedSGD(w, threads=2)(rng.integers(0, 12, 600).astype(np.int32), rng.integers(0, 590, 50),"
            " rng.integers(1, 8, 50), 10, 0.5)\n"
            "print(torch.get_num_threads())")
    env = os.environ | {"OMP_NUM_THREADS": "2", "NUMBA_NUM_THREADS": "4"}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert res.stdout.split() == ["2", "2"]


def test_the_fused_step_with_in_batch_negatives_is_the_step_on_the_negatives_written_out():
    """A batch whose negatives are rows of its own sentences (in-batch negatives: each sentence encoded once, its
    gradient summed over the centres that name it) takes the step of the same batch with every negative written
    out as a sentence of its own, up to float rounding, with one thread or several (then to the bit)."""
    import numba

    from sentemb.siamese_cbow.fused import FusedSGD

    rng = np.random.default_rng(1)
    tokens = rng.integers(0, 30, size=800).astype(np.int32)
    start = (rng.standard_normal((30, 8)) * 0.1).astype(np.float32)
    b = 10
    starts, lengths = rng.integers(0, 790, size=3 * b), rng.integers(1, 8, size=3 * b)
    negatives = np.stack([(np.arange(b) + 1 + rng.integers(0, b - 1, size=b)) % b + rng.integers(0, 3, size=b) * b
                          for _ in range(2)])  # 2 negatives per centre among the other tuples' sentences
    assert len(np.unique(negatives)) < negatives.size  # some sentence is the negative of several centres
    written_out = start.copy()
    loss = FusedSGD(written_out)(tokens, np.concatenate([starts, starts[negatives].ravel()]),
                                 np.concatenate([lengths, lengths[negatives].ravel()]), b, 0.5)
    got = {}
    for threads in sorted({1, min(3, numba.config.NUMBA_NUM_THREADS)}):
        got[threads] = start.copy()
        assert FusedSGD(got[threads], threads=threads)(tokens, starts, lengths, b, 0.5, negatives) == pytest.approx(
            loss, abs=1e-12)
    assert np.abs(written_out - start).max() > 1e-3
    assert np.abs(got[1] - written_out).max() < 1e-6
    assert all(np.array_equal(got[1], w) for w in got.values())


def _siamese_toy_run():
    """Siamese CBOW by torch SGD on the toy corpus (the single-process and the torchrun runs of the DDP test)."""
    from sentemb.siamese_cbow.train import train_siamese_cbow

    corpus, v = _toy_corpus(30)
    cfg = siamese(dim=16, init_std=0.01, neg=2, batch_size=10, epochs=2, optimizer="sgd", sgd_lr_sum=40.0,
                  sgd_decay_epochs=5, max_length=4, log_every=5, seed=2, device="cpu", fit="torch")
    return train_siamese_cbow(corpus, v, cfg, progress=False)


def torchrun(kind: str, out: Path) -> dict:
    """``torchrun --standalone --nproc_per_node 2 tests/ddp_worker.py KIND OUT`` (Gloo, 2 CPU processes)."""
    import json
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
                          str(Path(__file__).with_name("ddp_worker.py")), kind, str(out)],
                         capture_output=True, text=True, timeout=600,
                         env={**__import__("os").environ, "OMP_NUM_THREADS": "1"})
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-3000:]
    return json.loads(out.with_suffix(".json").read_text()) | {"weights": np.load(out.with_suffix(".npy"))}


def test_siamese_cbow_under_torchrun_is_the_single_process_step(tmp_path):
    """Two Gloo processes share each batch's centres under DistributedDataParallel (sparse gradients all-reduced):
    the trained vectors are the single-process run's, up to float rounding."""
    single, _ = _siamese_toy_run()
    got = torchrun("siamese_cbow", tmp_path / "ddp")
    assert got["world"] == 2 and got["stats"]["device"] == "cpu × 2 processes"
    start = AverageEncoder(single.shape[0], 16, init_std=0.01, seed=2).embedding.weight.detach().numpy()
    assert np.abs(single - start).max() > 0.5
    assert np.abs(got["weights"] - single).max() < 1e-5


def test_more_processes_than_gpus_is_one_line_before_any_process_starts(monkeypatch):
    """On a machine with 1 GPU (CUDA's answers stood in for: the tests run without one), ``processes: 2`` is refused
    before torchrun is started, and a process torchrun started without a GPU of its own stops in one line before
    ``torch.cuda.set_device`` would raise (torch's traceback)."""
    from sentemb.core.runtime import distributed

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr(torch.cuda, "set_device", lambda d: pytest.fail(f"set_device({d}) reached"))
    monkeypatch.setattr(os, "execv", lambda *a: pytest.fail("torchrun was started"))
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    with pytest.raises(SentembError, match=r"processes: 2 data-parallel processes, but this machine has 1 GPU"):
        distributed.relaunch_under_torchrun(2)
    distributed.relaunch_under_torchrun(1)  # one process: nothing to start
    for key, value in {"WORLD_SIZE": "2", "RANK": "1", "LOCAL_RANK": "1", "MASTER_ADDR": "127.0.0.1",
                       "MASTER_PORT": "29500"}.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SentembError, match=r"torchrun started process 1 \(LOCAL_RANK\) on a machine with 1 GPU"):
        distributed.init_distributed()


SQRT_ON_TWO_THREADS = textwrap.dedent("""
    import numpy as np, torch
    from sentemb.core.runtime.threads import settle_sqrt
    settle_sqrt()
    x = torch.from_numpy(np.random.default_rng(0).random(200_000).astype(np.float32) + 0.01)
    torch.set_num_threads(2)
    two = x.sqrt()  # the first root split across threads
    torch.set_num_threads(1)
    print(int((two != x.sqrt()).sum()))
""")


def test_torch_sqrt_on_two_threads_is_the_one_thread_root_after_settle_sqrt():
    """sentemb.core.runtime.threads: a process's first square root split across 2 threads was sometimes low-accuracy on
    the second thread's half (here in 16 of 90 fresh processes without :func:`settle_sqrt`, in none of 100 with it).
    Eight fresh processes, each with its first parallel root after ``settle_sqrt``: every element as on one thread."""
    for _ in range(8):
        res = subprocess.run([sys.executable, "-c", SQRT_ON_TWO_THREADS], capture_output=True, text=True, check=True)
        assert res.stdout.strip() == "0", res.stdout + res.stderr


# --- the training skeleton (sentemb.core.training) ------------------------------------------------------------------


def _skeleton_run(tmp_path, losses, schedule, log=True):
    """train_loop over batches whose step returns the given losses in turn, a row at each record."""
    from sentemb.core.training import train_loop

    it = iter(losses)

    def batches(epoch):
        for b in range(schedule.steps_per_epoch):
            yield epoch + (b + 1) / schedule.steps_per_epoch, 1, (epoch, b)

    return train_loop(batches, lambda batch: next(it), schedule,
                      lambda at, position, loss: {"step": at, "epoch": position, "loss": loss},
                      what="toy training", log_path=tmp_path / "log.csv" if log else None, progress=False)


def test_the_skeleton_makes_rows_on_its_schedule_and_writes_them(tmp_path):
    """Rows every record_every steps of the run and after the last; per_epoch: counted from each epoch's start and at
    each epoch's end; each row's loss the mean of its steps (floats and tensors alike); the CSV holds the rows."""
    from sentemb.core.training import Schedule

    run = _skeleton_run(tmp_path, [float(i) for i in range(10)], Schedule(2, 5, 3))
    assert [(r["step"], r["loss"]) for r in run.rows] == [(3, 1.0), (6, 4.0), (9, 7.0), (10, 9.0)]
    assert run.steps == 10 and run.last_loss == 9.0 and 0 <= run.train_seconds <= run.seconds
    assert (tmp_path / "log.csv").read_text().splitlines()[:2] == ["step,epoch,loss", "3,0.6,1.0"]
    run = _skeleton_run(tmp_path, [torch.tensor(float(i)) for i in range(10)], Schedule(2, 5, 3, per_epoch=True),
                        log=False)
    assert [(r["step"], r["epoch"], r["loss"]) for r in run.rows] == [(3, 0.6, 1.0), (5, 1.0, 3.5), (8, 1.6, 6.0),
                                                                       (10, 2.0, 8.5)]


@pytest.mark.parametrize("as_tensor", [False, True])
def test_the_skeleton_stops_a_diverged_run_naming_the_step(tmp_path, as_tensor):
    """A float loss that is not finite stops the run at its step; a tensor's (summed on its device) at the next row;
    either in one line naming the trainer and the step, with no log written."""
    from sentemb.core.training import Schedule

    losses = [1.0, 2.0, float("nan"), 1.0, 1.0, 1.0]
    with pytest.raises(SentembError, match=r"^toy training: training diverged: mean loss nan at step " +
                       ("4" if as_tensor else "3")):
        _skeleton_run(tmp_path, [torch.tensor(x) for x in losses] if as_tensor else losses, Schedule(1, 6, 2))
    assert not (tmp_path / "log.csv").exists()


def test_the_best_checkpoint_is_restored_on_the_cpu():
    """Model selection keeps the best-scoring checkpoint's parameters (a tie keeps the earlier one), restores them."""
    from sentemb.core.training import BestCheckpoint

    module = torch.nn.Linear(2, 1)
    best = BestCheckpoint(module)
    with pytest.raises(SentembError, match="no checkpoint"):
        best.restore()
    for score, value in [(1.0, 1.0), (3.0, 3.0), (3.0, 4.0), (2.0, 2.0)]:
        torch.nn.init.constant_(module.weight, value)
        best.offer(score, {"score": score, "value": value})
    assert best.restore() == {"score": 3.0, "value": 3.0}
    assert module.weight.detach().tolist() == [[3.0, 3.0]]

