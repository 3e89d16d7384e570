"""Does Siamese CBOW learn with the paper's optimiser? Train one epoch per setting on a prepared corpus and score.

Usage (from a directory where `dvc repro vocab` has run, e.g. a slice of the corpus):
    python benchmarks/optimizer_study.py DATA_DIR RAW_DIR [--dim 300]

Prints, per setting: loss at the start and end of the epoch, relative change of the embedding matrix, the mean
Pearson ×100 over the 19 STS 2012-2015 sets, and wall time. "untrained" is the N(0, 0.01) initialisation itself:
averaging random vectors and taking the cosine measures word overlap, which is already a fair STS baseline.
"""

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from sentemb.adjacent_sentences.config import AdjacentSentenceConfig
from sentemb.adjacent_sentences.loop import train_adjacent_sentences
from sentemb.core.data.benchmarks import KENTER_GROUPS, load_benchmarks
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.evaluation.sts import evaluate
from sentemb.core.models.word_averaging import WordAveragingModel
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.runtime.device import resolve_device
from sentemb.core.text import text_config
from sentemb.siamese_cbow.encoder import AverageEncoder

# what these studies keep from params.yaml's model section unless told: the paper's batches and the authors' cut
BASE = {"neg": 2, "negatives": "corpus", "batch_size": 100, "epochs": 1, "lr_floor": 1e-4, "sgd_lr_sum": None,
        "sgd_decay_epochs": None, "max_length": None, "seed": 1, "device": "auto", "fit": "torch", "processes": 1}

SETTINGS = [
    ("untrained", None),
    ("sgd lr=1e-4 (paper)", dict(optimizer="sgd", lr=1e-4)),
    ("sgd lr=1", dict(optimizer="sgd", lr=1.0)),
    ("sgd lr=10", dict(optimizer="sgd", lr=10.0)),
    ("adagrad lr=1e-3", dict(optimizer="adagrad", lr=1e-3)),
    ("adagrad lr=1e-2", dict(optimizer="adagrad", lr=1e-2)),
    ("adam (sparse) lr=1e-3", dict(optimizer="adam", lr=1e-3)),
    ("adadelta lr=1 (authors' code)", dict(optimizer="adadelta", lr=1.0)),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("raw", type=Path)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    vocab = Vocabulary.load(args.data / "vocab.tsv")
    corpus = TokenCorpus.load(args.data / "corpus")
    text = text_config(json.loads((args.data / "sentences" / "stats.json").read_text())["text"], "stats.json")
    bench = load_benchmarks(args.raw, KENTER_GROUPS)
    print(f"corpus: {corpus.n_sentences} sentences, vocabulary {len(vocab)}, dim {args.dim}", flush=True)
    for name, opts in SETTINGS:
        if args.only and not any(o in name for o in args.only):
            continue
        torch.manual_seed(1)
        enc = AverageEncoder(len(vocab), args.dim, init_std=0.01)
        w0 = enc.embedding.weight.detach().clone()
        t0 = time.perf_counter()
        log = Path("/tmp/optstudy.csv")
        first = last = float("nan")
        if opts is not None:
            cfg = AdjacentSentenceConfig.model_validate(BASE | {"log_every": 100} | opts)
            train_adjacent_sentences(enc, corpus, cfg, "cosine", resolve_device(cfg.device), log, progress=False)
            rows = [ln.split(",") for ln in log.read_text().splitlines()[1:]]
            first, last = float(rows[0][3]), float(rows[-1][3])
        w = enc.embedding.weight.detach()
        change = float((w - w0).norm() / w0.norm())
        model = WordAveragingModel(name, WordVectors(vocab, w.numpy()), text)
        r = evaluate(model, bench).datasets["pearson"].mean()
        print(f"{name:24s} loss {first:.4f} → {last:.4f}  |ΔW|/|W0| {change:8.4f}  STS12-15 r {r:6.2f}  "
              f"{time.perf_counter() - t0:6.1f} s", flush=True)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
