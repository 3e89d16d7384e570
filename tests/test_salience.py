"""Neural Word Salience, the ISF/SIF baselines, weighted-average models and the psycholinguistic norms."""

import json
import math

from helpers import TEXT, configured

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from sentemb.adjacent_sentences.batch import TokenBatch
from sentemb.adjacent_sentences.loss import adjacent_sentence_loss
from sentemb.cli import app
from sentemb.core.data.corpus import build_token_corpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models import load_model
from sentemb.core.models.word_averaging import save_word_averaging_model, segment_mean
from sentemb.core.models.word_vectors import WordVectors
from sentemb.inference.export import owned_word_vectors
from sentemb.salience.config import NWSConfig
from sentemb.salience.encoder import SalienceEncoder
from sentemb.salience.model import WeightedAverageModel, save_weighted_average_model
from sentemb.salience.norms import load_norms, norm_correlations
from sentemb.salience.train import train_neural_word_salience
from sentemb.salience.weighting import (
    first_principal_component,
    isf_weights,
    log_isf_weights,
    remove_component,
    sif_weights,
    usif_weights,
    weighted_principal_components,
)


def test_salience_encoder_is_equation_1():
    vectors = np.arange(12, dtype=np.float32).reshape(4, 3)
    enc = SalienceEncoder(vectors, init_low=0.0, init_high=1.0, seed=0)
    with torch.no_grad():
        enc.salience.weight[:, 0] = torch.tensor([0.5, 2.0, 1.0, 3.0])
    out = enc(TokenBatch.from_lists([[0, 1], [3], []])).detach().numpy()
    np.testing.assert_allclose(out[0], (0.5 * vectors[0] + 2.0 * vectors[1]) / 2)
    np.testing.assert_allclose(out[1], 3.0 * vectors[3])
    np.testing.assert_array_equal(out[2], np.zeros(3))
    assert [p.shape for p in enc.parameters()] == [torch.Size([4, 1])]  # the vectors are fixed
    with pytest.raises(SentembError, match="init_high"):
        SalienceEncoder(vectors, init_low=1.0, init_high=0.5)


