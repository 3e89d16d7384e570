"""control@NAME: models that need no training, to show how much of a score comes from training (Kenter et al. 2016's
setting; issue "faithful trainers"). Each is a word-averaging model over the shared vocabulary → models/NAME/:

- ``untrained-K``: Siamese CBOW's initialisation, N(0, init_std²) drawn with seed K (``untrained-1`` is where
  ``siamese_cbow`` starts from; K = 1…5 give the spread over seeds);
- ``untrained-frequent``: seed 1, with the vectors of the ``frequent_words`` most frequent words scaled by
  ``frequent_scale`` (the short stop-word vectors a trained model ends with, and nothing else);
- ``untrained-idf``: seed 1, every vector scaled by log(N / sf(w)), N sentences, sf(w) the sentences with w: the
  average of these vectors is the IDF-weighted average of the random ones.
"""

import re

import numpy as np
from pydantic import ConfigDict, PositiveFloat, PositiveInt

from sentemb.data.corpus import TokenCorpus
from sentemb.data.vocab import Vocabulary
from sentemb.errors import SentembError
from sentemb.models import keyed_vectors, save_word_averaging_model
from sentemb.siamese_cbow.encoder import AverageEncoder

from _common import Section, params, run, text_config


class Initialisation(Section):
    """``model.dim`` and ``model.init_std``: the controls start where Siamese CBOW does."""

    model_config = ConfigDict(extra="ignore")
    dim: PositiveInt = 300
    init_std: PositiveFloat = 0.01


class Controls(Section):
    frequent_words: PositiveInt = 100
    frequent_scale: PositiveFloat = 0.2


NAMES = re.compile(r"^untrained-(?:(?P<seed>[1-9]\d*)|(?P<kind>frequent|idf))$")


def main(name: str) -> None:
    match = NAMES.match(name)
    if match is None:
        raise SentembError(f"unknown control {name!r}; controls: untrained-K (seed K), untrained-frequent, "
                           "untrained-idf")
    init, p = params("model", Initialisation), params("controls", Controls)
    vocab = Vocabulary.load("data/vocab.tsv")
    seed = int(match["seed"] or 1)
    vectors = AverageEncoder(len(vocab), init.dim, init_std=init.init_std, seed=seed).embedding.weight.detach()
    vectors = vectors.numpy().copy()
    info: dict = {"control": name, "seed": seed, "init_std": init.init_std}
    if match["kind"] == "frequent":  # the vocabulary is ordered by descending count
        vectors[: p.frequent_words] *= p.frequent_scale
        info |= {"frequent_words": p.frequent_words, "frequent_scale": p.frequent_scale}
    elif match["kind"] == "idf":
        corpus = TokenCorpus.load("data/corpus")
        sf = corpus.sentence_frequencies(len(vocab))
        vectors *= np.log(corpus.n_sentences / np.maximum(sf, 1))[:, None].astype(np.float32)
        info |= {"sentences": corpus.n_sentences}
    save_word_averaging_model(f"models/{name}", name, keyed_vectors(vocab.words, vocab.counts, vectors),
                              text_config(), info=info)
    print(f"control {name}: {info}")


if __name__ == "__main__":
    run(main)
