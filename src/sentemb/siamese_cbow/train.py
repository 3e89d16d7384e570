"""Train Siamese CBOW word vectors (Kenter et al. 2016 §2-3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sentemb.adjacent import AdjacentSentenceConfig, train_adjacent_sentences
from sentemb.data.corpus import TokenCorpus
from sentemb.errors import SentembError
from sentemb.siamese_cbow.encoder import AverageEncoder


def train_siamese_cbow(
    corpus: TokenCorpus, vocab_size: int, config: AdjacentSentenceConfig, dim: int = 300, init_std: float = 0.01,
    log_path: str | Path | None = None, progress: bool = True,
) -> tuple[np.ndarray, dict]:
    """Word vectors whose sentence averages predict adjacent sentences (Kenter et al. 2016 §2.1, cosine softmax).

    Args:
        corpus: the token-id corpus (ids in [0, vocab_size)).
        vocab_size: V.
        config: the adjacent-sentence hyperparameters (``similarity`` must be ``"cosine"``, the paper's).
        dim: d (paper: 300).
        init_std: initial vectors drawn from N(0, init_std²) (§3.4: 0.01), seeded by ``config.seed``.
        log_path: CSV loss log.

    Returns:
        ``(vectors, stats)``: float32 (V, dim), row i the vector of word id i; the training statistics of
        :func:`~sentemb.adjacent.train_adjacent_sentences`.

    Raises:
        SentembError: a similarity other than cosine, an empty corpus or a bad device.
    """
    if config.similarity != "cosine":
        raise SentembError(f"Siamese CBOW scores sentences by cosine (got similarity {config.similarity!r})")
    encoder = AverageEncoder(vocab_size, dim, init_std=init_std, seed=config.seed)
    stats = train_adjacent_sentences(encoder, corpus, config, log_path=log_path, progress=progress)
    return encoder.embedding.weight.detach().cpu().numpy(), stats
