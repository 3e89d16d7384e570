"""train@MODEL: train a sentence encoder on the token-id corpus → models/MODEL/ and its loss log."""

import json
from pathlib import Path

from sentemb.corpus import TokenCorpus
from sentemb.encoders import build_encoder
from sentemb.errors import SentembError
from sentemb.models import save_word_averaging_model
from sentemb.text import TextConfig
from sentemb.training import AdjacentSentenceConfig, train_adjacent_sentences
from sentemb.vocab import Vocabulary
from sentemb.wordvectors import keyed_vectors

from _common import params, run

MODELS = ("siamese_cbow",)


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


def main(name: str) -> None:
    if name not in MODELS:
        raise SentembError(f"unknown model {name!r}; trainable models: {', '.join(MODELS)}")
    {"siamese_cbow": siamese_cbow}[name](name)


if __name__ == "__main__":
    run(main)
