"""Static students (model2vec's distillation): each word encoded alone by the teacher, PCA, SIF weights; the student of
an averaging encoder is the teacher, that of a recurrent one is not."""

from helpers import TEXT, TOY_VECTORS, TOY_WORDS, composition, toy_models

import numpy as np
import pytest

from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models import load_model
from sentemb.core.models.word_averaging import WordAveragingModel
from sentemb.core.models.word_vectors import WordVectors
from sentemb.distillation.config import StudentConfig
from sentemb.distillation.static_student import distil, principal_components

PLAIN = StudentConfig(pca_dims=None, sif_coefficient=None)
SENTENCES = ["a man plays guitar", "the woman sings", "dog runs", "a dog plays", "guitar"]


def _student(vectors: WordVectors) -> WordAveragingModel:
    return WordAveragingModel("student", vectors, TEXT)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """The toy models (helpers.toy_models) and an AVG paraphrastic encoder over the same vectors, all saved."""
    import torch

    from sentemb.paraphrastic.composition import build_composition
    from sentemb.paraphrastic.model import save_paraphrastic_model

    root = toy_models(tmp_path_factory.mktemp("models"))
    torch.manual_seed(0)
    avg = composition("avg")
    vectors = np.array(TOY_VECTORS, dtype=np.float32)
    encoder = build_composition(avg, vectors[[1, 2, 3]] * 2 + 0.25, sparse=False)
    save_paraphrastic_model(root / "para-avg", "para-avg", encoder, ["man", "plays", "guitar"], avg, root / "avg",
                            TEXT, info={})
    return root


def test_the_plain_student_of_an_averaging_encoder_is_the_encoder(models):
    teacher = load_model(models / "para-avg")
    vocab = Vocabulary(TOY_WORDS, np.arange(len(TOY_WORDS), 0, -1))
    student, record = distil(teacher, vocab, PLAIN)
    assert record == {"teacher": "para-avg", "words": len(TOY_WORDS), "left_out": 0, "pca_dims": None,
                      "sif_coefficient": None}
    np.testing.assert_allclose(_student(student).encode(SENTENCES), teacher.encode(SENTENCES), rtol=1e-6, atol=1e-7)


def test_the_student_of_a_recurrent_encoder_keeps_each_word_alone_not_the_sentence(models):
    teacher = load_model(models / "gran")
    student = _student(distil(teacher, Vocabulary(TOY_WORDS, np.ones(len(TOY_WORDS))), PLAIN)[0])
    words = ["man", "guitar", "dog"]
    np.testing.assert_allclose(student.encode(words), teacher.encode(words), rtol=1e-5, atol=1e-6)
    sentence = ["a man plays guitar"]  # the recurrence (gates that read the previous state) is what a student lacks
    assert not np.allclose(student.encode(sentence), teacher.encode(sentence), rtol=1e-4, atol=1e-6)


def test_words_the_teacher_cannot_encode_are_left_out_and_pca_keeps_at_most_its_dimension(models):
    teacher = load_model(models / "avg")
    student, record = distil(teacher, Vocabulary([*TOY_WORDS, "unheard"], np.arange(9, 0, -1)), PLAIN)
    assert student.words == TOY_WORDS and record["left_out"] == 1
    with pytest.raises(SentembError, match="encodes none of the 2 words"):
        distil(teacher, Vocabulary(["unheard", "unseen"], np.ones(2)), PLAIN)
    student, record = distil(teacher, Vocabulary(TOY_WORDS, np.ones(len(TOY_WORDS))),
                             StudentConfig(pca_dims=4, sif_coefficient=None))
    assert student.dim == 3 and record["pca_dims"] == 3  # at most the teacher's dimension, as model2vec


def test_pca_keeps_the_leading_components_with_fixed_signs():
    rng = np.random.default_rng(0)
    table = rng.normal(size=(500, 6)) @ rng.normal(size=(6, 6)) + 3.0
    projected = principal_components(table, 3)
    assert projected.shape == (500, 3)
    np.testing.assert_allclose(projected.mean(0), 0, atol=1e-9)
    gram = projected.T @ projected
    np.testing.assert_allclose(gram - np.diag(np.diag(gram)), 0, atol=1e-6)  # uncorrelated components
    assert np.all(np.diff(np.diag(gram)) < 0)  # by decreasing variance
    _, s, _ = np.linalg.svd(table - table.mean(0), full_matrices=False)
    np.testing.assert_allclose(np.sqrt(np.diag(gram)), s[:3], rtol=1e-9)  # the SVD's leading singular values
    flipped = principal_components(-table, 3)
    np.testing.assert_allclose(np.abs(flipped), np.abs(projected), rtol=1e-9)
    np.testing.assert_array_equal(principal_components(table, 3), projected)  # the same bytes on a rerun


def test_sif_weights_scale_each_row_by_its_frequency(models):
    teacher = load_model(models / "avg")
    counts = np.array([1000, 10, 10, 10, 1, 1, 1, 1])
    plain = distil(teacher, Vocabulary(TOY_WORDS, counts), PLAIN)[0]
    weighted = distil(teacher, Vocabulary(TOY_WORDS, counts), StudentConfig(pca_dims=None, sif_coefficient=1e-2))[0]
    a, p = 1e-2, counts / counts.sum()
    np.testing.assert_allclose(weighted.vectors, plain.vectors * (a / (a + p))[:, None], rtol=1e-6)
    assert np.linalg.norm(weighted.vectors[0]) < 0.02 * np.linalg.norm(plain.vectors[0])  # "a": nearly gone
