"""siamese_cbow: Siamese CBOW word vectors (Kenter et al. 2016) trained on the token-id corpus, params ``model`` →
models/NAME/ (a word-averaging model) and its loss log metrics/train/NAME.csv.

``siamese_cbow-lrsumX`` is the same model trained with SGD and ``model.sgd_lr_sum`` = X, a point of the
training-amount curve; ``siamese_cbow-inbatch`` the same model with in-batch negatives (``model.negatives: batch``);
``siamese_cbow-negK`` with K negative sentences a centre (``model.neg``: Kenter et al. Figure 3) and
``siamese_cbow-dimD`` with D-dimensional vectors (``model.dim``: Figure 4). A ``-seedS`` suffix (S ≥ 2) trains any of
these under seed S in place of ``model.seed``: the runs over which the reports judge a claim.
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

VARIANTS = re.compile(r"^siamese_cbow(?:-lrsum(?P<lr_sum>\d+(?:\.\d+)?)|(?P<inbatch>-inbatch)|-neg(?P<neg>[1-9]\d*)"
                      r"|-dim(?P<dim>[1-9]\d*))?(?:-seed(?P<seed>[2-9]|[1-9]\d+))?$")


def main(name: str) -> None:
    config, variant = params("model", SiameseCBOWConfig), VARIANTS.match(name)
    if variant is None:
        raise SentembError(f"unknown model {name!r}; this stage trains siamese_cbow, siamese_cbow-lrsumX (SGD with "
                           "a summed learning rate of X), siamese_cbow-inbatch (in-batch negatives), "
                           "siamese_cbow-negK (K negatives) and siamese_cbow-dimD (D dimensions), each optionally "
                           "with -seedS (S ≥ 2: the training seed instead of model.seed)")
    if variant["lr_sum"]:
        config = config.model_copy(update={"optimizer": "sgd", "sgd_lr_sum": float(variant["lr_sum"])})
    elif variant["inbatch"]:
        config = config.model_copy(update={"negatives": "batch"})
    elif variant["neg"]:
        config = config.model_copy(update={"neg": int(variant["neg"])})
    elif variant["dim"]:
        config = config.model_copy(update={"dim": int(variant["dim"])})
    if variant["seed"]:
        config = config.model_copy(update={"seed": int(variant["seed"])})
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
