"""The word vectors a model owns, for use outside sentemb: in memory (:func:`owned_word_vectors`) and in the word2vec
format (:func:`export_word2vec`, gensim's ``save_word2vec_format``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sentemb.core.atomic import atomic_path
from sentemb.core.errors import SentembError
from sentemb.core.models import SentenceEncoder
from sentemb.core.models.word_vectors import WordVectors


def owned_word_vectors(model: SentenceEncoder, model_name: str | Path = "model") -> tuple[WordVectors, str]:
    """The word vectors a model owns, in the model's vocabulary order.

    - word-averaging models (word2vec, GloVe, Siamese CBOW, PARAGRAM, controls): their vectors;
    - weighted models (NWS, ISF, SIF): each vector multiplied by its weight q_w (Bollegala et al. Eq. 1), so that
      the plain mean of the exported vectors is the model's sentence embedding; a model that also removes a common
      component (SIF-PC) cannot be expressed so and is refused;
    - paraphrastic models (Wieting et al.): the word embeddings the encoder composes (for AVG, the mean of the
      exported vectors is the model's embedding; for the others they are its input vectors).

    Returns:
        ``(vectors, what)``: ``what`` says which of the above, for the user.

    Raises:
        SentembError: a model without word vectors of its own, or one with common-component removal or per-dimension
            normalisation.
    """
    composition = getattr(model, "composition", None)
    if composition is not None:  # paraphrastic
        weights = model.embedding.full()
        words = sorted(model.index, key=model.index.__getitem__)
        kind = "the word embeddings of the paraphrastic encoder" + (
            "" if composition.encoder == "avg" else " (its input vectors)")
        return WordVectors.from_arrays(words, np.zeros(len(words), dtype=np.int64), weights), kind
    vectors = getattr(model, "vectors", None)
    if not isinstance(vectors, WordVectors):
        raise SentembError(f"{model_name}: a {type(model).__name__} has no word vectors of its own")
    weights = getattr(model, "weights", None)
    if weights is None:
        return vectors, "the model's word vectors"
    if getattr(model, "component_fit", "none") != "none":
        raise SentembError(f"{model_name}: this model removes a common component from every sentence embedding "
                           "(SIF-PC), which word vectors cannot express; export its weights' model without it")
    if getattr(model, "normalisation", "none") != "none":
        raise SentembError(f"{model_name}: this model normalises each dimension over the words of each sentence "
                           "(uSIF's usif_normalisation: per_dimension), which word vectors cannot express")
    baked = vectors.vectors * np.asarray(weights, dtype=np.float32)[:, None]
    return WordVectors(vectors.vocab, baked), "the word vectors × their weights q_w (baked in)"


def export_word2vec(model: SentenceEncoder, output: str | Path, binary: bool = False,
                    model_name: str | Path = "model") -> str:
    """Write the model's word vectors (:func:`owned_word_vectors`) in the word2vec text (or binary) format, atomically.

    Returns:
        What was written, for the user (count, dimension, what the vectors are).
    """
    vectors, what = owned_word_vectors(model, model_name)
    with atomic_path(output) as tmp:
        vectors.keyed_vectors().save_word2vec_format(str(tmp), binary=binary, write_header=True)
    return f"{len(vectors)} words × {vectors.dim} d, {what}"
