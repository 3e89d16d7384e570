from helpers import TEXT

import numpy as np
import pytest
from typer.testing import CliRunner

from sentemb.cli import app
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models import load_model
from sentemb.core.models.word_averaging import WordAveragingModel, save_word_averaging_model
from sentemb.core.models.word_vectors import WordVectors


@pytest.fixture
def model_dir(tmp_path):
    vocab = Vocabulary(["a", "man", "plays", "guitar", "n't"], [9, 8, 7, 6, 5])
    vectors = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1]], dtype=np.float32)
    save_word_averaging_model(tmp_path / "m", "toy", WordVectors(vocab, vectors), TEXT, info={})
    return tmp_path / "m"


def test_saved_model_encodes_with_its_own_tokenisation(model_dir):
    m = load_model(model_dir)
    emb = m.encode(["A man PLAYS.", "isn't", "zebra"])
    assert emb.shape == (3, 3) and emb.dtype == np.float32
    assert emb[0].tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3])  # "." is unknown and dropped
    assert emb[1].tolist() == [0, 1, 1]  # treebank: is + n't
    assert emb[2].tolist() == [0, 0, 0]  # no known word: the zero vector


def test_unknown_words_get_a_fixed_random_vector_when_asked(model_dir):
    m = load_model(model_dir)
    m.oov = "random"  # the Siamese CBOW authors' evaluation: N(0, 0.01²) per unknown word, fixed
    emb = m.encode(["a man plays .", "zebra", "zebra", "a man plays"])
    dot = m.random_vector(".")
    assert dot.shape == (3,) and dot.dtype == np.float32 and np.array_equal(dot, m.random_vector("."))
    assert 0 < np.abs(dot).max() < 0.1 and not np.array_equal(dot, m.random_vector("zebra"))
    np.testing.assert_allclose(emb[0], (np.array([1, 1, 1], dtype=np.float32) + dot) / 4, rtol=1e-6)
    assert np.array_equal(emb[1], emb[2]) and np.array_equal(emb[1], m.random_vector("zebra"))
    np.testing.assert_allclose(emb[3], [1 / 3, 1 / 3, 1 / 3], rtol=1e-6)
    with pytest.raises(SentembError, match="unknown out-of-vocabulary mode 'ignore'"):
        type(m)("toy", m.vectors, m.text, oov="ignore")


def test_bad_model_directories_are_clear_errors(tmp_path, model_dir):
    with pytest.raises(SentembError, match="nothing: missing model directory"):
        load_model(tmp_path / "nothing")
    (model_dir / "config.json").write_text('{"type": "skip_thought"}')
    with pytest.raises(SentembError, match=r"config.json: type: expected one of word_average, weighted_average, "
                                           r"paraphrastic \(got 'skip_thought'\)"):
        load_model(model_dir)
    (model_dir / "config.json").write_text("{not json")
    with pytest.raises(SentembError, match=r"config.json:1: malformed JSON"):
        load_model(model_dir)


def test_cli_similarity(model_dir, tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["similarity", str(model_dir), "a man plays guitar", "a man plays guitar"])
    assert res.exit_code == 0 and res.stdout.strip() == "1.0000"
    res = runner.invoke(app, ["similarity", str(model_dir), "zebra", "a man"])
    assert res.exit_code == 0 and "no word in the model's vocabulary" in res.stdout
    res = runner.invoke(app, ["similarity", str(tmp_path / "missing"), "a", "b"])
    assert res.exit_code == 1 and res.output.endswith("missing: missing model directory\n")


