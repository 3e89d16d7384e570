"""paraphrastic@NAME: a paraphrastic model (params ``paraphrastic.NAME``; Wieting et al. 2016, Wieting & Gimpel 2017)
trained from the word vectors of models/VECTORS on the pairs stage's data, the checkpoint selected on STS 2016 (a
sentence encoder, ``pairs: sentences``) or SimLex-999 (PARAGRAM word vectors, ``pairs: ppdb-lexical``) → models/NAME/,
and every checkpoint's scores → metrics/train/NAME.csv. With ``processes`` > 1 the stage runs as that many
data-parallel processes under torchrun; rank 0 writes."""

from pathlib import Path

from _common import corpus_text, params, run, without_timings

import torch

from sentemb.core.models.word_averaging import load_word_vectors
from sentemb.core.runtime.distributed import init_distributed, is_main_process, relaunch_under_torchrun
from sentemb.paraphrastic.composition import build_composition
from sentemb.paraphrastic.config import ParaphrasticConfig
from sentemb.paraphrastic.data import training_data
from sentemb.paraphrastic.model import save_trained_model
from sentemb.paraphrastic.training import train_paraphrastic


def main(name: str) -> None:
    config = params(f"paraphrastic.{name}", ParaphrasticConfig, what="paraphrastic model")
    relaunch_under_torchrun(config.processes)
    init_distributed()  # under torchrun: one process per GPU (or CPU share), gradients all-reduced
    base = Path("models") / config.vectors
    vectors = load_word_vectors(base, what=f"params.yaml: paraphrastic.{name}.vectors")
    data = training_data(config, "data/pairs", vectors)
    torch.manual_seed(config.seed)  # the composition's initialisation (torch seeds its default generator per process)
    encoder = build_composition(config, vectors.vectors[data.rows], sparse=config.sparse_embeddings)
    print(f"train {name}: {config.encoder} {config.arguments()} on {len(data.pairs)} {config.pairs} pairs "
          f"({data.dropped} without a known word dropped), {len(data.words)} trained word vectors from {base}")
    stats = train_paraphrastic(encoder, data.pairs, config, data.select, log_path=f"metrics/train/{name}.csv")
    if is_main_process():
        stats, timings = without_timings(stats | {"pairs": len(data.pairs), "trained_words": len(data.words)}, name)
        save_trained_model(f"models/{name}", name, encoder, data.words, data.rows, config, vectors, base,
                           corpus_text(), info={"trainer": "sentemb.paraphrastic.training", "training": stats})
        selected = {k: v for k, v in stats["selected"].items() if k not in ("step", "pairs_seen", "loss")}
        print(f"train {name}: selected by {config.select} {selected}; {timings['pairs_per_second']} pairs/s on "
              f"{stats['device']}, {timings['seconds']} s")


if __name__ == "__main__":
    run(main)
