"""siamese_cbow: Siamese CBOW word vectors (Kenter et al. 2016) trained on the token-id corpus, params ``model`` →
models/NAME/ (a word-averaging model) and its loss log metrics/train/NAME.csv.

``siamese_cbow-lrsumX`` is the same model trained with SGD and ``model.sgd_lr_sum`` = X, a point of the
training-amount curve; ``siamese_cbow-inbatch`` the same model with in-batch negatives (``model.negatives: batch``).
With ``model.processes`` > 1 the stage runs as that many data-parallel processes under torchrun; rank 0 writes.
"""

import re

from _common import corpus_text, params, run, without_timings

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models.word_averaging import save_word_averaging_model
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.runtime.distributed import init_distributed, is_main_process, relaunch_under_torchrun
from sentemb.siamese_cbow.config import SiameseCBOWConfig
from sentemb.siamese_cbow.train import train_siamese_cbow

VARIANTS = re.compile(r"^siamese_cbow(?:-lrsum(?P<lr_sum>\d+(?:\.\d+)?)|(?P<inbatch>-inbatch))?$")


def main(name: str) -> None:
    config, variant = params("model", SiameseCBOWConfig), VARIANTS.match(name)
    if variant is None:
        raise SentembError(f"unknown model {name!r}; this stage trains siamese_cbow, siamese_cbow-lrsumX (SGD with "
                           "a summed learning rate of X) and siamese_cbow-inbatch (in-batch negatives)")
    if variant["lr_sum"]:
        config = config.model_copy(update={"optimizer": "sgd", "sgd_lr_sum": float(variant["lr_sum"])})
    elif variant["inbatch"]:
        config = config.model_copy(update={"negatives": "batch"})
    relaunch_under_torchrun(config.processes)
    init_distributed()  # under torchrun: one process per GPU (or CPU share), gradients all-reduced
    vocab = Vocabulary.load("data/vocab.tsv")
    vectors, stats = train_siamese_cbow(TokenCorpus.load("data/corpus"), len(vocab), config,
                                        log_path=f"metrics/train/{name}.csv")
    if is_main_process():
        stats, timings = without_timings(stats, name)
        save_word_averaging_model(f"models/{name}", name, WordVectors(vocab, vectors), corpus_text(),
                                  info={"trainer": "sentemb.siamese_cbow.train", "training": stats})
        print(f"train {name}: " + ", ".join(f"{k}={v}" for k, v in (stats | timings).items() if k != "config"))


if __name__ == "__main__":
    run(main)