def test_nws_gradient_matches_finite_differences():
    gen = torch.Generator().manual_seed(0)
    vectors = torch.randn(6, 4, generator=gen, dtype=torch.float64)
    enc = SalienceEncoder(vectors.numpy(), init_low=0.0, init_high=1.0, sparse=False, seed=1).double()
    enc.vectors.copy_(vectors)
    batch = TokenBatch.from_lists([[0, 1], [1, 2, 3], [4], [0, 5, 5], [2, 4], [3, 1]])

    def loss_of(q: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            enc.salience.weight[:, 0] = q
        emb = enc(batch)
        # two centres, each with prev/next positives and one negative: the NWS softmax over inner products
        return adjacent_sentence_loss(emb[:2], emb[2:].view(2, 2, 4).repeat(1, 2, 1)[:, :3], 2, similarity="dot")

    q0 = torch.rand(6, generator=gen, dtype=torch.float64)
    enc.zero_grad()
    loss_of(q0.clone()).backward()
    analytic = enc.salience.weight.grad[:, 0].clone()
    numeric = torch.zeros(6, dtype=torch.float64)
    for k in range(6):
        step = torch.zeros(6, dtype=torch.float64)
        step[k] = 1e-6
        with torch.no_grad():
            numeric[k] = (loss_of(q0 + step) - loss_of(q0 - step)) / 2e-6
    torch.testing.assert_close(analytic, numeric, rtol=1e-6, atol=1e-8)
    assert analytic.abs().sum() > 0


def test_unseen_words_keep_their_initial_salience():
    rng = np.random.default_rng(0)
    topics = [[f"t{k}w{j}" for j in range(5)] for k in range(3)]
    docs = [[list(rng.choice(topics[d % 3], 4)) for _ in range(10)] for d in range(30)]
    words = [w for t in topics for w in t] + ["never", "seen"]
    corpus = build_token_corpus(docs, {w: i for i, w in enumerate(words)})
    vectors = rng.normal(size=(len(words), 8)).astype(np.float32)
    cfg = configured(NWSConfig, "nws", neg=2, batch_size=8, epochs=2, optimizer="adagrad", lr=0.1, lr_floor=1.0,
                     seed=3, device="cpu")
    before = SalienceEncoder(vectors, init_low=cfg.init_low, init_high=cfg.init_high, seed=3).saliences.detach()
    after, stats = train_neural_word_salience(corpus, vectors, cfg, progress=False)
    after = torch.from_numpy(after)
    assert torch.equal(after[-2:], before[-2:])
    assert not torch.allclose(after[:-2], before[:-2])
    assert math.isfinite(stats["final_loss"])


def test_sentence_frequency_isf_and_sif_by_hand():
    # a=0 b=1 c=2 d=3 (d never occurs): sentences "a a b", "b c", "a"
    corpus = build_token_corpus([[["a", "a", "b"], ["b", "c"]], [["a"]]], {"a": 0, "b": 1, "c": 2, "d": 3})
    sf = corpus.sentence_frequencies(4, chunk_sentences=2)
    assert sf.tolist() == [2, 2, 1, 0]
    np.testing.assert_allclose(isf_weights(sf), [0.5, 0.5, 1.0, 0.0])
    np.testing.assert_allclose(log_isf_weights(sf, 3), [math.log(1.5), math.log(1.5), math.log(3.0), 0.0], rtol=1e-6)
    counts = np.array([3, 2, 1, 0])  # p = 1/2, 1/3, 1/6, 0
    np.testing.assert_allclose(sif_weights(counts, a=0.1), [0.1 / 0.6, 0.1 / (0.1 + 1 / 3), 0.1 / (0.1 + 1 / 6), 1.0],
                               rtol=1e-6)
    with pytest.raises(SentembError, match="a must be positive"):
        sif_weights(counts, a=0)
    with pytest.raises(SentembError, match="exceeds"):
        log_isf_weights(sf, 1)


def test_component_removal():
    rng = np.random.default_rng(0)
    u = np.array([3.0, 4.0, 0.0]) / 5
    emb = (rng.normal(size=(200, 1)) * 10 + 20) * u + rng.normal(size=(200, 3)) * 0.1
    emb = np.vstack([emb, np.zeros((1, 3))]).astype(np.float32)  # a sentence with no known word is ignored
    pc = first_principal_component(emb)
    assert abs(abs(pc @ u) - 1) < 1e-3
    out = remove_component(emb, pc)
    np.testing.assert_allclose(out @ pc, 0, atol=1e-4)
    np.testing.assert_array_equal(out[-1], 0)


def test_usif_weights_by_hand():
    """V = 4 words, p = (.97, .01, .01, .01), n = 2: the threshold 1 − (3/4)² = 0.4375 leaves one word above it, so
    α = 1/4, Z = V/2 = 2, a = (1 − α)/(α Z) = 1.5 and q = a/(a/2 + p) (Ethayarajh 2018; the authors' usif.py)."""
    weights, a = usif_weights(np.array([97, 1, 1, 1]), mean_length=2)
    assert a == pytest.approx(1.5)
    np.testing.assert_allclose(weights, [1.5 / 1.72, 1.5 / 0.76, 1.5 / 0.76, 1.5 / 0.76], rtol=1e-6)
    with pytest.raises(SentembError, match="no word is more probable than the threshold"):
        usif_weights(np.array([1, 1, 1, 1]), mean_length=2)  # p = 1/4 < 0.4375 everywhere: α = 0
    with pytest.raises(SentembError, match="mean sentence length must be positive"):
        usif_weights(np.array([97, 1, 1, 1]), mean_length=0)


def test_usif_removes_the_first_components_weighted_by_their_singular_values():
    """The authors' loop, v ← v − λ_i (v·u_i) u_i for i = 1 … m with λ_i = σ_i² / Σ_{j≤m} σ_j² and u_i the right
    singular vectors (TruncatedSVD, not centred), computed here from numpy's SVD, equals one removal of the scaled
    components."""
    rng = np.random.default_rng(1)
    e = (rng.normal(size=(300, 6)) * [5, 3, 2, 1, 1, 1] + rng.normal(size=6)).astype(np.float32)
    m = 3
    _, sigma, vt = np.linalg.svd(e.astype(np.float64), full_matrices=False)
    expected = e.astype(np.float64)
    for i in range(m):
        lam = sigma[i] ** 2 / (sigma[:m] ** 2).sum()
        expected = expected - lam * np.outer(expected @ vt[i], vt[i])
    c = weighted_principal_components(e, m)
    assert c.shape == (m, 6) and c.dtype == np.float32
    np.testing.assert_allclose(remove_component(e, c), expected, rtol=1e-4, atol=1e-4)
    assert not weighted_principal_components(np.zeros((4, 6)), m).any()


def test_usif_model_fits_its_components_per_call_and_round_trips(tmp_path):
    vocab = Vocabulary(["the", "cat", "sat", "mat"], np.array([10, 3, 2, 1]))
    vectors = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 1, 1]], dtype=np.float32)
    save_word_averaging_model(tmp_path / "vec", "vec", WordVectors(vocab, vectors), TEXT, info={})
    weights = np.array([0.5, 1.0, 2.0, 3.0])
    save_weighted_average_model(tmp_path / "vec-usif", "vec-usif", tmp_path / "vec", vocab.words, weights,
                                TEXT, "usif", "per_set", info={}, components=2, component_weighting="singular_values")
    model = load_model(tmp_path / "vec-usif")
    assert (model.components, model.component_weighting) == (2, "singular_values")
    sentences = ["the cat", "the mat sat", "cat sat", "mat"]
    plain = model.weighted_average(sentences)
    np.testing.assert_allclose(model.encode(sentences),
                               remove_component(plain, weighted_principal_components(plain, 2)), rtol=1e-6)
    # a model saved before uSIF (no components, no weighting in its config) is one line naming the key
    config = (tmp_path / "vec-usif" / "config.json").read_text()
    (tmp_path / "vec-usif" / "config.json").write_text(config.replace('"components": 2,', ""))
    with pytest.raises(SentembError, match=r"vec-usif/config\.json: components"):
        load_model(tmp_path / "vec-usif")


