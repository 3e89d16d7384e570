"""word2vec@sg|cbow: word2vec (gensim) on the split sentences over the shared vocabulary → models/NAME/."""

import json
from pathlib import Path
from typing import Literal

from pydantic import Field, PositiveFloat, PositiveInt

from sentemb.data.vocab import Vocabulary
from sentemb.models import save_word_averaging_model
from sentemb.wordvectors.word2vec import train_word2vec

from _common import Section, Seed, params, run, text_config, without_timings


class Word2VecParams(Section):
    method: Literal["word2vec"] = "word2vec"
    sg: Literal[0, 1]
    vector_size: PositiveInt = 300
    window: PositiveInt = 5
    sample: float = Field(1e-5, ge=0)
    negative: PositiveInt = 5
    epochs: PositiveInt = 5
    alpha: PositiveFloat | None = None
    workers: PositiveInt = 2
    seed: Seed = 1


def main(name: str) -> None:
    p = params(f"pretrain.{name}", Word2VecParams, what="word-vector model")
    stats = json.loads(Path("data/sentences/stats.json").read_text())
    vocab = Vocabulary.load("data/vocab.tsv")
    kv, train_stats = train_word2vec(
        "data/sentences/sentences.txt", vocab, stats["tokens"], sg=p.sg, vector_size=p.vector_size, window=p.window,
        sample=p.sample, negative=p.negative, epochs=p.epochs, alpha=p.alpha, workers=p.workers, seed=p.seed,
    )
    train_stats, timings = without_timings(train_stats, name)
    save_word_averaging_model(f"models/{name}", name, kv, text_config(),
                              info={"trainer": "gensim.models.Word2Vec", "params": p.model_dump(),
                                    "training": train_stats})
    print(f"pretrain {name}: {train_stats | timings}")


if __name__ == "__main__":
    run(main)
