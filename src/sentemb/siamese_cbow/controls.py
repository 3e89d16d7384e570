"""Models that need no training, to show how much of a score comes from training (Kenter et al. 2016's setting):
word-averaging models over the shared vocabulary that start where Siamese CBOW does.

- ``untrained-K``: Siamese CBOW's initialisation, N(0, init_std²) drawn with seed K (``untrained-1`` is where
  ``siamese_cbow`` starts from; K = 1…5 give the spread over seeds);
- ``untrained-frequent``: seed 1, with the vectors of the ``frequent_words`` most frequent words scaled by
  ``frequent_scale`` (the short stop-word vectors a trained model ends with, and nothing else);
- ``untrained-idf``: seed 1, every vector scaled by log(N / sf(w)), N sentences, sf(w) the sentences with w: the
  average of these vectors is the IDF-weighted average of the random ones.
"""

from __future__ import annotations

import re

import numpy as np

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.errors import SentembError
from sentemb.siamese_cbow.config import ControlsConfig, SiameseCBOWConfig
from sentemb.siamese_cbow.encoder import AverageEncoder

CONTROLS = re.compile(r"^untrained-(?:(?P<seed>[1-9]\d*)|(?P<kind>frequent|idf))$")


def untrained_vectors(name: str, corpus: TokenCorpus, vocab_size: int, model: SiameseCBOWConfig,
                      controls: ControlsConfig) -> tuple[np.ndarray, dict]:
    """The word vectors of the control ``name`` (the module docstring), rows in vocabulary order (descending count).

    Returns:
        ``(vectors, info)``: float32 (V, model.dim); what was drawn and scaled, for the model's record.

    Raises:
        SentembError: an unknown control name.
    """
    match = CONTROLS.match(name)
    if match is None:
        raise SentembError(f"unknown control {name!r}; controls: untrained-K (seed K), untrained-frequent, "
                           "untrained-idf")
    seed = int(match["seed"] or 1)
    vectors = AverageEncoder(vocab_size, model.dim, init_std=model.init_std, seed=seed).embedding.weight.detach()
    vectors = vectors.numpy().copy()
    info: dict = {"control": name, "seed": seed, "init_std": model.init_std}
    if match["kind"] == "frequent":
        vectors[: controls.frequent_words] *= controls.frequent_scale
        info |= {"frequent_words": controls.frequent_words, "frequent_scale": controls.frequent_scale}
    elif match["kind"] == "idf":
        sf = corpus.sentence_frequencies(vocab_size)
        vectors *= np.log(corpus.n_sentences / np.maximum(sf, 1))[:, None].astype(np.float32)
        info |= {"sentences": corpus.n_sentences}
    return vectors, info
