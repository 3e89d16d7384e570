"""train@MODEL: train a sentence encoder on the token-id corpus → models/MODEL/ and its loss log.

MODEL is siamese_cbow (params `model`) or VECTORS-nws, Neural Word Salience over models/VECTORS (params `nws`).
"""

import json
from pathlib import Path

from sentemb.corpus import TokenCorpus
from sentemb.encoders import build_encoder
from sentemb.errors import SentembError
from sentemb.models import load_model, save_weighted_average_model, save_word_averaging_model
from sentemb.text import TextConfig
from sentemb.training import AdjacentSentenceConfig, train_adjacent_sentences
from sentemb.vocab import Vocabulary
from sentemb.wordvectors import keyed_vectors

from _common import params, run


def siamese_cbow(name: str) -> None:
    """Siamese CBOW (Kenter et al. 2016): word vectors trained so that their average predicts adjacent sentences."""
    p = params("model")
    vocab = Vocabulary.load("data/vocab.tsv")
    corpus = TokenCorpus.load("data/corpus")
    text = TextConfig(**json.loads(Path("data/sentences/stats.json").read_text())["text"])
    encoder = build_encoder("average", vocab_size=len(vocab), dim=p.dim, init_std=p.init_std, seed=p.seed)
    config = AdjacentSentenceConfig(**p.model_dump(exclude={"dim", "init_std"}))
    stats = train_adjacent_sentences(encoder, corpus, config, log_path=f"metrics/train/{name}.csv")
    vectors = encoder.embedding.weight.detach().cpu().numpy()
    save_word_averaging_model(f"models/{name}", name, keyed_vectors(vocab, vectors), text,
                              info={"trainer": "sentemb.training.train_adjacent_sentences", "training": stats})
    print(f"train {name}: " + ", ".join(f"{k}={v}" for k, v in stats.items() if k != "config"))


def neural_word_salience(name: str) -> None:
    """Neural Word Salience (Bollegala et al. §3): one salience per word over the FIXED vectors of
    ``models/VECTORS`` (the model name is ``VECTORS-nws``), trained with the adjacent-sentence softmax over inner
    products (Eq. 2-3) by AdaGrad; saved as a weighted-average model with ``weights.tsv`` (word, salience, count)."""
    p = params("nws")
    vectors_name = name.removesuffix("-nws")
    vocab = Vocabulary.load("data/vocab.tsv")
    corpus = TokenCorpus.load("data/corpus")
    base = load_model(Path("models") / vectors_name)
    kv = base.vectors
    missing = [w for w in vocab.words if w not in kv.key_to_index]
    if missing:
        raise SentembError(f"models/{vectors_name}: {len(missing)} words of data/vocab.tsv have no vector, e.g. "
                           f"{missing[0]!r} (rebuild the word vectors with dvc repro)")
    vectors = kv.vectors[[kv.key_to_index[w] for w in vocab.words]]
    encoder = build_encoder("salience", vectors=vectors, init_low=p.init_low, init_high=p.init_high, seed=p.seed)
    config = AdjacentSentenceConfig(similarity="dot", **p.model_dump(exclude={"init_low", "init_high"}))
    stats = train_adjacent_sentences(encoder, corpus, config, log_path=f"metrics/train/{name}.csv")
    saliences = encoder.saliences.detach().cpu().numpy()
    save_weighted_average_model(f"models/{name}", name, Path("models") / vectors_name, vocab.words, saliences,
                                vocab.counts, base.text, weighting="nws",
                                info={"trainer": "sentemb.training.train_adjacent_sentences", "training": stats})
    print(f"train {name}: " + ", ".join(f"{k}={v}" for k, v in stats.items() if k != "config"))


def main(name: str) -> None:
    if name == "siamese_cbow":
        siamese_cbow(name)
    elif name.endswith("-nws"):
        neural_word_salience(name)
    else:
        raise SentembError(f"unknown model {name!r}; trainable models: siamese_cbow, VECTORS-nws "
                           "(Neural Word Salience over models/VECTORS, e.g. glove-nws)")


if __name__ == "__main__":
    run(main)