def test_token_cache_gives_the_same_embeddings_as_tokenising(model_dir, tmp_path):
    """Evaluation reads the benchmark-tokens stage's file instead of tokenising: same tokens, same embeddings; a
    sentence outside the file, or another tokenisation, falls back to the tokeniser."""
    from sentemb.core.text import cache as text

    sentences = ["A man PLAYS guitar.", "isn't", "zebra", "", "a a man"]
    m = load_model(model_dir)
    plain = m.encode(sentences)
    assert text.write_token_cache(tmp_path / "tokens.json", sentences + sentences[:2], TEXT) == 5
    try:
        assert text.load_token_cache(tmp_path / "tokens.json") == 5
        assert text.cached_tokenize("isn't", TEXT) == ["is", "n't"]
        assert np.array_equal(m.encode(sentences), plain)
        np.testing.assert_allclose(m.encode(["a man"])[0], [0.5, 0.5, 0])  # not in the file: tokenised
        assert text.cached_tokenize("isn't", TEXT.model_copy(update={"tokenizer": "wordpunct"})) == ["isn", "'", "t"]
    finally:
        text._TOKEN_CACHE.clear()
    with pytest.raises(SentembError, match=r"missing token cache \(run `dvc repro benchmark-tokens`\)"):
        text.load_token_cache(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text('{"tokens": {}}')
    with pytest.raises(SentembError, match=r"bad.json: text.tokenizer: Field required"):
        text.load_token_cache(tmp_path / "bad.json")


def test_a_batch_encodes_as_its_sentences_one_by_one(model_dir, tmp_path):
    """Evaluation encodes a whole set at once: its tokens looked up as ids into the token table's types, each type
    in the vocabulary once, each distinct sentence averaged once. The same bytes as one sentence a call, with and
    without the token cache, unknown words dropped or given their random vectors."""
    from sentemb.core.text import cache as text

    sentences = ["A man PLAYS guitar.", "isn't", "zebra", "", "a a man", "isn't", "zebra guitar ."]
    m = load_model(model_dir)
    try:
        for cached in (False, True):
            if cached:
                text.write_token_cache(tmp_path / "tokens.json", sentences, TEXT)
                text.load_token_cache(tmp_path / "tokens.json")
            else:
                m.encode(sentences)
                assert TEXT not in text._TOKEN_CACHE  # no cache loaded: nothing kept
            for oov in ("drop", "random"):
                m.oov = oov
                one_by_one = np.vstack([m.encode([s]) for s in sentences])
                assert np.array_equal(m.encode(sentences), one_by_one), (cached, oov)
            types, type_ids, lengths = text.tokenize_batch(sentences, TEXT)
            assert lengths.tolist() == [len(text.tokenize(s, TEXT)) for s in sentences]
            assert [types[i] for i in type_ids] == [t for s in sentences for t in text.tokenize(s, TEXT)]
        held = len(text._TOKEN_CACHE[TEXT].types)
        m.encode(["a zebra and a unicorn", "isn't"])  # one sentence beyond the cache: the cache's table stays as it was
        assert len(text._TOKEN_CACHE[TEXT].types) == held and "unicorn" not in text._TOKEN_CACHE[TEXT].types
        rows, lengths = m.ids_and_lengths(sentences)
        assert lengths.tolist() == [4, 1, 0, 0, 3, 1, 1]
        assert [m.vectors.words[r] for r in rows[:5]] == ["a", "man", "plays", "guitar", "n't"]
        assert text.concatenated_ranges(np.array([5, 0, 9]), np.array([2, 0, 3])).tolist() == [5, 6, 9, 10, 11]
    finally:
        text._TOKEN_CACHE.clear()


def test_segment_mean_is_the_mean_of_each_sentence():
    from sentemb.core.models.word_averaging import segment_mean

    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(30, 5)).astype(np.float32)
    weights = rng.random(30).astype(np.float32)
    lengths = np.array([3, 0, 1, 6, 0, 2])
    ids = rng.integers(0, 30, lengths.sum())
    extra = rng.normal(size=(2, 5)).astype(np.float32)
    ids[4] = 31  # an unknown word's own vector (row 1 of extra)
    got = segment_mean(vectors, ids, lengths, weights=weights, extra=extra)
    table = np.vstack([vectors * weights[:, None], extra])
    starts = np.cumsum(lengths) - lengths
    want = [table[ids[s : s + n]].mean(axis=0) if n else np.zeros(5) for s, n in zip(starts, lengths, strict=True)]
    assert got.dtype == np.float32 and got.shape == (6, 5)
    np.testing.assert_allclose(got, np.array(want), rtol=1e-5, atol=1e-7)


def test_segment_mean_sums_each_sentence_word_after_word_in_float64():
    """Summed position by position over blocks of sentences, each sentence's sum is still x_0 + x_1 + … in float64,
    in its words' order: the same bytes as that loop, across more sentences than one block, weighted or not."""
    from sentemb.core.models import word_averaging

    rng = np.random.default_rng(3)
    vectors = (rng.normal(size=(50, 4)) * 10.0 ** rng.integers(-6, 6, (50, 1))).astype(np.float32)  # sums that round
    weights = rng.random(50).astype(np.float32)
    lengths = rng.integers(0, 9, word_averaging._BLOCK + 37)
    ids = rng.integers(0, 50, lengths.sum())
    starts = np.cumsum(lengths) - lengths
    for w in (None, weights):
        got = word_averaging.segment_mean(vectors, ids, lengths, weights=w)
        want = np.zeros_like(got)
        for i, (start, n) in enumerate(zip(starts, lengths, strict=True)):
            if n:
                rows = vectors[ids[start : start + n]] * (w[ids[start : start + n], None] if w is not None else 1)
                total = rows[0].astype(np.float64)
                for row in rows[1:]:
                    total = total + row.astype(np.float64)
                want[i] = total / n
        assert got.tobytes() == want.tobytes()


