"""word2vec skip-gram / CBOW through gensim, on the shared vocabulary (Mikolov et al. 2013)."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from gensim.models import KeyedVectors, Word2Vec

from sentemb.data.vocab import Vocabulary
from sentemb.errors import SentembError

log = logging.getLogger(__name__)


def train_word2vec(
    corpus_file: str | Path,
    vocab: Vocabulary,
    total_words: int,
    *,
    sg: int,
    vector_size: int = 300,
    window: int = 5,
    sample: float = 1e-5,
    negative: int = 5,
    epochs: int = 5,
    alpha: float | None = None,
    workers: int = 2,
    seed: int = 1,
) -> tuple[KeyedVectors, dict]:
    """Train word2vec (Mikolov et al. 2013) with gensim on a LineSentence file, over a fixed vocabulary.

    The vocabulary (and so ``min_count``) comes from the vocab stage, so every model shares it. Defaults are
    Kenter et al.'s baselines (§3.2): 300 d, window 5, sample 1e-5, 5 negatives, no hierarchical softmax.

    Args:
        corpus_file: one tokenised sentence per line (blank lines are empty sentences and are ignored).
        vocab: the words and their counts.
        total_words: tokens in ``corpus_file`` (in and out of vocabulary), for the learning-rate schedule.
        sg: 1 for skip-gram, 0 for CBOW.
        alpha: initial learning rate (``None``: gensim's default, 0.025 for skip-gram and 0.05 for CBOW as in
            word2vec.c).

    Returns:
        ``(keyed_vectors, stats)``; stats holds wall time in seconds and throughput in effective words/s.

    Raises:
        SentembError: missing corpus file.
    """
    if not Path(corpus_file).is_file():
        raise SentembError(f"{corpus_file}: missing sentence file for word2vec")
    if alpha is None:
        alpha = 0.025 if sg else 0.05
    model = Word2Vec(
        vector_size=vector_size, window=window, sample=sample, negative=negative, hs=0, sg=sg,
        alpha=alpha, min_alpha=alpha * 1e-4, workers=workers, seed=seed, min_count=1,
    )
    model.build_vocab_from_freq(dict(zip(vocab.words, vocab.counts.tolist(), strict=True)))
    t0 = time.perf_counter()
    effective, raw = model.train(corpus_file=str(corpus_file), total_words=total_words, epochs=epochs)
    wall = time.perf_counter() - t0
    stats = {
        "wall_seconds": round(wall, 1),
        "raw_words": int(raw),
        "effective_words": int(effective),
        "effective_words_per_second": round(effective / wall),
        "raw_words_per_second": round(raw / wall),
    }
    return model.wv, stats
