"""siamese_cbow: Siamese CBOW word vectors (Kenter et al. 2016) trained on the token-id corpus, params ``model`` →
models/NAME/ (a word-averaging model) and its loss log metrics/train/NAME.csv.

NAME is ``siamese_cbow`` or a run that changes one setting (the training-amount curve's ``-lrsumX``, ``-inbatch``,
Figure 3's ``-negK``, Figure 4's ``-dimD``, each optionally under another seed, ``-seedS``:
:func:`sentemb.siamese_cbow.config.run_config`). With ``model.processes`` > 1 the stage runs as that many data-parallel
processes under torchrun; rank 0 writes.
"""

from _common import corpus_text, params, run, without_timings

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.models.word_averaging import save_word_averaging_model
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.runtime.distributed import init_distributed, is_main_process, relaunch_under_torchrun
from sentemb.siamese_cbow.config import SiameseCBOWConfig, run_config
from sentemb.siamese_cbow.train import train_siamese_cbow


def main(name: str) -> None:
    config = run_config(name, params("model", SiameseCBOWConfig))
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
