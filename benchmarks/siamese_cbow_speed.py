"""Siamese CBOW's training throughput beside gensim word2vec CBOW's, on the same corpus and machine, in one run.

Usage (after `dvc repro vocab`, on the full corpus or a slice):
    python benchmarks/siamese_cbow_speed.py [--data data] [--params params.yaml] [--sentences N] [--skip-torch]
        [--negatives corpus batch] [--device cpu|cuda] [--epochs E] [--skip-gensim]

It trains, one after another in this process:

- gensim word2vec CBOW with ``pretrain.word2vec-cbow`` (its ``workers``), one epoch over ``data/sentences``, and
  prints gensim's raw words/s (every token read, before subsampling: the figure gensim logs) and effective words/s;
- Siamese CBOW with ``model`` (SGD, batches of 100 centres, 2 negatives, sentences cut at 50), one epoch over the
  token-id corpus ``data/corpus`` with the fused step (``fit: fused``), then with torch's autograd (``fit: torch``),
  and prints corpus words/s (tokens of the centre sentences, each centre once an epoch: the words an epoch covers,
  as gensim's raw words count every token once) and encoded words/s (centre, neighbours and negatives);
- the fused step once for each ``--negatives`` source: ``corpus`` (the paper's: the default) and ``batch`` (in-batch
  negatives, ``model.negatives: batch``: three sentences encoded per centre instead of five).

``--sentences N`` trains Siamese CBOW on the first N sentences only (its words/s depends on the vocabulary, not on
the number of sentences); gensim always reads the whole file. The fused step is compiled before the clock starts.
The ratio printed is Siamese CBOW's corpus words/s over gensim's raw words/s.

``--device cuda`` trains Siamese CBOW on the GPU: ``fit: fused`` is then torch's kernels with the gradient written
out, replayed as one CUDA graph a batch (:mod:`sentemb.siamese_cbow.fused_torch`), ``fit: torch`` torch's autograd
and sparse SGD; gensim still trains on the CPU. ``--epochs E`` trains E epochs (the words/s of a run of several
seconds; the learning rate decays over ``model.sgd_decay_epochs`` as in the stage).
"""

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
import torch
import yaml

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.siamese_cbow.config import SiameseCBOWConfig
from sentemb.siamese_cbow.fused import FusedSGD
from sentemb.siamese_cbow.train import train_siamese_cbow
from sentemb.wordvectors.config import Word2VecConfig
from sentemb.wordvectors.word2vec import train_word2vec


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("data"))
    ap.add_argument("--params", type=Path, default=Path("params.yaml"))
    ap.add_argument("--sentences", type=int, default=None)
    ap.add_argument("--skip-torch", action="store_true")
    ap.add_argument("--negatives", nargs="+", choices=["corpus", "batch"], default=["corpus", "batch"])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--skip-gensim", action="store_true")
    args = ap.parse_args()
    params = yaml.safe_load(args.params.read_text())
    vocab = Vocabulary.load(args.data / "vocab.tsv")
    stats = json.loads((args.data / "sentences/stats.json").read_text())
    w2v = Word2VecConfig.model_validate(params["pretrain"]["word2vec-cbow"] | {"epochs": 1})
    print(f"machine: {os.cpu_count()} cores, torch {torch.__version__}, {torch.get_num_threads()} torch threads")
    g = None
    if not args.skip_gensim:
        t = time.perf_counter()
        _, g = train_word2vec(args.data / "sentences/sentences.txt", vocab, stats["tokens"], w2v)
        print(f"gensim word2vec CBOW ({w2v.workers} workers, 1 epoch, {stats['tokens']:,} tokens): "
              f"{g['raw_words_per_second']:,} raw words/s, {g['effective_words_per_second']:,} effective words/s "
              f"({time.perf_counter() - t:.0f} s)")
    corpus = TokenCorpus.load(args.data / "corpus")
    if args.sentences:
        n = min(args.sentences, corpus.n_sentences)
        corpus = TokenCorpus(np.asarray(corpus.token_ids[: int(corpus.offsets[n])]),
                             np.asarray(corpus.offsets[: n + 1]), np.asarray(corpus.document_ids[:n]))
    config = SiameseCBOWConfig.model_validate(params["model"] | {"epochs": args.epochs, "optimizer": "sgd",
                                                                 "device": args.device})
    if args.device != "cpu":
        print(f"device: {torch.cuda.get_device_name()}" if torch.cuda.is_available() else "device: no CUDA")
    # compile the CPU's fused step first (numba caches it on disk; a stage run pays this once, a few seconds)
    if args.device == "cpu":
        FusedSGD(np.zeros((6, config.dim), dtype=np.float32))(np.arange(6, dtype=corpus.token_ids.dtype),
                                                            np.arange(6, dtype=np.int64), np.ones(6, dtype=np.int64),
                                                            2, 0.0)
    results = {}
    runs = [("fused", negatives) for negatives in args.negatives] + ([] if args.skip_torch else [("torch", "corpus")])
    for fit, negatives in runs:
        _, s = train_siamese_cbow(corpus, len(vocab), config.model_copy(update={"negatives": negatives, "fit": fit}),
                                  progress=False)
        results[f"{fit}, {negatives} negatives"] = s
        graph = f", CUDA graph {s['cuda_graph']}" if "cuda_graph" in s else ""
        print(f"Siamese CBOW, fit {fit}, {negatives} negatives, {s['device']}{graph} ({corpus.n_sentences:,} "
              f"sentences, {s['batches']:,} batches): {s['corpus_words_per_second']:,} corpus words/s, "
              f"{s['encoded_words_per_second']:,} encoded words/s, {s['wall_seconds']} s, final loss {s['final_loss']}")
    for fit, s in results.items() if g is not None else ():
        print(f"ratio, Siamese CBOW ({fit}) / gensim CBOW: "
              f"{s['corpus_words_per_second'] / g['raw_words_per_second']:.2f}")


if __name__ == "__main__":
    main()
