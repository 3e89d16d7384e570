"""nws@VECTORS: Neural Word Salience (Bollegala et al. §3) over the FIXED vectors of models/VECTORS, params
``nws`` → models/VECTORS-nws/ (a weighted-average model, weights.tsv = word, salience, count) and its loss log."""

from pathlib import Path
from typing import Literal

from pydantic import Field, PositiveFloat

from sentemb.adjacent import AdjacentSentenceConfig
from sentemb.data.corpus import TokenCorpus
from sentemb.data.vocab import Vocabulary
from sentemb.device import init_distributed, is_main_process
from sentemb.errors import SentembError
from sentemb.models import load_word_vectors
from sentemb.salience.model import save_weighted_average_model
from sentemb.salience.train import train_neural_word_salience

from _adjacent import AdjacentSentenceParams
from _common import params, relaunch_under_torchrun, run, text_config, without_timings


class NWSParams(AdjacentSentenceParams):
    init_low: float = 0.0
    init_high: float = 1.0
    optimizer: Literal["sgd", "adadelta", "adagrad", "sparse_adam"] = "adagrad"
    lr: PositiveFloat = 0.05
    lr_floor: float = Field(1.0, gt=0, le=1)
    fit: Literal["auto", "torch", "fused"] = "auto"


def main(name: str) -> None:
    if not name.endswith("-nws"):
        raise SentembError(f"unknown model {name!r}: Neural Word Salience models are named VECTORS-nws "
                           "(over models/VECTORS, e.g. glove-nws)")
    p = params("nws", NWSParams)
    relaunch_under_torchrun(p.processes)
    init_distributed()  # under torchrun: one process per GPU (or CPU share), gradients all-reduced
    vectors_name = name.removesuffix("-nws")
    vocab = Vocabulary.load("data/vocab.tsv")
    corpus = TokenCorpus.load("data/corpus")
    kv = load_word_vectors(Path("models") / vectors_name)
    missing = [w for w in vocab.words if w not in kv.key_to_index]
    if missing:
        raise SentembError(f"models/{vectors_name}: {len(missing)} words of data/vocab.tsv have no vector, e.g. "
                           f"{missing[0]!r} (rebuild the word vectors with dvc repro)")
    vectors = kv.vectors[[kv.key_to_index[w] for w in vocab.words]]
    config = AdjacentSentenceConfig(similarity="dot",
                                    **p.model_dump(exclude={"init_low", "init_high", "fit", "processes"}))
    saliences, stats = train_neural_word_salience(corpus, vectors, config, init_low=p.init_low, init_high=p.init_high,
                                                  log_path=f"metrics/train/{name}.csv", fit=p.fit)
    if not is_main_process():
        return
    stats, timings = without_timings(stats, name)
    save_weighted_average_model(f"models/{name}", name, Path("models") / vectors_name, vocab.words, saliences,
                                vocab.counts, text_config(), weighting="nws",
                                info={"trainer": "sentemb.salience.train", "training": stats})
    print(f"train {name}: " + ", ".join(f"{k}={v}" for k, v in (stats | timings).items() if k != "config"))


if __name__ == "__main__":
    run(main)
