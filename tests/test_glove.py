import numpy as np
import pytest
import scipy.sparse as sp
import torch

from sentemb.data.corpus import build_token_corpus
from sentemb.errors import SentembError
from sentemb.wordvectors.glove import cooccurrence_matrix, glove_weight, train_glove


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
    x = torch.tensor([1.0, 50.0, 100.0, 400.0])
    np.testing.assert_allclose(glove_weight(x, 100.0, 0.75).numpy(), [0.01**0.75, 0.5**0.75, 1.0, 1.0], rtol=1e-6)


def test_loss_falls_on_a_tiny_corpus():
    rng = np.random.default_rng(1)
    topics = [[f"t{k}w{j}" for j in range(8)] for k in range(3)]
    docs = [[list(rng.choice(topics[d % 3], 6)) for _ in range(20)] for d in range(30)]
    vocab = {w: i for i, w in enumerate(w for t in topics for w in t)}
    x = cooccurrence_matrix(build_token_corpus(docs, vocab), len(vocab), window=3)
    vectors, stats = train_glove(x, dim=10, epochs=20, batch_size=64, x_max=10.0)
    assert vectors.shape == (24, 10) and vectors.dtype == np.float32
    losses = stats["losses"]
    assert losses[-1] < 0.2 * losses[0]
    # words of one topic end up closer to each other than to the other topics' words
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    sims = unit @ unit.T
    same = np.mean([sims[i, j] for i in range(24) for j in range(24) if i != j and i // 8 == j // 8])
    other = np.mean([sims[i, j] for i in range(24) for j in range(24) if i // 8 != j // 8])
    assert same > other + 0.3


def test_bad_input_is_named():
    with pytest.raises(SentembError, match="square"):
        train_glove(sp.csr_matrix(np.ones((2, 3))), dim=2)
    with pytest.raises(SentembError, match="empty"):
        train_glove(sp.csr_matrix((3, 3)), dim=2)
    with pytest.raises(SentembError, match="epochs must be positive"):
        train_glove(sp.csr_matrix(np.ones((2, 2))), dim=2, epochs=0)
    empty = build_token_corpus([[["zz"]]], {"a": 0})
    with pytest.raises(SentembError, match="no in-vocabulary token"):
        cooccurrence_matrix(empty, 1)
