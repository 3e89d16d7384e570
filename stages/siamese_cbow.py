"""siamese_cbow: Siamese CBOW word vectors (Kenter et al. 2016) trained on the token-id corpus, params ``model``
→ models/siamese_cbow/ (a word-averaging model) and its loss log metrics/train/siamese_cbow.csv.

Under ``torchrun --nproc_per_node N`` the training runs data-parallel (README, "Several GPUs"); rank 0 writes.

``siamese_cbow-lrsumX`` is the same model trained with SGD and ``model.sgd_lr_sum`` = X, a point of the
training-amount curve (stage group ``siamese_cbow_amount``). ``siamese_cbow-inbatch`` is the same model with in-batch
negatives (``model.negatives: batch``), the faster sampler set beside the paper's.
"""

import re
from typing import Literal

from pydantic import PositiveFloat, PositiveInt

from sentemb.adjacent import AdjacentSentenceConfig
from sentemb.data.corpus import TokenCorpus
from sentemb.data.vocab import Vocabulary
from sentemb.device import init_distributed, is_main_process
from sentemb.errors import SentembError
from sentemb.models import keyed_vectors, save_word_averaging_model
from sentemb.siamese_cbow.train import train_siamese_cbow

from _adjacent import AdjacentSentenceParams
from _common import params, relaunch_under_torchrun, run, text_config, without_timings


class SiameseCBOWParams(AdjacentSentenceParams):
    """``model``: the authors' released run by default (SGD, Σ lr 67 over a 5-epoch decay, sentences cut at 50)."""

    dim: PositiveInt = 300
    init_std: PositiveFloat = 0.01
    lr: PositiveFloat = 1.0
    sgd_lr_sum: PositiveFloat | None = 67.0
    sgd_decay_epochs: PositiveInt | None = 5
    max_length: PositiveInt | None = 50
    fit: Literal["auto", "torch", "fused"] = "auto"


AMOUNT = re.compile(r"^siamese_cbow-lrsum(?P<lr_sum>\d+(?:\.\d+)?)$")


def main(name: str) -> None:
    p = params("model", SiameseCBOWParams)
    relaunch_under_torchrun(p.processes)
    init_distributed()  # under torchrun: one process per GPU (or CPU share), gradients all-reduced
    amount = AMOUNT.match(name)
    if amount is not None:
        p = p.model_copy(update={"optimizer": "sgd", "sgd_lr_sum": float(amount["lr_sum"])})
    elif name == "siamese_cbow-inbatch":
        p = p.model_copy(update={"negatives": "batch"})
    elif name != "siamese_cbow":
        raise SentembError(f"unknown model {name!r}; this stage trains siamese_cbow, siamese_cbow-lrsumX (SGD with "
                           "a summed learning rate of X) and siamese_cbow-inbatch (in-batch negatives)")
    vocab = Vocabulary.load("data/vocab.tsv")
    corpus = TokenCorpus.load("data/corpus")
    config = AdjacentSentenceConfig(similarity="cosine",
                                    **p.model_dump(exclude={"dim", "init_std", "fit", "processes"}))
    vectors, stats = train_siamese_cbow(corpus, len(vocab), config, dim=p.dim, init_std=p.init_std,
                                        log_path=f"metrics/train/{name}.csv", fit=p.fit)
    if not is_main_process():
        return
    stats, timings = without_timings(stats, name)
    save_word_averaging_model(f"models/{name}", name, keyed_vectors(vocab.words, vocab.counts, vectors),
                              text_config(), info={"trainer": "sentemb.siamese_cbow.train", "training": stats})
    print(f"train {name}: " + ", ".join(f"{k}={v}" for k, v in (stats | timings).items() if k != "config"))


if __name__ == "__main__":
    run(main)