def test_both_oov_treatments_in_one_pass_are_each_treatments_bytes():
    """oov_means (evaluate@'s pass for a model scored both ways) gives exactly segment_mean's bytes for the known
    ids alone and for all ids: sentences empty, all unknown, with repeats, negative zeros among the vectors."""
    from sentemb.core.models.word_averaging import oov_means, segment_mean

    rng = np.random.default_rng(1)
    vectors = rng.normal(size=(40, 7)).astype(np.float32)
    vectors[3] = -0.0  # a row of negative zeros: the sum of a sentence of it alone stays −0.0
    extra = rng.normal(scale=0.01, size=(5, 7)).astype(np.float32)
    lengths = np.array([4, 0, 2, 700, 1, 0, 3, 9])  # 700: a sentence beyond one chunk of word rows
    ids = rng.integers(0, 45, lengths.sum())
    starts = np.cumsum(lengths) - lengths
    ids[starts[2] : starts[2] + 2] = [40, 44]  # a sentence of unknown words only
    ids[starts[4]] = 3
    ids[starts[6] : starts[6] + 3] = [3, 41, 3]
    drop, random = oov_means(vectors, ids, lengths, extra)
    known = ids < 40
    sentence = np.repeat(np.arange(len(lengths)), lengths)
    want_drop = segment_mean(vectors, ids[known], np.bincount(sentence[known], minlength=len(lengths)))
    want_random = segment_mean(vectors, ids, lengths, extra=extra)
    assert drop.tobytes() == want_drop.tobytes() and random.tobytes() == want_random.tobytes()
    assert np.signbit(drop[4]).all() and not drop[2].any() and not drop[1].any() and random[2].any()


def test_a_model_scored_both_ways_encodes_as_each_way():
    m = WordAveragingModel("toy", WordVectors(Vocabulary(["a", "man", "plays", "guitar"], [4, 3, 2, 1]),
                                              np.random.default_rng(2).normal(size=(4, 6)).astype(np.float32)), TEXT)
    sentences = ["A man plays guitar.", "A zebra plays", "Zebras!", "", "A man plays guitar.", "a man"]
    both = m.mean_vectors_by_oov(sentences)
    for oov in ("drop", "random"):
        m.oov = oov
        assert both[oov].tobytes() == m.encode(sentences).tobytes(), oov


def test_equal_vectors_are_saved_as_equal_bytes(tmp_path):
    """No date, platform or Python version goes into a saved model: a rerun with the same vectors leaves DVC an
    unchanged output; the files are a .npy array, the vocabulary and the config, nothing else."""
    vectors = WordVectors(Vocabulary(["a", "man"], [2, 1]), np.eye(2, dtype=np.float32))
    for run in ("one", "two"):
        save_word_averaging_model(tmp_path / run, "toy", vectors, TEXT, info={})
    assert sorted(p.name for p in (tmp_path / "one").iterdir()) == ["config.json", "vectors.npy", "vocab.tsv"]
    for name in ("vectors.npy", "vocab.tsv", "config.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name


@pytest.mark.parametrize("name", ["avg", "nws", "gran"])
def test_encode_takes_sentence_transformers_options_and_similarity_is_the_cosine(tmp_path, name, capsys):
    from helpers import toy_models

    from sentemb.core.models import load_model

    model = load_model(toy_models(tmp_path) / name)
    sentences = ["a man plays guitar", "zebra", "man plays", "a guitar", "plays a man"]
    whole = model.encode(sentences)
    assert whole.dtype == np.float32 and whole.shape == (5, model.dim)
    assert np.array_equal(model.encode(sentences, batch_size=2), whole)
    assert np.array_equal(model.encode("man plays"), whole[2])
    unit = model.encode(sentences, normalize_embeddings=True, show_progress_bar=True)
    norms = np.linalg.norm(unit, axis=1)
    assert np.allclose(norms[[0, 2, 3, 4]], 1.0, atol=1e-6) and norms[1] == 0  # "zebra": no known word, zeros
    assert "encode " + model.name in capsys.readouterr().err  # the bar
    sims = model.similarity(whole, whole[:2])
    assert sims.shape == (5, 2) and sims.dtype == np.float32
    assert np.allclose(sims, unit @ unit[:2].T, atol=1e-6)
    assert np.allclose(model.similarity(sentences, ["a man plays guitar"])[:, 0], sims[:, 0], atol=1e-6)


def test_a_model_fitted_per_call_refuses_batches(tmp_path):
    from helpers import toy_models

    from sentemb.core.errors import SentembError
    from sentemb.core.models import load_model

    model = load_model(toy_models(tmp_path) / "sif-pc")
    sentences = ["a man plays guitar", "man plays", "a guitar"]
    assert model.encode(sentences, batch_size=3).shape == (3, model.dim)  # one call
    with pytest.raises(SentembError, match="depend on the sentences of each call"):
        model.encode(sentences, batch_size=2)
