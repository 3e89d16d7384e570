"""GloVe's mini-batch fit (the GPU path, ``fit: batches``) at several batch sizes: cells per second and the word
vectors' quality, in one run on one corpus.

Usage (after `dvc repro vocab`, on the full corpus or a slice; on a GPU machine or the CPU):
    python benchmarks/glove_batch_size.py [--data data] [--params params.yaml] [--device cuda]
        [--batch-sizes 5000 65536 524288] [--epochs 12] [--throughput-epochs 2] [--out FILE.json]

The co-occurrence cells are counted once (``pretrain.glove``'s window, in memory); then, for each batch size, the fit
of :func:`sentemb.wordvectors.glove.train_glove` with ``fit: batches`` and every other setting from ``pretrain.glove``
runs from the same initialisation. A batch is about 110 torch operations whatever its size, so on a GPU a batch of
5,000 cells waits on kernel launches; larger batches do more work per launch but take more cells' gradients at the
parameters of the batch's start (the accumulators still grow cell by cell: ``_adagrad_step``). Each fit prints its
cells per second and, after the last epoch, the mean cost and the Spearman ρ ×100 on SimLex-999 and WordSim-353
(gensim's ``evaluate_word_pairs``). The first batch size is fitted for ``--throughput-epochs`` epochs only: its cells
per second, not its quality (at 5,000 cells a batch, 12 epochs of the loan's slice took 128 s of an H200);
``--throughput-epochs 0`` fits every size for ``--epochs``. ``--reference models/glove`` scores that model's vectors
alike (the stage's fit: glove.c's cell loop on the CPU, on the same cells). ``--out`` writes the rows as JSON.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import torch
import yaml

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.evaluation.word_similarity import word_similarity
from sentemb.core.models.word_averaging import load_word_vectors
from sentemb.core.models.word_vectors import WordVectors
from sentemb.wordvectors.config import GloveConfig
from sentemb.wordvectors.cooccurrence import cooccurrence_cells
from sentemb.wordvectors.glove import train_glove


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path("data"))
    ap.add_argument("--params", type=Path, default=Path("params.yaml"))
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--batch-sizes", type=int, nargs="+", default=[5000, 65536, 524288])
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--throughput-epochs", type=int, default=2,
                    help="epochs of the first batch size (its speed only); 0: --epochs for every size")
    ap.add_argument("--reference", type=Path, help="a GloVe model directory scored alike (e.g. the CPU's cell fit)")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    base = GloveConfig(**yaml.safe_load(a.params.read_text())["pretrain"]["glove"])
    vocab = Vocabulary.load(a.data / "vocab.tsv")
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:  # one block in memory: nothing is spilled below 2**40 bytes
        cells = cooccurrence_cells(TokenCorpus.load(a.data / "corpus"), len(vocab), base.window, memory_bytes=2**40,
                                   block_cells=2**40, scratch=Path(scratch), seed=base.seed)
    print(f"{cells.n_cells:,} cells over {len(vocab):,} words, counted in {time.perf_counter() - t0:.1f} s; "
          f"device {a.device}" + (f" ({torch.cuda.get_device_name()})" if a.device.startswith("cuda") else ""))
    rows = []
    if a.reference:
        scores = word_similarity(load_word_vectors(a.reference))
        rows.append({"reference": str(a.reference), **{name: s["spearman"] for name, s in scores.items()}})
        print(json.dumps(rows[-1]), flush=True)
    for k, size in enumerate(a.batch_sizes):
        epochs = a.throughput_epochs if k == 0 and a.throughput_epochs else a.epochs
        config = base.model_copy(update={"fit": "batches", "batch_size": size, "epochs": epochs})
        vectors, stats = train_glove(cells, config, torch.device(a.device))
        scores = word_similarity(WordVectors(vocab, vectors))
        row = {"batch_size": size, "epochs": epochs, "cells_per_second": stats["cells_per_second"],
               "wall_seconds": stats["wall_seconds"], "final_cost": stats["losses"][-1],
               **{name: s["spearman"] for name, s in scores.items()}}
        rows.append(row)
        print(json.dumps(row), flush=True)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps({"device": a.device, "cells": cells.n_cells, "vocabulary": len(vocab),
                                     "fits": rows}, indent=1))


if __name__ == "__main__":
    main()
