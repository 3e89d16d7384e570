"""control@NAME: a model that needs no training, to show how much of a score training adds (Kenter et al. 2016's
setting): untrained-K (Siamese CBOW's initialisation with seed K), untrained-frequent, untrained-idf
(sentemb.siamese_cbow.controls) → models/NAME/, a word-averaging model over the shared vocabulary."""

from _common import corpus_text, params, run

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.models.word_averaging import save_word_averaging_model
from sentemb.core.models.word_vectors import WordVectors
from sentemb.siamese_cbow.config import ControlsConfig, SiameseCBOWConfig
from sentemb.siamese_cbow.controls import untrained_vectors


def main(name: str) -> None:
    model, controls = params("model", SiameseCBOWConfig), params("controls", ControlsConfig)
    vocab = Vocabulary.load("data/vocab.tsv")
    vectors, info = untrained_vectors(name, TokenCorpus.load("data/corpus"), len(vocab), model, controls)
    save_word_averaging_model(f"models/{name}", name, WordVectors(vocab, vectors), corpus_text(), info=info)
    print(f"control {name}: {info}")


if __name__ == "__main__":
    run(main)
