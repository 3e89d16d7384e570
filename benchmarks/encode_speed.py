"""Encoding throughput of a word-averaging model on the benchmark sentences, against gensim's own mean of vectors.

Usage (after `dvc repro`, or on any saved word-averaging model):
    python benchmarks/encode_speed.py models/word2vec-cbow [--raw data/raw]

Single process, on every sentence of STS 2012-2016, SICK-R, STS-B and PIT-2015 (the evaluation's sentences). It prints
sentences per second for:

- ``tokenise``: the model's tokeniser (``model.token_ids``) over the raw sentences;
- ``sentemb encode, tokenised``: ``model.encode`` minus the tokenisation, i.e. the averaging itself;
- ``gensim get_mean_vector``: gensim's ``KeyedVectors.get_mean_vector`` per sentence on the same token lists
  (``pre_normalize=False``: the plain mean the model takes), the library's reference;
- ``sparse mean matrix @ vectors``: one (n × V) CSR matrix of 1/length weights times the vectors (scipy), what a
  vectorised averaging can reach;

and the process time of the whole evaluation (``sentemb.evaluation.sts.evaluate``) excluding the model load. All three
means are checked to agree (max |difference|).
"""

import argparse
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from sentemb.data.benchmarks import BENCHMARKS, load_benchmarks
from sentemb.evaluation.sts import evaluate
from sentemb.models import load_model


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
    ids = [model.token_ids(s) for s in sentences]
    tok = time.perf_counter() - t0
    print(f"tokenise: {_rate(n, tok)}")

    t0 = time.perf_counter()
    ours = model.encode(sentences)
    enc = time.perf_counter() - t0 - tok
    print(f"sentemb encode, tokenised: {_rate(n, max(enc, 1e-9))} (encode {time.perf_counter() - t0:.3f} s in all)")

    kv = model.vectors
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
    print(f"max |difference|: sentemb vs gensim {np.abs(ours - ref).max():.2e}, "
          f"sentemb vs sparse {np.abs(ours - fast).max():.2e}")

    t0 = time.process_time()
    evaluate(model, datasets)
    print(f"evaluation of every benchmark: {time.process_time() - t0:.2f} s of process time (model load excluded)")


if __name__ == "__main__":
    main()
