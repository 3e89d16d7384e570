"""glove: GloVe co-occurrence counts and fit (sentemb.wordvectors.glove) on the token-id corpus (params
``pretrain.glove``) → models/glove/, and its learning curve → metrics/train/glove.csv (mean cost, SimLex-999 and
WordSim-353 Spearman ×100 after every epoch)."""

import csv

from _common import corpus_text, params, run, without_timings

from sentemb.core.atomic import atomic_open
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.models.word_averaging import save_word_averaging_model
from sentemb.wordvectors.config import GloveConfig
from sentemb.wordvectors.glove import fit_glove


def main(name: str) -> None:
    config = params(f"pretrain.{name}", GloveConfig, what="word-vector model")
    vectors, stats, curve = fit_glove(TokenCorpus.load("data/corpus"), Vocabulary.load("data/vocab.tsv"), config,
                                      scratch="models")  # spill files, if any, beside the outputs: not in a RAM /tmp
    with atomic_open(f"metrics/train/{name}.csv", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)
    stats, timings = without_timings(stats, name)
    save_word_averaging_model(f"models/{name}", name, vectors, corpus_text(),
                              info={"trainer": "sentemb.wordvectors.glove.train_glove", "params": config.model_dump(),
                                    "training": stats})
    print(f"pretrain {name}: {stats | timings}")


if __name__ == "__main__":
    run(main)
