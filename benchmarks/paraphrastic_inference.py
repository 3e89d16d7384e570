"""How fast a saved paraphrastic model encodes with its NumPy forward pass, against the torch module it was trained as.

Usage (after `dvc repro`, on the run's models; or on untrained encoders derived from one word-averaging model):
    python benchmarks/paraphrastic_inference.py models/para-gran models/para-lstmavg [--raw data/raw]
    python benchmarks/paraphrastic_inference.py --derive /tmp/inference models/word2vec-cbow [--encoders gran lstm]

Every sentence of STS 2012-2016, SICK-R, STS-B and PIT-2015 (the evaluation's sentences), tokenised once; then, in
one process, alternating, best of ``--rounds``: ``model.forward.encode`` (what ``load_model(...).encode`` runs:
NumPy, :mod:`sentemb.paraphrastic.inference`) and ``encode_ids`` of ``model.torch_encoder()`` (the training code's
torch module in evaluation mode), both in batches of 512 distinct sentences, longest first. Prints sentences per
second, their ratio and the largest |difference| between the two embeddings.

``--derive DIR BASE``: from the word-averaging model BASE, save into DIR one untrained encoder (seed 0) of each of
``--encoders`` (params.yaml's ``para-NAME`` composition) over BASE's vectors, and time those: the cost of encoding
does not depend on the values of the parameters.
"""

import argparse
import shutil
import time
from pathlib import Path

import numpy as np
import torch
from derived_models import base_model, untrained_paraphrastic

from sentemb.core.data.benchmarks import BENCHMARKS, load_benchmarks
from sentemb.core.models import load_model
from sentemb.paraphrastic.composition import encode_ids


def derive(directory: Path, base: Path, encoders: list[str]) -> list[Path]:
    """Untrained paraphrastic models over ``base``'s vectors, one a name of ``encoders``, in ``directory`` beside a
    copy of ``base`` (a model's base is a sibling)."""
    directory.mkdir(parents=True, exist_ok=True)
    if not (directory / base.name).exists():
        shutil.copytree(base, directory / base.name)
    base = directory / base.name
    vectors, text = base_model(base)
    return [untrained_paraphrastic(directory / f"para-{name}", name, base, vectors, text) for name in encoders]


def timed(run) -> tuple[float, np.ndarray]:
    """Wall seconds of ``run()`` and its result."""
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", type=Path, help="paraphrastic model directories (with --derive: DIR BASE)")
    ap.add_argument("--derive", action="store_true", help="derive untrained encoders: models are DIR and BASE")
    ap.add_argument("--encoders", nargs="+", default=["gran", "lstmavg", "lstm", "avg"])
    ap.add_argument("--raw", type=Path, default=Path("data/raw"))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    models = derive(args.models[0], args.models[1], args.encoders) if args.derive else args.models
    datasets = load_benchmarks(args.raw, BENCHMARKS)
    sentences = [s for d in datasets for s in (*d.sentences1, *d.sentences2)]
    print(f"{len(sentences)} sentences of {len(datasets)} datasets; torch threads {torch.get_num_threads()}\n")
    print("| model | NumPy (sentences/s) | torch (sentences/s) | NumPy / torch | max abs difference |")
    print("|---|---:|---:|---:|---:|")
    for directory in models:
        model = load_model(directory)
        ids = model.token_ids(sentences)
        encoder = model.torch_encoder()
        numpy_s = torch_s = float("inf")
        for _ in range(args.rounds):  # alternating, so that a drift of the machine's speed hits both
            t, ours = timed(lambda: model.forward.encode(ids))  # noqa: B023 (called at once)
            numpy_s = min(numpy_s, t)
            t, theirs = timed(lambda: encode_ids(encoder, ids))  # noqa: B023
            torch_s = min(torch_s, t)
        n = len(sentences)
        print(f"| {directory.name} ({model.composition.encoder}) | {n / numpy_s:,.0f} | {n / torch_s:,.0f} | "
              f"{torch_s / numpy_s:.2f} | {np.abs(ours - theirs).max():.1e} |")


if __name__ == "__main__":
    main()
