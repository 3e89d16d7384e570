"""STS during Siamese CBOW training: mean Pearson ×100 over the 19 STS 2012-2015 sets at checkpoints.

Usage (from the repository root after `dvc repro vocab`):
    python benchmarks/trajectory.py --optimizer adadelta --lr 1.0 --every 5000

Writes one line per checkpoint (step, centre sentences seen, STS12-15 Pearson, norm ratio of the 10 most frequent
words to the median word) to stdout.
"""

import argparse
import json
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("data"))
    ap.add_argument("--optimizer", default="adadelta")
    ap.add_argument("--lr", type=float, default=1.0)
    ap.add_argument("--neg", type=int, default=2)
    ap.add_argument("--every", type=int, default=5000)
    ap.add_argument("--dim", type=int, default=300)
    args = ap.parse_args()
    vocab = Vocabulary.load(args.data / "vocab.tsv")
    corpus = TokenCorpus.load(args.data / "corpus")
    text = text_config(json.loads((args.data / "sentences" / "stats.json").read_text())["text"], "stats.json")
    bench = load_benchmarks(args.data / "raw", KENTER_GROUPS)
    torch.manual_seed(1)
    enc = AverageEncoder(len(vocab), args.dim, init_std=0.01)

    cfg = AdjacentSentenceConfig.model_validate(BASE | {"optimizer": args.optimizer, "lr": args.lr, "neg": args.neg,
                                                        "log_every": 1000})

    def score(step: int, encoder) -> None:
        w = encoder.embedding.weight.detach().cpu().numpy()
        norms = np.linalg.norm(w, axis=1)
        model = WordAveragingModel("x", WordVectors(vocab, w), text)
        r = evaluate(model, bench).datasets["pearson"].mean()
        print(f"step {step:7d}  sentences {step * cfg.batch_size:9d}  STS12-15 r {r:6.2f}  "
              f"norm(top-10 words)/median {norms[:10].mean() / np.median(norms):5.2f}", flush=True)

    stats = train_adjacent_sentences(enc, corpus, cfg, "cosine", resolve_device(cfg.device), progress=False,
                                     checkpoint=score, checkpoint_every=args.every)
    print({k: v for k, v in stats.items() if k != "config"})


if __name__ == "__main__":
    main()
