"""word2vec@sg|cbow: word2vec (gensim) on the split sentences over the shared vocabulary (params
``pretrain.word2vec-ITEM``) → models/NAME/."""

from _common import corpus_text, params, run, without_timings

from sentemb.core.atomic import read_json
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.models.word_averaging import save_word_averaging_model
from sentemb.wordvectors.config import Word2VecConfig
from sentemb.wordvectors.word2vec import train_word2vec


def main(name: str) -> None:
    config = params(f"pretrain.{name}", Word2VecConfig, what="word-vector model")
    tokens = read_json("data/sentences/stats.json", "missing (run `dvc repro split` first)")["tokens"]
    vectors, stats = train_word2vec("data/sentences/sentences.txt", Vocabulary.load("data/vocab.tsv"), tokens, config)
    stats, timings = without_timings(stats, name)
    save_word_averaging_model(f"models/{name}", name, vectors, corpus_text(),
                              info={"trainer": "gensim.models.Word2Vec", "params": config.model_dump(),
                                    "training": stats})
    print(f"pretrain {name}: {stats | timings}")


if __name__ == "__main__":
    run(main)
