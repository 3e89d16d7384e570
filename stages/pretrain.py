"""pretrain@NAME: word2vec (gensim) on the split sentences over the shared vocabulary → models/NAME/."""

import json
from pathlib import Path

from sentemb.models import save_word_averaging_model
from sentemb.text import TextConfig
from sentemb.vocab import Vocabulary
from sentemb.wordvectors import train_word2vec

from _common import run, word2vec_params


def main(name: str) -> None:
    p = word2vec_params(name)
    stats = json.loads(Path("data/sentences/stats.json").read_text())
    vocab = Vocabulary.load("data/vocab.tsv")
    kv, train_stats = train_word2vec(
        "data/sentences/sentences.txt", vocab, stats["tokens"], sg=p.sg, vector_size=p.vector_size, window=p.window,
        sample=p.sample, negative=p.negative, epochs=p.epochs, alpha=p.alpha, workers=p.workers, seed=p.seed,
    )
    save_word_averaging_model(f"models/{name}", name, kv, TextConfig(**stats["text"]),
                              info={"trainer": "gensim.models.Word2Vec", "params": p.model_dump(),
                                    "training": train_stats})
    print(f"pretrain {name}: {train_stats}")


if __name__ == "__main__":
    run(main)
