"""The two supervised relatedness tasks of Wieting & Gimpel 2017 §4.3 (STS 2012-2015 and SICK), run end to end for
one encoder: each task's splits as token ids, the encoder and Tai et al.'s head trained on its training split and
selected on dev (:func:`~sentemb.supervised.training.train_supervised`), and the test predictions.

The encoder comes from the caller (:class:`EncoderFactory`: the supervise stage builds a paraphrastic encoder), so
this family depends on no other.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import numpy as np
import torch
from torch import nn

from sentemb.core.text.config import TextConfig
from sentemb.core.text.tokenization import tokenize
from sentemb.supervised.config import Setting, TrainingConfig
from sentemb.supervised.data import DATASETS, Row, read_split
from sentemb.supervised.similarity import score_range
from sentemb.supervised.training import ScoredPairs, predict, train_supervised

SCORE_RANGES = {"sts": (0.0, 5.0), "sick": (1.0, 5.0)}
"""The published gold scales: STS's [0, 5] is shifted onto [1, 6] (K = 6), SICK's [1, 5] is kept (K = 5)."""


class EncoderFactory(Protocol):
    def __call__(self, words: list[str]) -> tuple[nn.Module, Callable[[list[np.ndarray]], torch.Tensor],
                                                  dict[str, torch.Tensor]]:
        """An encoder over ``words`` (row i = words[i]), its ``embed`` (token-id sentences → (n, dim) embeddings with
        gradients, on the encoder's device) and the anchors of its L2 terms (parameter name → value)."""
        ...


def read_splits(data_dir: str | Path, max_pairs: int | None) -> dict[str, dict[str, list[Row]]]:
    """Both tasks' splits from the supervised-data stage's folder, each cut to its first ``max_pairs`` pairs (quick
    slices; ``None``: all)."""
    splits = {d: {s: read_split(Path(data_dir) / d / f"{s}.tsv") for s in ("train", "dev", "test")} for d in DATASETS}
    if max_pairs is None:
        return splits
    return {d: {s: rows[:max_pairs] for s, rows in data.items()} for d, data in splits.items()}


def run_tasks(splits: dict[str, dict[str, list[Row]]], text: TextConfig, known: set[str] | dict[str, int],
              build: EncoderFactory, training: TrainingConfig, setting: Setting, scramble: float,
              device: torch.device, log_paths: dict[str, str | Path]) -> dict[str, dict]:
    """Train and test one encoder on each task.

    Args:
        splits: from :func:`read_splits`.
        text: the tokenisation (the transfer model's).
        known: the words that have a vector; a task's encoder is built over the words of its three splits found here
            (others are dropped, as in every model here).
        build: makes the encoder over a task's words.
        training, setting, scramble, device: as :func:`~sentemb.supervised.training.train_supervised` (``build``'s
            ``embed`` puts its batches on ``device``).
        log_paths: task → its checkpoint log (CSV).

    Returns:
        task → ``{"stats": the trainer's statistics, "predictions": test predictions on the published scale
        (float64, (n,)), "rows": the test rows, "pairs": (train, dev, test) sizes, "words": the encoder's
        vocabulary size}``.
    """
    tokens = {s: tokenize(s, text) for d in splits.values() for rows in d.values() for _, a, b, _ in rows
              for s in (a, b)}
    out = {}
    for task, data in splits.items():
        words = sorted({w for rows in data.values() for _, a, b, _ in rows for s in (a, b) for w in tokens[s]
                        if w in known})
        index = {w: i for i, w in enumerate(words)}
        offset, k = score_range(*SCORE_RANGES[task])

        def scored(rows: list[Row], index=index, offset=offset) -> ScoredPairs:
            def ids(sentence: str) -> np.ndarray:
                return np.array([index[w] for w in tokens[sentence] if w in index], dtype=np.int64)
            return ScoredPairs([ids(a) for _, a, _, _ in rows], [ids(b) for _, _, b, _ in rows],
                               np.array([g for *_, g in rows], dtype=np.float64) + offset)

        train, dev, test = (scored(data[s]) for s in ("train", "dev", "test"))
        encoder, embed, anchors = build(words)
        stats = train_supervised(encoder, embed, train, dev, test, training, setting, scramble, k, device,
                                 anchors=anchors, log_path=log_paths[task])
        encoder.to(device)
        stats["head"].to(device)
        predictions = predict(encoder, embed, stats["head"], test) - offset
        encoder.to("cpu")
        out[task] = {"stats": stats, "predictions": predictions, "rows": data["test"],
                     "pairs": (len(train), len(dev), len(test)), "words": len(words)}
    return out


def summary(results: dict[str, dict]) -> tuple[dict, dict]:
    """What a run reports of :func:`run_tasks`: per task its test, dev and oracle r ×100, test Spearman ρ, selected
    epoch, pair counts, vocabulary and device, and the mean test r of the tasks; and, apart, the clock readings."""
    metrics, timings = {}, {}
    for task, r in results.items():
        stats = r["stats"]
        train, dev, test = r["pairs"]
        metrics[task] = {"test": stats["test"], "dev": stats["dev"], "test_spearman": stats["spearman"],
                         "oracle": stats["best_test"], "selected_epoch": stats["selected"]["epoch"], "train": train,
                         "dev_pairs": dev, "test_pairs": test, "words": r["words"], "device": stats["device"]}
        timings[task] = {"pairs_per_second": stats["pairs_per_second"], "seconds": stats["seconds"]}
    metrics["mean_test"] = round(sum(m["test"] for m in metrics.values()) / len(results), 4)
    return metrics, timings


def write_predictions(folder: Path, results: dict[str, dict]) -> None:
    """Each task's test predictions as ``folder/TASK_test.tsv`` (set, gold, prediction; full precision), into a new
    folder (the caller makes its replacement atomic)."""
    folder.mkdir(parents=True)
    for task, r in results.items():
        with open(folder / f"{task}_test.tsv", "w", encoding="utf-8") as fh:
            fh.write("set\tgold\tprediction\n")
            fh.writelines(f"{key}\t{gold!r}\t{float(p)!r}\n"
                          for (key, _, _, gold), p in zip(r["rows"], r["predictions"], strict=True))
