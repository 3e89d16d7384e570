"""Our GloVe trainer side by side with the reference glove.c, on the same co-occurrence counts.

Both fit the same matrix (our ``cooccurrence_matrix`` of a slice, written in glove.c's binary record format, shuffled
once), with the same hyperparameters (glove.c's defaults: η 0.05, x_max 100, α 0.75, grad_clip 100) and the same
number of threads. After every epoch each side's vectors (w + w̃) are scored on SimLex-999 and WordSim-353 with
gensim's ``evaluate_word_pairs``, and summarised by the mean vector norm and the norm of the mean vector over the mean
norm (a large value = a strong common direction). Speed: cells per CPU-second, from a separate glove.c run without
checkpoints (its CPU time for N iterations minus that of 0 iterations) and from our trainer's own CPU clock.

glove.c is built outside this repository from its public source (https://github.com/stanfordnlp/GloVe, ``make``);
pass the directory holding its ``glove`` binary.

    python benchmarks/glove_vs_glove_c.py DATA GLOVE_BUILD OUT [--epochs 10] [--dim 300] [--threads 2] \
        [--fixed-order] [--control-seed 2] [--same-init] [--skip-speed]

``--fixed-order`` gives our trainer the cells in the file's order every epoch (``shuffle=False``), as glove.c reads
them; without it ours draws a new order each epoch, as the pipeline does. ``--control-seed`` runs glove.c once more
with another ``-seed`` (another initialisation; with several threads the interleaving differs too) and prints how far
glove.c lands from itself: the noise floor any "within N points" comparison must be read against.
``--same-init`` starts ours from glove.c's own initial parameters (``-save-init-param 1`` writes them; the benchmark
substitutes them for ``glove_initial_parameters``), so that with ``--fixed-order`` the two differ only in the
interleaving of their lock-free threads (none with ``--threads 1``). ``--skip-speed`` leaves out the timing runs.

DATA is a pipeline's ``data/`` directory after ``dvc repro vocab`` (``corpus/``, ``vocab.tsv``). The table goes to
stdout and ``OUT/glove_vs_glove_c.csv``.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import resource
import subprocess
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import torch
from gensim.models import KeyedVectors

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.evaluation.word_similarity import word_similarity
from sentemb.core.models.word_vectors import WordVectors
from sentemb.wordvectors import glove
from sentemb.wordvectors.config import GloveConfig
from sentemb.wordvectors.cooccurrence import cooccurrence_matrix
from sentemb.wordvectors.glove import train_glove

CREC = np.dtype([("word1", "<i4"), ("word2", "<i4"), ("val", "<f8")])  # glove.c's struct cooccur_rec


def summary(vectors: WordVectors) -> dict:
    sims = word_similarity(vectors)
    norms = np.linalg.norm(vectors.vectors, axis=1)
    return {"simlex": sims["SimLex-999"]["spearman"], "wordsim": sims["WordSim-353"]["spearman"],
            "mean_norm": float(norms.mean()),
            "common_direction": float(np.linalg.norm(vectors.vectors.mean(axis=0)) / norms.mean())}


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_glove_c(binary: Path, out: Path, args, iters: int, checkpoints: bool, seed: int = 1,
                save: str = "glove_c", save_init: bool = False) -> tuple[str, float]:
    cmd = [str(binary), "-input-file", str(out / "cooccurrence.shuf.bin"), "-vocab-file", str(out / "vocab.txt"),
           "-save-file", str(out / (save if checkpoints else "glove_c_timing")), "-vector-size", str(args.dim),
           "-threads", str(args.threads), "-iter", str(iters), "-eta", "0.05", "-alpha", "0.75", "-x-max", "100",
           "-grad-clip", "100", "-binary", "0", "-model", "2", "-write-header", "1", "-verbose", "2",
           "-seed", str(seed), "-checkpoint-every", "1" if checkpoints else "0",
           "-save-init-param", "1" if save_init else "0"]
    before = children_cpu()
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return res.stderr, children_cpu() - before


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("glove_build", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--window", type=int, default=10)
    ap.add_argument("--method", choices=("cells", "batches"), default="cells",
                    help="our trainer's method: glove.c's loop compiled (CPU) or torch mini-batches (the GPU path)")
    ap.add_argument("--batch-size", type=int, default=5000)
    ap.add_argument("--fixed-order", action="store_true",
                    help="ours reads the cells in the file's order every epoch, as glove.c does (shuffle=False)")
    ap.add_argument("--control-seed", type=int, default=None,
                    help="also run glove.c with this -seed and print its distance from the seed-1 run")
    ap.add_argument("--same-init", action="store_true", help="ours starts from glove.c's initial parameters")
    ap.add_argument("--skip-speed", action="store_true", help="no timing runs (no cells per CPU-second)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)

    vocab = Vocabulary.load(args.data / "vocab.tsv")
    corpus = TokenCorpus.load(args.data / "corpus")
    x = cooccurrence_matrix(corpus, len(vocab), window=args.window).tocoo()
    print(f"vocabulary {len(vocab):,} words, {corpus.n_sentences:,} sentences, {len(corpus.token_ids):,} tokens; "
          f"{x.nnz:,} non-zero cells (window {args.window})", flush=True)
    rng = np.random.default_rng(1)
    order = rng.permutation(x.nnz)  # glove.c's `shuffle` step: one random order, read every iteration
    records = np.empty(x.nnz, dtype=CREC)
    records["word1"], records["word2"], records["val"] = x.row[order] + 1, x.col[order] + 1, x.data[order]
    records.tofile(args.out / "cooccurrence.shuf.bin")
    with open(args.out / "vocab.txt", "w", encoding="utf-8") as fh:
        fh.writelines(f"{w} {c}\n" for w, c in zip(vocab.words, vocab.counts.tolist(), strict=True))

    binary = args.glove_build / "glove"

    def glove_c_epochs(seed: int) -> tuple[list[float], list[dict]]:
        save = f"glove_c_seed{seed}"
        log, _ = run_glove_c(binary, args.out, args, args.epochs, checkpoints=True, seed=seed, save=save,
                             save_init=args.same_init and seed == 1)
        costs = [float(c) for c in re.findall(r"iter: \d+, cost: ([0-9.eE+-]+)", log)]
        summaries = []
        for it in range(1, args.epochs + 1):
            path = args.out / f"{save}.{it:03d}.txt"
            kv = KeyedVectors.load_word2vec_format(str(path), binary=False)
            summaries.append(summary(WordVectors.from_arrays(kv.index_to_key, np.zeros(len(kv)), kv.vectors)))
            os.remove(path)
        print(f"glove.c seed {seed}: {args.epochs} iterations scored", flush=True)
        return costs, summaries

    c_costs, c_rows = glove_c_epochs(1)
    control = glove_c_epochs(args.control_seed)[1] if args.control_seed is not None else None
    if not args.skip_speed:
        _, cpu_n = run_glove_c(binary, args.out, args, 3, checkpoints=False)
        _, cpu_0 = run_glove_c(binary, args.out, args, 0, checkpoints=False)
        c_speed = 3 * x.nnz / max(cpu_n - cpu_0, 1e-9)
    if args.same_init:  # glove.c's W: 2V rows of (dim + 1) doubles, words then contexts, the bias last in each row
        init = np.fromfile(args.out / "glove_c_seed1.000.bin", dtype=np.float64).reshape(2 * len(vocab), args.dim + 1)
        v = len(vocab)
        glove_c_init = {"w": init[:v, :-1], "w_ctx": init[v:, :-1], "b": init[:v, -1], "b_ctx": init[v:, -1]}
        glove.glove_initial_parameters = lambda *_: {k: torch.from_numpy(a.copy()) for k, a in glove_c_init.items()}

    ours_rows = []

    def on_epoch(epoch: int, cost: float, vectors: np.ndarray) -> None:
        ours_rows.append({"cost": cost} | summary(WordVectors(vocab, vectors)))
        print(f"ours epoch {epoch}: cost {cost:.6f}", flush=True)

    t0 = time.perf_counter()
    if args.fixed_order:  # the file's cells, in the file's order
        x = sp.coo_matrix((records["val"], (records["word1"] - 1, records["word2"] - 1)), shape=x.shape)
    config = GloveConfig(method="glove", vector_size=args.dim, window=args.window, x_max=100.0, alpha=0.75, lr=0.05,
                         grad_clip=100.0, epochs=args.epochs, fit=args.method, threads=args.threads,
                         batch_size=args.batch_size, seed=1, device="auto")  # glove.c's settings, as run above
    ours_vectors, stats = train_glove(x, config, torch.device("cuda" if args.method == "batches"
                                                              and torch.cuda.is_available() else "cpu"),
                                      shuffle=not args.fixed_order, on_epoch=on_epoch)
    if args.same_init:  # glove.c's final vectors (w + w̃, text with 6 decimals) against ours, row by row
        final = KeyedVectors.load_word2vec_format(str(args.out / "glove_c_seed1.txt"), binary=False)
        rows = [(i, final.key_to_index[w]) for i, w in enumerate(vocab.words) if w in final.key_to_index]
        diff = np.abs(ours_vectors[[i for i, _ in rows]] - final.vectors[[j for _, j in rows]])
        print(f"final vectors of {len(rows):,} words, ours − glove.c: max |difference| {diff.max():.2e}, "
              f"mean {diff.mean():.2e} (glove.c writes 6 decimals)", flush=True)
    print(f"ours: {stats['cpu_seconds']} CPU s, {stats['wall_seconds']} wall s for {args.epochs} epochs "
          f"({time.perf_counter() - t0:.0f} s with the scoring)", flush=True)

    header = ["epoch", "cost_glove_c", "cost_ours", "simlex_glove_c", "simlex_ours", "wordsim_glove_c",
              "wordsim_ours", "mean_norm_glove_c", "mean_norm_ours", "common_direction_glove_c",
              "common_direction_ours"]
    rows = []
    for e, (c, o) in enumerate(zip(c_rows, ours_rows, strict=True), start=1):
        rows.append([e, c_costs[e - 1], o["cost"], c["simlex"], o["simlex"], c["wordsim"], o["wordsim"],
                     c["mean_norm"], o["mean_norm"], c["common_direction"], o["common_direction"]])
        if control is not None:
            rows[-1] += [control[e - 1]["simlex"], control[e - 1]["wordsim"]]
    if control is not None:
        header += [f"simlex_glove_c_seed{args.control_seed}", f"wordsim_glove_c_seed{args.control_seed}"]
    with open(args.out / "glove_vs_glove_c.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    print("\n| epoch | cost glove.c | cost ours | SimLex glove.c | SimLex ours | WordSim glove.c | WordSim ours "
          "| mean norm glove.c / ours | common direction glove.c / ours |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r[0]} | {r[1]:.6f} | {r[2]:.6f} | {r[3]:.2f} | {r[4]:.2f} | {r[5]:.2f} | {r[6]:.2f} "
              f"| {r[7]:.3f} / {r[8]:.3f} | {r[9]:.3f} / {r[10]:.3f} |")
    gaps = [max(abs(r[3] - r[4]), abs(r[5] - r[6])) for r in rows]
    print("\nlargest |ours − glove.c| per epoch (SimLex-999 or WordSim-353): "
          + ", ".join(f"{g:.2f}" for g in gaps))
    if control is not None:
        print(f"\nglove.c against itself (-seed 1 vs -seed {args.control_seed}):\n")
        print(f"| epoch | SimLex seed 1 | SimLex seed {args.control_seed} | WordSim seed 1 "
              f"| WordSim seed {args.control_seed} | largest gap |")
        print("|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r[0]} | {r[3]:.2f} | {r[11]:.2f} | {r[5]:.2f} | {r[12]:.2f} "
                  f"| {max(abs(r[3] - r[11]), abs(r[5] - r[12])):.2f} |")
    how = f"batches of {args.batch_size:,}" if args.method == "batches" else "cells"
    if not args.skip_speed:
        print(f"\ncells per CPU-second: glove.c {c_speed:,.0f}, ours {stats['cells_per_cpu_second']:,} "
              f"({args.threads} threads each; ours by {how})")


if __name__ == "__main__":
    main()
