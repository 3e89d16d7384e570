"""Encoding throughput of a word-averaging model on the benchmark sentences, against gensim's own mean of vectors.

Usage (after `dvc repro`, or on any saved word-averaging model):
    python benchmarks/encode_speed.py models/word2vec-cbow [--raw data/raw]

Single process, on every sentence of STS 2012-2016, SICK-R, STS-B and PIT-2015 (the evaluation's sentences). It prints
sentences per second for:

- ``tokenise``: the known words' rows of the raw sentences (``model.ids_and_lengths``);
- ``sentemb encode``: ``model.encode`` on the raw sentences (tokenising included);
- ``sentemb's averaging loop, tokenised``: the loop of ``WordAveragingModel.encode`` (``oov="drop"``: one numpy mean
  per sentence) on the token ids, i.e. the averaging itself;
- ``gensim get_mean_vector``: gensim's ``KeyedVectors.get_mean_vector`` per sentence on the same token lists
  (``pre_normalize=False``: the plain mean the model takes), the library's reference;
- ``sparse mean matrix @ vectors``: one (n × V) CSR matrix of 1/length weights times the vectors (scipy);
- ``torch embedding_bag (mean)``: ``torch.nn.functional.embedding_bag(..., mode="mean")`` over the flat ids and the
  sentence offsets (best of 3), what a vectorised averaging reaches;

and the process time of the whole evaluation (``sentemb.core.evaluation.sts.evaluate``) excluding the model load. All
the means are checked to agree (max |difference|).
"""

import argparse
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import torch

from sentemb.core.data.benchmarks import BENCHMARKS, load_benchmarks
from sentemb.core.evaluation.sts import evaluate
from sentemb.core.models import load_model


def _rate(n: int, seconds: float) -> str:
    return f"{n / seconds:,.0f} sentences/s ({seconds:.3f} s)"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("model", type=Path)
    ap.add_argument("--raw", type=Path, default=Path("data/raw"))
    args = ap.parse_args()
    t0 = time.process_time()
    model = load_model(args.model)
    load = time.process_time() - t0
    datasets = load_benchmarks(args.raw, BENCHMARKS)
    sentences = [s for d in datasets for s in (*d.sentences1, *d.sentences2)]
    n = len(sentences)
    print(f"{args.model}: {len(model.vectors)} words × {model.dim} d, loaded in {load:.2f} s of process time; "
          f"{n} sentences in {len(datasets)} datasets")

    t0 = time.perf_counter()
    rows, lengths = model.ids_and_lengths(sentences)
    ids = np.split(rows, np.cumsum(lengths)[:-1])
    tok = time.perf_counter() - t0
    print(f"tokenise: {_rate(n, tok)}")

    t0 = time.perf_counter()
    ours = model.encode(sentences)
    print(f"sentemb encode: {_rate(n, time.perf_counter() - t0)}")

    vecs = model.vectors.vectors
    t0 = time.perf_counter()
    loop = np.zeros((n, model.dim), dtype=np.float32)
    for row, s in enumerate(ids):
        if len(s):
            loop[row] = vecs[s].mean(axis=0)
    print(f"sentemb's averaging loop, tokenised: {_rate(n, time.perf_counter() - t0)}")

    kv = model.vectors.keyed_vectors()
    keys = [[kv.index_to_key[i] for i in s] for s in ids]
    t0 = time.perf_counter()
    ref = np.stack([kv.get_mean_vector(k, pre_normalize=False) if k else np.zeros(model.dim, np.float32)
                    for k in keys])
    print(f"gensim get_mean_vector: {_rate(n, time.perf_counter() - t0)}")

    t0 = time.perf_counter()
    lengths = np.fromiter(map(len, ids), dtype=np.int64, count=n)
    flat = np.fromiter((i for s in ids for i in s), dtype=np.int64, count=int(lengths.sum()))
    weights = np.repeat(1.0 / np.maximum(lengths, 1), lengths).astype(np.float32)
    mean = sp.csr_matrix((weights, flat, np.concatenate([[0], np.cumsum(lengths)])), shape=(n, len(kv)))
    fast = np.asarray(mean @ kv.vectors, dtype=np.float32)
    print(f"sparse mean matrix @ vectors: {_rate(n, time.perf_counter() - t0)}")
    weight = torch.from_numpy(np.array(vecs, dtype=np.float32))
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        offsets = torch.from_numpy(np.concatenate([[0], np.cumsum(lengths)[:-1]]))
        bag = torch.nn.functional.embedding_bag(torch.from_numpy(flat), weight, offsets, mode="mean").numpy()
        best = min(best, time.perf_counter() - t0)
    print(f"torch embedding_bag (mean): {_rate(n, best)} ({torch.get_num_threads()} torch threads)")
    print(f"max |difference|: sentemb vs gensim {np.abs(ours - ref).max():.2e}, "
          f"sentemb vs loop {np.abs(ours - loop).max():.2e}, sentemb vs sparse {np.abs(ours - fast).max():.2e}, "
          f"sentemb vs embedding_bag {np.abs(ours - bag).max():.2e}")

    t0 = time.process_time()
    evaluate(model, datasets)
    print(f"evaluation of every benchmark: {time.process_time() - t0:.2f} s of process time (model load excluded)")


if __name__ == "__main__":
    main()