def test_per_dimension_normalisation_is_the_usif_authors_formula():
    """usif.py's _to_vec: v_t = the sentence's word vectors (n, d); v_t /= np.linalg.norm(v_t, axis=0); each row times
    its word's weight; the mean of the rows. Repeated words count twice in the norm and the mean."""
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(20, 6)).astype(np.float32)
    weights = rng.uniform(0.1, 2, size=20).astype(np.float32)
    sentences = [rng.integers(0, 20, n) for n in (1, 4, 7, 0, 3)] + [np.array([5, 5, 2])]
    expected = []
    for ids in sentences:
        if len(ids) == 0:
            expected.append(np.zeros(6))
            continue
        v_t = vectors[ids].astype(np.float64)
        v_t = v_t * (1.0 / np.linalg.norm(v_t, axis=0))
        expected.append(np.mean([weights[w] * v_t[i] for i, w in enumerate(ids)], axis=0))
    lengths = np.array([len(x) for x in sentences])
    got = segment_mean(vectors, np.concatenate(sentences), lengths, weights=weights, per_dimension_norm=True)
    np.testing.assert_allclose(got, np.array(expected), rtol=1e-5, atol=1e-6)
    # one word: every dimension becomes ±1, times its weight
    np.testing.assert_allclose(got[0], weights[sentences[0][0]] * np.sign(vectors[sentences[0][0]]), rtol=1e-6)
    # a dimension that is zero in every word of the sentence stays zero (the authors' code divides by zero there)
    vectors[:, 2] = 0
    got = segment_mean(vectors, np.concatenate(sentences), lengths, weights=weights, per_dimension_norm=True)
    assert np.isfinite(got).all() and not got[:, 2].any()


def test_usif_model_with_the_authors_normalisation_round_trips_and_is_not_exported(tmp_path):
    vocab = Vocabulary(["the", "cat", "sat", "mat"], np.array([10, 3, 2, 1]))
    vectors = np.array([[1, 0, 2], [0, 1, 0], [1, 1, 0], [0, 3, 1]], dtype=np.float32)
    save_word_averaging_model(tmp_path / "vec", "vec", WordVectors(vocab, vectors), TEXT, info={})
    save_weighted_average_model(tmp_path / "vec-usif", "vec-usif", tmp_path / "vec", vocab.words,
                                np.array([0.5, 1.0, 2.0, 3.0]), TEXT, "usif", "per_set", info={},
                                components=2, component_weighting="singular_values", normalisation="per_dimension")
    model = load_model(tmp_path / "vec-usif")
    assert model.normalisation == "per_dimension"
    plain = model.weighted_average(["the cat", "the mat sat"])
    # norms (1, 1, 2) over "the cat": the → (1, 0, 1) × 0.5, cat → (0, 1, 0) × 1, their mean
    np.testing.assert_allclose(plain[0], [0.25, 0.5, 0.25], rtol=1e-6)
    # without common-component removal, word vectors still cannot express it
    save_weighted_average_model(tmp_path / "vec-norm", "vec-norm", tmp_path / "vec", vocab.words,
                                np.array([0.5, 1.0, 2.0, 3.0]), TEXT, "usif", "none", info={},
                                normalisation="per_dimension")
    with pytest.raises(SentembError, match="normalises each dimension over the words of each sentence"):
        owned_word_vectors(load_model(tmp_path / "vec-norm"), "vec-norm")
    # a model saved before the key was added is one line naming it
    config = json.loads((tmp_path / "vec-usif" / "config.json").read_text())
    del config["normalisation"]
    (tmp_path / "vec-usif" / "config.json").write_text(json.dumps(config))
    with pytest.raises(SentembError, match=r"vec-usif/config\.json: normalisation"):
        load_model(tmp_path / "vec-usif")


