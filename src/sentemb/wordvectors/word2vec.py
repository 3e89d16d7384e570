"""word2vec skip-gram / CBOW through gensim, on the shared vocabulary (Mikolov et al. 2013)."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from gensim.models import Word2Vec

from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models.word_vectors import WordVectors
from sentemb.wordvectors.config import Word2VecConfig

log = logging.getLogger(__name__)


def train_word2vec(corpus_file: str | Path, vocab: Vocabulary, total_words: int, config: Word2VecConfig
                   ) -> tuple[WordVectors, dict]:
    """Train word2vec (Mikolov et al. 2013) with gensim on a LineSentence file, over a fixed vocabulary.

    The vocabulary (and so ``min_count``) comes from the vocab stage, so every model shares it. Kenter et al.'s
    baselines (§3.2) are 300 d, window 5, sample 1e-5, 5 negatives, no hierarchical softmax.

    Args:
        corpus_file: one tokenised sentence per line (blank lines are empty sentences and are ignored).
        vocab: the words and their counts.
        total_words: tokens in ``corpus_file`` (in and out of vocabulary), for the learning-rate schedule.
        config: a ``pretrain.word2vec-*`` section (:class:`~sentemb.wordvectors.config.Word2VecConfig`).

    Returns:
        ``(vectors, stats)``: the word vectors in gensim's order (descending count); stats holds wall time in seconds
        and throughput in effective words/s.

    Raises:
        SentembError: missing corpus file.
    """
    if not Path(corpus_file).is_file():
        raise SentembError(f"{corpus_file}: missing sentence file for word2vec")
    alpha = config.alpha if config.alpha is not None else (0.025 if config.sg else 0.05)
    model = Word2Vec(
        vector_size=config.vector_size, window=config.window, sample=config.sample, negative=config.negative, hs=0,
        sg=config.sg, alpha=alpha, min_alpha=alpha * 1e-4, workers=config.workers, seed=config.seed, min_count=1,
    )
    model.build_vocab_from_freq(dict(zip(vocab.words, vocab.counts.tolist(), strict=True)))
    t0 = time.perf_counter()
    effective, raw = model.train(corpus_file=str(corpus_file), total_words=total_words, epochs=config.epochs)
    wall = time.perf_counter() - t0
    stats = {
        "wall_seconds": round(wall, 1),
        "raw_words": int(raw),
        "effective_words": int(effective),
        "effective_words_per_second": round(effective / wall),
        "raw_words_per_second": round(raw / wall),
    }
    wv = model.wv
    counts = [wv.get_vecattr(w, "count") for w in wv.index_to_key]
    return WordVectors.from_arrays(list(wv.index_to_key), counts, wv.vectors), stats
