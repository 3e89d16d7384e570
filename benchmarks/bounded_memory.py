"""The vocab and glove stages within a memory budget: the vocabulary and token-id corpus (``build_vocabulary``, which
streams) and GloVe's counting and fit (``fit_glove`` under ``pretrain.glove.memory_gib``) on a pipeline's sentences,
with the peak resident memory after each, the spill, and the vectors' word similarity beside the committed run's.

    python benchmarks/bounded_memory.py DATA OUT --memory-gib 2 --precision float32 [--epochs 12] [--repeat 4]

DATA is a pipeline's ``data/`` after ``dvc repro split`` (``sentences/``); the other settings are params.yaml's
``vocab`` and ``pretrain.glove``. ``--repeat K`` first writes the sentence file K times over to OUT, each copy's
documents in another random order: K times the tokens, every word count and co-occurrence count exactly K times
(windows stay inside sentences); with ``vocab.min_count`` multiplied by K (else words seen 2-4 times would pass 5,
and the vocabulary doubles) the same vocabulary and the same cells. It stresses the reading, the counting and its
spill, not the fit. Prints one line of figures and writes ``OUT/bounded_memory.json`` (the figures and the
learning curve); the outputs and the scratch folders go under OUT.

The budget is the code's promise; an operating-system cap proves it (``benchmarks/memory_cap.sh``: a cgroup)::

    bash benchmarks/memory_cap.sh 2G python benchmarks/bounded_memory.py data /tmp/capped --memory-gib 2 \\
        --precision float32
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import shutil
import time
from pathlib import Path

import numpy as np
import yaml

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.encoding import VocabConfig, build_vocabulary
from sentemb.core.data.vocab import Vocabulary
from sentemb.wordvectors.config import GloveConfig
from sentemb.wordvectors.glove import fit_glove

ROOT = Path(__file__).resolve().parent.parent


def repeated_sentences(source: Path, times: int, folder: Path, seed: int) -> Path:
    """The split stage's folder ``source`` with its sentence file ``times`` times over, each copy's documents (the
    groups of lines a blank line ends) in a fresh random order, copied a document at a time; ``stats.json`` with the
    counts multiplied. Returns the new folder."""
    text = source / "sentences.txt"
    starts = [0]
    with open(text, "rb") as fh:
        for line in fh:
            if line == b"\n":
                starts.append(fh.tell())
    if starts[-1] == text.stat().st_size:
        starts.pop()
    ends = [*starts[1:], text.stat().st_size]
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    with open(text, "rb") as fh, open(folder / "sentences.txt", "wb") as out:
        for _ in range(times):
            for k in rng.permutation(len(starts)):
                fh.seek(starts[k])
                out.write(fh.read(ends[k] - starts[k]))
    stats = json.loads((source / "stats.json").read_text())
    for key in ("documents", "sentences", "tokens"):
        if isinstance(stats.get(key), int):
            stats[key] *= times
    (folder / "stats.json").write_text(json.dumps(stats, indent=2) + "\n")
    return folder


def _peak_gib() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 2**30, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="a pipeline's data/ (sentences/)")
    parser.add_argument("out", type=Path, help="a folder for the outputs, the scratch files and a repeated corpus")
    parser.add_argument("--memory-gib", type=float, required=True)
    parser.add_argument("--precision", choices=["float64", "float32"], default=None)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="the sentences this many times over")
    args = parser.parse_args()

    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    overrides = {"memory_gib": args.memory_gib, "precision": args.precision, "epochs": args.epochs,
                 "threads": args.threads}
    config = GloveConfig.model_validate(params["pretrain"]["glove"] |
                                        {k: v for k, v in overrides.items() if v is not None})
    args.out.mkdir(parents=True, exist_ok=True)
    result: dict = {"memory_gib": config.memory_gib, "precision": config.precision, "epochs": config.epochs,
                    "threads": config.threads, "repeat": args.repeat}
    sentences = args.data / "sentences"
    t0 = time.perf_counter()
    if args.repeat > 1:
        sentences = repeated_sentences(sentences, args.repeat, args.out / "sentences", config.seed)
    result["repeat_seconds"] = round(time.perf_counter() - t0, 1)
    t0 = time.perf_counter()
    vocab_config = VocabConfig.model_validate(params["vocab"])
    vocab_config = vocab_config.model_copy(update={"min_count": vocab_config.min_count * args.repeat})
    stats = build_vocabulary(sentences, vocab_config, args.out / "vocab.tsv", args.out / "corpus")
    result |= {"tokens": stats["tokens"], "vocabulary": stats["vocabulary"],
               "vocab_seconds": round(time.perf_counter() - t0, 1), "vocab_peak_rss_gib": _peak_gib()}
    if args.repeat > 1:
        shutil.rmtree(args.out / "sentences")  # the repeated text is not needed beyond the vocab stage
    corpus, vocab = TokenCorpus.load(args.out / "corpus"), Vocabulary.load(args.out / "vocab.tsv")
    t0 = time.perf_counter()
    _, glove, curve = fit_glove(corpus, vocab, config, progress=False, scratch=args.out)
    result |= {"cells": glove["cells"], "spilled_runs": glove["spilled_runs"], "blocks": glove["blocks"],
               "cooccurrence_seconds": glove["cooccurrence_seconds"], "fit_seconds": glove["wall_seconds"],
               "glove_seconds": round(time.perf_counter() - t0, 1), "peak_rss_gib": _peak_gib(), "final": curve[-1],
               "curve": curve}
    committed = ROOT / "metrics" / "train" / "glove.csv"
    if committed.is_file():
        rows = list(csv.DictReader(committed.open()))
        result["committed_final"] = {k: float(v) for k, v in rows[-1].items()}
    (args.out / "bounded_memory.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "curve"}))


if __name__ == "__main__":
    main()
