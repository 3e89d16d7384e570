"""Using a trained model outside the benchmarks: embed a text file, find nearest neighbours, export word vectors.

Every saved model (``sentemb.models.load_model``) encodes raw sentences with its own tokenisation. This module adds
what the ``sentemb`` command needs around that: reading one sentence a line with clear errors, embedding in batches
into a ``.npy`` file without holding the whole file in memory, cosine nearest neighbours, and the word vectors a
model owns, exported in the word2vec format (gensim's ``KeyedVectors.save_word2vec_format``).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors
from tqdm.auto import tqdm

from sentemb.atomic import atomic_open, atomic_path
from sentemb.errors import SentembError
from sentemb.models import SentenceEncoder, keyed_vectors


def read_lines(path: str | Path) -> Iterator[str]:
    """The lines of a UTF-8 text file (``-``: standard input), without their line ends, streamed.

    Raises:
        SentembError: a missing file, a directory, or a line that is not valid UTF-8 (naming the line).
    """
    if str(path) == "-":
        stream, name = sys.stdin.buffer, "<stdin>"
    else:
        p = Path(path)
        if not p.is_file():
            raise SentembError(f"{p}: {'is a directory' if p.is_dir() else 'missing input file'}")
        stream, name = open(p, "rb"), str(p)  # noqa: SIM115 (closed below)
    try:
        for number, raw in enumerate(stream, start=1):
            try:
                yield raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as e:
                raise SentembError(f"{name}:{number}: not valid UTF-8 ({e.reason} at byte {e.start})") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _batches(lines: Iterable[str], size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def refuse_per_set_component(model: SentenceEncoder, model_name: str | Path, why: str) -> None:
    """Refuse a model whose embeddings depend on how sentences are grouped into calls: SIF with its common component
    fitted on the sentences of each ``encode`` call (``component_fit="per_set"``).

    Args:
        why: what the caller does that this breaks, for the message.

    Raises:
        SentembError: naming the model and the params switch that builds a usable one.
    """
    if getattr(model, "component_fit", None) == "per_set":
        raise SentembError(
            f"{model_name}: this model removes a common component fitted on the sentences of each call (SIF, per "
            f"evaluation set); {why}. Build it with `dvc exp run -S baselines.component_fit=corpus` (component_fit "
            "'corpus') instead")


def embed_lines(model: SentenceEncoder, lines: Iterable[str], output: str | Path, batch_size: int = 10_000,
                progress: bool = True, model_name: str | Path = "model") -> int:
    """Embed sentences in batches into a ``.npy`` file, written atomically.

    Args:
        model: a loaded model.
        lines: one raw sentence each (an empty one embeds to zeros).
        output: the ``.npy`` file: float32, shape (n, dim), row i the i-th sentence.
        batch_size: sentences encoded at a time (memory: one batch of text and embeddings).
        progress: a tqdm progress bar in sentences.
        model_name: how errors name the model.

    Returns:
        n, the number of sentences.

    Raises:
        SentembError: no sentence at all, a model whose embeddings depend on the batch (SIF per set), or a
            reading error of ``lines``.
    """
    refuse_per_set_component(model, model_name, "its embeddings would depend on how the text is batched")
    n, dim = 0, None
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=output.parent) as rows:  # raw float32 rows, until n is known
        bar = tqdm(unit="sentence", disable=not progress, mininterval=1, delay=1, desc="embed")
        for batch in _batches(lines, batch_size):
            emb = np.ascontiguousarray(model.encode(batch), dtype=np.float32)
            dim = emb.shape[1]
            rows.write(emb.tobytes())
            n += len(batch)
            bar.update(len(batch))
        bar.close()
        if n == 0:
            raise SentembError("no sentence to embed: the input is empty")
        rows.seek(0)
        with atomic_open(output, "wb") as fh:
            np.lib.format.write_array_header_1_0(fh, {"descr": "<f4", "fortran_order": False, "shape": (n, dim)})
            shutil.copyfileobj(rows, fh)
    return n


def nearest_sentences(model: SentenceEncoder, query: str, corpus: Iterable[str], k: int = 10,
                      batch_size: int = 10_000, model_name: str | Path = "model") -> list[tuple[float, int, str]]:
    """The ``k`` sentences of ``corpus`` most similar to ``query`` under cosine similarity of their embeddings.

    Sentences with no known word (a zero embedding, where the cosine is undefined) are never returned.

    Returns:
        ``(cosine, line number from 1, sentence)``, most similar first.

    Raises:
        SentembError: ``k`` < 1, a query with no word the model knows, an empty corpus, or a batch-dependent model.
    """
    if k < 1:
        raise SentembError(f"k must be at least 1, got {k}")
    refuse_per_set_component(model, model_name, "its embeddings would depend on how the corpus is batched")
    q = model.encode([query])[0].astype(np.float64)
    if not np.any(q):
        raise SentembError(f"the query {query!r} has no word the model knows")
    q /= np.linalg.norm(q)
    best: list[tuple[float, int, str]] = []
    seen = 0
    for batch in _batches(corpus, batch_size):
        emb = model.encode(batch).astype(np.float64)
        norms = np.linalg.norm(emb, axis=1)
        cos = np.where(norms > 0, emb @ q / np.where(norms > 0, norms, 1.0), -np.inf)
        top = np.argsort(-cos, kind="stable")[:k]
        best += [(float(cos[i]), seen + int(i) + 1, batch[i]) for i in top if np.isfinite(cos[i])]
        best = sorted(best, key=lambda r: (-r[0], r[1]))[:k]
        seen += len(batch)
    if seen == 0:
        raise SentembError("the corpus is empty")
    return best


def word_vectors(model: SentenceEncoder, model_name: str | Path = "model") -> tuple[KeyedVectors, str]:
    """The word vectors a model owns, as gensim ``KeyedVectors`` in the model's vocabulary order.

    - word-averaging models (word2vec, GloVe, Siamese CBOW, PARAGRAM, controls): their vectors;
    - weighted models (NWS, ISF, SIF): each vector multiplied by its weight q_w (Bollegala et al. Eq. 1), so that
      the plain mean of the exported vectors is the model's sentence embedding; a model that also removes a common
      component (SIF-PC) cannot be expressed so and is refused;
    - paraphrastic models (Wieting et al.): the word embeddings the encoder composes (for AVG, the mean of the
      exported vectors is the model's embedding; for the others they are its input vectors).

    Returns:
        ``(vectors, what)``: ``what`` says which of the above, for the user.

    Raises:
        SentembError: a model without word vectors of its own, or one with common-component removal.
    """
    encoder = getattr(model, "encoder", None)
    if encoder is not None and hasattr(model, "index"):  # paraphrastic
        weights = encoder.embedding.weight.detach().float().cpu().numpy()
        words = sorted(model.index, key=model.index.__getitem__)
        kind = "the word embeddings of the paraphrastic encoder" + (
            "" if type(encoder).__name__ == "AverageComposition" else " (its input vectors)")
        return keyed_vectors(words, np.zeros(len(words), dtype=np.int64), weights), kind
    vectors = getattr(model, "vectors", None)
    if not isinstance(vectors, KeyedVectors):
        raise SentembError(f"{model_name}: a {type(model).__name__} has no word vectors of its own")
    weights = getattr(model, "weights", None)
    if weights is None:
        return vectors, "the model's word vectors"
    if getattr(model, "component_fit", "none") != "none":
        raise SentembError(f"{model_name}: this model removes a common component from every sentence embedding "
                           "(SIF-PC), which word vectors cannot express; export its weights' model without it")
    counts = vectors.expandos.get("count", np.zeros(len(vectors), dtype=np.int64))
    baked = vectors.vectors * np.asarray(weights, dtype=np.float32)[:, None]
    return keyed_vectors(vectors.index_to_key, counts, baked), "the word vectors × their weights q_w (baked in)"


def export_word2vec(model: SentenceEncoder, output: str | Path, binary: bool = False,
                    model_name: str | Path = "model") -> str:
    """Write the model's word vectors (:func:`word_vectors`) in the word2vec text (or binary) format, atomically.

    Returns:
        What was written, for the user (count, dimension, what the vectors are).
    """
    vectors, what = word_vectors(model, model_name)
    with atomic_path(output) as tmp:
        vectors.save_word2vec_format(str(tmp), binary=binary, write_header=True)
    return f"{len(vectors)} words × {vectors.vector_size} d, {what}"
