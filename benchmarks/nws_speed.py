"""Neural Word Salience's two fits side by side, over the same tuples in one run: the fused AdaGrad step
(``nws.fit: fused``, what the stage runs on the CPU) and torch's autograd with ``torch.optim.Adagrad``
(``nws.fit: torch``).

Usage (after `dvc repro vocab glove`, or whichever VECTORS is named):
    python benchmarks/nws_speed.py [--vectors glove] [--data data] [--params params.yaml] [--sentences N]

Each fit trains one epoch with ``nws`` (AdaGrad, batches of 100 centres, 2 negatives from the corpus) over the
token-id corpus ``data/corpus`` from the same initial saliences, and the script prints its corpus words/s (tokens of
the centre sentences), encoded words/s and final mean loss; then the ratio of the two rates and how far apart the
two fits' saliences ended (largest and mean absolute difference, beside the largest salience). ``--sentences N``
trains on the first N sentences only. The fused step is compiled before the clock starts.
"""

import argparse
import os
import time
from pathlib import Path

import numpy as np
import torch
import yaml

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.models.word_averaging import load_word_vectors
from sentemb.salience.config import NWSConfig
from sentemb.salience.fused import FusedAdagrad
from sentemb.salience.train import train_neural_word_salience, vectors_in_vocabulary_order


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vectors", default="glove", help="the word-averaging model under models/ (nws@VECTORS)")
    ap.add_argument("--data", type=Path, default=Path("data"))
    ap.add_argument("--params", type=Path, default=Path("params.yaml"))
    ap.add_argument("--sentences", type=int, default=None)
    args = ap.parse_args()
    p = yaml.safe_load(args.params.read_text())["nws"]
    vocab = Vocabulary.load(args.data / "vocab.tsv")
    vectors = vectors_in_vocabulary_order(load_word_vectors(Path("models") / args.vectors), vocab, args.vectors)
    corpus = TokenCorpus.load(args.data / "corpus")
    if args.sentences:
        n = min(args.sentences, corpus.n_sentences)
        corpus = TokenCorpus(np.asarray(corpus.token_ids[: int(corpus.offsets[n])]),
                             np.asarray(corpus.offsets[: n + 1]), np.asarray(corpus.document_ids[:n]))
    print(f"machine: {os.cpu_count()} cores, torch {torch.__version__}, {torch.get_num_threads()} torch threads; "
          f"{args.vectors}: {vectors.shape[0]:,} × {vectors.shape[1]} vectors; {corpus.n_sentences:,} sentences")
    config = NWSConfig.model_validate(p | {"epochs": 1, "device": "cpu", "processes": 1})
    # compile the fused step first (numba caches it on disk; a stage run pays this once)
    FusedAdagrad(np.zeros((6, 4), dtype=np.float32), np.zeros(6, dtype=np.float32))(
        np.arange(6, dtype=corpus.token_ids.dtype), np.arange(6, dtype=np.int64), np.ones(6, dtype=np.int64), 2, 0.1)
    got = {}
    for fit in ("fused", "torch"):
        t = time.perf_counter()
        saliences, s = train_neural_word_salience(corpus, vectors, config.model_copy(update={"fit": fit}),
                                                  progress=False)
        got[fit] = (saliences, s)
        print(f"NWS over {args.vectors}, fit {fit} ({s['batches']:,} batches): {s['corpus_words_per_second']:,} corpus "
              f"words/s, {s['encoded_words_per_second']:,} encoded words/s, training {s['wall_seconds']} s of "
              f"{time.perf_counter() - t:.0f} s, final loss {s['final_loss']}", flush=True)
    (fused, sf), (reference, st) = got["fused"], got["torch"]
    diff = np.abs(fused - reference)
    print(f"ratio, fused / torch: {sf['corpus_words_per_second'] / st['corpus_words_per_second']:.2f}")
    print(f"saliences, fused against torch: largest difference {diff.max():.3g}, mean {diff.mean():.3g} "
          f"(largest salience {np.abs(reference).max():.3g})")


if __name__ == "__main__":
    main()
