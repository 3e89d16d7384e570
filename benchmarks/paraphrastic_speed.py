"""Training throughput of the paraphrastic encoders: pairs per second of the training step, packed against padded.

Usage (after `dvc repro pairs`):
    python benchmarks/paraphrastic_speed.py [--pairs data/pairs/train.tsv] [--batches 40] [--threads 2]

For each encoder of `params.yaml` `paraphrastic` that trains on sentences (AVG, PROJ, DAN, LSTM, LSTMAVG, GRAN),
with its own settings (dropout, scrambling, negatives, batch size, optimiser), it runs the first ``--batches``
mini-batches of an epoch over the real training pairs and prints the training-step throughput
(``train_paraphrastic``'s ``pairs_per_second``: updates only, selection excluded) of:

- ``packed``: the encoders as the pipeline runs them (recurrences over each sentence's own tokens);
- ``padded``: the recurrent ones with the packing turned off (every row runs to the batch's longest sentence, the
  way the encoders ran before), for the comparison.

The word vectors are random N(0, 1) 300-d (speed does not depend on their values). Also prints the token counts that
bound the work: real tokens per batch against batch × longest sentence.
"""

import argparse
from pathlib import Path

import numpy as np
import torch
import yaml

from sentemb.data.pairs import read_pairs
from sentemb.paraphrastic.composition import ENCODER_ARGS, PeepholeLSTM, build_composition
from sentemb.paraphrastic.training import ParaphraseConfig, train_paraphrastic


def _unpacked(encoder) -> None:
    """Make the encoder's LSTMs run every row for all T steps (the padded loop)."""
    for name in ("lstm", "backward_lstm"):
        lstm = getattr(encoder, name, None)
        if lstm is not None:
            lstm.forward = lambda x, lengths=None, lstm=lstm: PeepholeLSTM.forward(lstm, x)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=Path, default=Path("data/pairs/train.tsv"))
    ap.add_argument("--params", type=Path, default=Path("params.yaml"))
    ap.add_argument("--batches", type=int, default=40)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    rows = [(a.split(), b.split()) for _, a, b in read_pairs(args.pairs, ("source", "sentence1", "sentence2"))]
    index: dict[str, int] = {}
    pairs = [tuple(np.array([index.setdefault(w, len(index)) for w in s], dtype=np.int64) for s in row)
             for row in rows]
    lengths = np.array([len(s) for p in pairs for s in p])
    params = yaml.safe_load(args.params.read_text())["paraphrastic"]
    n = None
    print(f"{len(pairs)} pairs, {len(index)} words, mean sentence length {lengths.mean():.1f} tokens; "
          f"{args.threads} threads, {torch.get_num_threads()} torch threads, {args.dim} d", flush=True)
    vectors = np.random.default_rng(0).standard_normal((len(index), args.dim)).astype(np.float32)
    print("| model | encoder | padded pairs/s | packed pairs/s | speed-up |\n|---|---|---:|---:|---:|")
    for name, p in params.items():
        if p.get("pairs") != "sentences" or (args.only and name not in args.only):
            continue
        n = p["batch_size"] * args.batches
        sub = [pairs[i] for i in np.random.default_rng(1).permutation(len(pairs))[:n]]
        config = ParaphraseConfig(**{k: v for k, v in p.items() if k in ParaphraseConfig.__dataclass_fields__}
                                  | {"epochs": 1, "evals_per_epoch": 1, "device": "cpu"})
        speeds = {}
        for mode in ("padded", "packed") if p["encoder"] in ("lstm", "lstmavg", "gran") else ("packed",):
            enc = build_composition(p["encoder"], vectors, dropout=p["dropout"], word_dropout=p["word_dropout"],
                                    sparse=p["sparse_embeddings"],
                                    **{k: p[k] for k in ENCODER_ARGS[p["encoder"]]})
            if mode == "padded":
                _unpacked(enc)
            stats = train_paraphrastic(enc, sub, config, lambda e: {"none": 0.0}, "none")
            speeds[mode] = stats["pairs_per_second"]
        padded = speeds.get("padded")
        ratio = f"{speeds['packed'] / padded:.2f}×" if padded else "—"
        print(f"| {name} | {p['encoder']} | {padded or '—'} | {speeds['packed']} | {ratio} |", flush=True)
    if n:
        b = params["para-gran"]["batch_size"]
        lens = np.array([[len(pairs[i][0]), len(pairs[i][1])] for i in range(len(pairs))])
        order = np.random.default_rng(1).permutation(len(pairs))
        real, padded_tokens = 0, 0
        for k in range(0, len(order) - b + 1, b):
            chunk = lens[order[k:k + b]]
            real += chunk.sum()
            padded_tokens += b * chunk[:, 0].max() + b * chunk[:, 1].max()
        print(f"tokens per batch of {b} pairs: {real / (len(order) // b):.0f} real, "
              f"{padded_tokens / (len(order) // b):.0f} padded ({padded_tokens / real:.2f}×)")


if __name__ == "__main__":
    main()
