"""nws@VECTORS: Neural Word Salience (Bollegala et al. §3) over the FIXED vectors of models/VECTORS, params ``nws`` →
models/VECTORS-nws/ (a weighted-average model: weights.npy = one salience a word of VECTORS) and its loss log.
With ``nws.processes`` > 1 the stage runs as that many data-parallel processes under torchrun; rank 0 writes."""

from pathlib import Path

from _common import corpus_text, params, run, without_timings

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models.word_averaging import load_word_vectors
from sentemb.core.runtime.distributed import init_distributed, is_main_process, relaunch_under_torchrun
from sentemb.salience.config import NWSConfig
from sentemb.salience.model import save_weighted_average_model
from sentemb.salience.train import train_neural_word_salience, vectors_in_vocabulary_order


def main(name: str) -> None:
    if not name.endswith("-nws"):
        raise SentembError(f"unknown model {name!r}: Neural Word Salience models are named VECTORS-nws (over "
                           "models/VECTORS, e.g. glove-nws)")
    config, base = params("nws", NWSConfig), Path("models") / name.removesuffix("-nws")
    relaunch_under_torchrun(config.processes)
    init_distributed()  # under torchrun: one process per GPU (or CPU share), gradients all-reduced
    vocab = Vocabulary.load("data/vocab.tsv")
    vectors = vectors_in_vocabulary_order(load_word_vectors(base), vocab, str(base))
    saliences, stats = train_neural_word_salience(TokenCorpus.load("data/corpus"), vectors, config,
                                                  log_path=f"metrics/train/{name}.csv")
    if is_main_process():
        stats, timings = without_timings(stats, name)
        save_weighted_average_model(f"models/{name}", name, base, vocab.words, saliences, corpus_text(),
                                    "nws", "none", info={"trainer": "sentemb.salience.train", "training": stats})
        print(f"train {name}: " + ", ".join(f"{k}={v}" for k, v in (stats | timings).items() if k != "config"))


if __name__ == "__main__":
    run(main)