def test_weighted_model_round_trip(tmp_path):
    vocab = Vocabulary(["the", "cat", "sat"], np.array([10, 3, 2]))
    vectors = np.array([[1, 0], [0, 1], [1, 1]], dtype=np.float32)
    text = TEXT
    save_word_averaging_model(tmp_path / "vec", "vec", WordVectors(vocab, vectors), text, info={})
    # weights in another order than the vectors and one for a word the base lacks: matched by word when saved
    save_weighted_average_model(tmp_path / "vec-w", "vec-w", tmp_path / "vec", ["sat", "the", "dog", "cat"],
                                np.array([2.0, 0.5, 9.0, 1.0]), text, "test", "none", info={})
    stored = np.load(tmp_path / "vec-w" / "weights.npy", allow_pickle=False)
    assert stored.dtype == np.float32 and stored.tolist() == [0.5, 1.0, 2.0]  # the base's order: the, cat, sat
    model = load_model(tmp_path / "vec-w")
    assert isinstance(model, WeightedAverageModel)
    np.testing.assert_allclose(model.encode(["The cat", "sat dog", "dog"]),
                               [[0.25, 0.5], [2.0, 2.0], [0.0, 0.0]])
    # the same weights in the vectors' own order (every model sentemb saves): the same model
    save_weighted_average_model(tmp_path / "vec-o", "vec-o", tmp_path / "vec", vocab.words, np.array([0.5, 1.0, 2.0]),
                                text, "test", "none", info={})
    np.testing.assert_array_equal(load_model(tmp_path / "vec-o").weights, model.weights)
    save_weighted_average_model(tmp_path / "pc", "pc", tmp_path / "vec", vocab.words, np.ones(3), text,
                                "test", "corpus", info={}, component=np.array([1.0, 0.0]))
    np.testing.assert_allclose(load_model(tmp_path / "pc").encode(["the cat"]), [[0.0, 0.5]])
    save_weighted_average_model(tmp_path / "per-set", "per-set", tmp_path / "vec", vocab.words, np.ones(3),
                                text, "test", "per_set", info={})
    res = CliRunner().invoke(app, ["similarity", str(tmp_path / "per-set"), "the cat", "the sat"])
    assert res.exit_code == 1 and "with two sentences that component is meaningless" in res.output
    with pytest.raises(SentembError, match=r"vec-w: 2 weights for 3 words"):
        save_weighted_average_model(tmp_path / "vec-w", "vec-w", tmp_path / "vec", vocab.words, np.ones(2), text,
                                    "test", "none", info={})
    # the base retrained on another vocabulary of the same size: refused, not weighted row by row
    save_word_averaging_model(tmp_path / "vec", "vec", WordVectors(Vocabulary(["the", "sat", "cat"], vocab.counts),
                                                                   vectors), text, info={})
    with pytest.raises(SentembError, match=r"vec-w/config\.json: vocabulary_crc32: the words of .*vec are not"):
        load_model(tmp_path / "vec-w")


def test_norms_loaders_read_every_staged_file(shared):
    norms = load_norms(shared / "norms")
    sizes = norms.groupby(["source", "norm"]).size()
    # Warriner: 13,915 lemmas less 102 multi-word entries and 10 that repeat when lower-cased
    assert sizes[("Warriner", "valence")] == 13_803
    assert sizes[("MRC", "concreteness")] == 4_293 and sizes[("MRC", "imageability")] == 4_825  # PROVENANCE counts
    assert sizes[("Brysbaert", "concreteness")] == 37_058  # single words, bigrams dropped
    assert sizes[("Glasgow", "imageability")] == 4_682  # 5,553 rows less 871 word senses such as "bank (money)"
    assert norms["word"].str.islower().mean() > 0.99
    r = norm_correlations(["aardvark", "abalone", "zzz"], np.array([1.0, 2.0, 3.0]), norms)
    row = r[(r["source"] == "Warriner") & (r["norm"] == "valence")].iloc[0]
    assert row["words"] == 2 and row["pearson"] == 0.0  # two words: too few for a correlation


def test_norms_errors_name_the_file(tmp_path):
    with pytest.raises(SentembError, match=r"Ratings_Warriner_et_al\.csv\.xz: missing norms file"):
        load_norms(tmp_path)


def test_common_component_by_the_gram_matrix_is_the_svd_vector():
    """SIF's u from eigh(EᵀE) is the first right singular vector of E (up to sign), zero rows or not."""
    rng = np.random.default_rng(0)
    e = rng.normal(size=(500, 40)) + rng.normal(size=40)  # a common direction, as in sentence embeddings
    e[::7] = 0
    u = first_principal_component(e)
    vt = np.linalg.svd(e[np.any(e != 0, axis=1)], full_matrices=False)[2][0]
    assert u.dtype == np.float32 and abs(abs(float(u @ vt)) - 1) < 1e-6
    assert not first_principal_component(np.zeros((3, 4))).any()
