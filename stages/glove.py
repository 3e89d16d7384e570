"""glove: GloVe co-occurrence counts and fit (sentemb.wordvectors.glove) on the token-id corpus → models/NAME/, and the
learning curve metrics/train/NAME.csv (mean cost, SimLex-999 and WordSim-353 Spearman ×100 after every epoch)."""

import csv
import time
from typing import Literal

from pydantic import PositiveFloat, PositiveInt

from sentemb.atomic import atomic_open
from sentemb.data.corpus import TokenCorpus
from sentemb.data.vocab import Vocabulary
from sentemb.device import resolve_device
from sentemb.evaluation.word_similarity import word_similarity, word_similarity_rows
from sentemb.models import keyed_vectors, save_word_averaging_model
from sentemb.wordvectors.glove import cooccurrence_matrix, train_glove

from _common import Section, Seed, params, run, text_config, without_timings


class GloveParams(Section):
    method: Literal["glove"]
    vector_size: PositiveInt = 300
    window: PositiveInt = 10
    x_max: PositiveFloat = 100.0
    alpha: PositiveFloat = 0.75
    lr: PositiveFloat = 0.05
    grad_clip: PositiveFloat = 100.0
    epochs: PositiveInt = 12
    fit: Literal["auto", "cells", "batches"] = "auto"
    threads: PositiveInt = 2
    batch_size: PositiveInt = 5000
    seed: Seed = 1
    device: str = "auto"


def main(name: str) -> None:
    p = params(f"pretrain.{name}", GloveParams, what="word-vector model")
    text = text_config()
    vocab = Vocabulary.load("data/vocab.tsv")
    corpus = TokenCorpus.load("data/corpus")
    t0 = time.perf_counter()
    x = cooccurrence_matrix(corpus, len(vocab), window=p.window, progress=True)
    count_seconds = time.perf_counter() - t0
    print(f"pretrain {name}: {x.nnz:,} non-zero co-occurrence cells in {count_seconds:.0f} s", flush=True)
    curve = []
    rows = word_similarity_rows(vocab.words)  # the same scores as the whole vocabulary's

    def on_epoch(epoch: int, cost: float, vectors) -> None:
        scores = word_similarity(keyed_vectors([vocab.words[i] for i in rows], vocab.counts[rows], vectors[rows]))
        curve.append({"epoch": epoch, "cost": round(cost, 6)} | {k: v["spearman"] for k, v in scores.items()})
        print(f"pretrain {name}: epoch {epoch}, " + ", ".join(f"{k} {v}" for k, v in curve[-1].items()
                                                              if k != "epoch"), flush=True)

    vectors, stats = train_glove(
        x, p.vector_size, x_max=p.x_max, alpha=p.alpha, lr=p.lr, grad_clip=p.grad_clip, epochs=p.epochs,
        method=p.fit, threads=p.threads, batch_size=p.batch_size, seed=p.seed, device=resolve_device(p.device),
        progress=True, on_epoch=on_epoch,
    )
    with atomic_open(f"metrics/train/{name}.csv", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)
    stats, timings = without_timings({"cooccurrence_seconds": round(count_seconds, 1)} | stats, name)
    save_word_averaging_model(f"models/{name}", name, keyed_vectors(vocab.words, vocab.counts, vectors), text,
                              info={"trainer": "sentemb.wordvectors.glove.train_glove", "params": p.model_dump(),
                                    "training": stats})
    print(f"pretrain {name}: {stats | timings}")


if __name__ == "__main__":
    run(main)
