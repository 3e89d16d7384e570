"""Our Siamese CBOW step side by side with the authors' Theano code (Kenter et al. 2016, ``siamese_cbowUtils.py``).

Both sides get the same initial word vectors (N(0, 0.01²), §3.4), the same batches of (centre, previous, next,
negatives…) sentences and the same learning rate at every step (the linear decay of the authors'
``updateLearningRate``, which our trainer applies too). Per step this prints the batch's loss each side computes
(their ``train_fn``: the categorical cross-entropy of the cosine softmax against the target [½, ½, 0, 0…]; ours:
:class:`~sentemb.siamese_cbow.fused.FusedSGD`, the compiled SGD step our trainer runs on the CPU) and, after the last
step, ‖W_ours − W_theirs‖ / ‖W_theirs − W_0‖: how far apart the two sides' vectors are relative to how far training
moved them.

The reference side runs the authors' ``build_scbow`` (cosine last layer, shared weights, plain SGD, no
regularisation, no gradient clipping: their defaults for the released vectors) in a separate interpreter that has
Theano and Lasagne; this script drives it (``reference-side``) and never copies it. Their vocabulary keeps row 0 as
the padding vector (zeros, masked by their gate layer), so their row i + 1 is our row i.

Setting up the reference (outside this repository; Python 3.11): the interpreter of
``benchmarks/paraphrastic_vs_reference.py`` (Theano 1.0.5, Lasagne 0.2.dev1), and ``siamese_cbowUtils.py`` from a
Python 3 port of the authors' repository (github.com/kirokuan/Siamese-Cbow-py3, a port of Tom Kenter's
bitbucket.org/TomKenter/siamese-cbow; the original is Python 2). Then:

    python benchmarks/siamese_cbow_vs_reference.py --reference DIR_WITH_siamese_cbowUtils --python REF/venv/bin/python

The sentences are TurkCorpus's distinct sentences in file order, read as one document (the mirror of the official
files, ``SENTEMB_SHARED_DATA`` or ``../shared/data``), tokenised as the pipeline does and cut at ``--max-length``
tokens; negatives are drawn uniformly from all of them, once, for both sides.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np


def reference_side(inputs: str, output: str, reference: str) -> None:
    sys.path.insert(0, reference)
    import lasagne
    import siamese_cbowUtils

    data = np.load(inputs, allow_pickle=False)
    settings = json.loads(str(data["settings"]))
    init = data["init"]
    args = argparse.Namespace(iMaxNrOfTokens=settings["max_length"], iNeg=settings["neg"], fGradientClippingBound=None,
                              bShareWeights=True, sLastLayer="cosine", bRegularize=False, sUpdate="sgd",
                              fLearningRate=settings["lrs"][0], bVerbose=False)
    network, _, learning_rate, train_fn = siamese_cbowUtils.build_scbow(
        args, iPos=2, tWeightShape=(init.shape[0] + 1, init.shape[1]))
    (embedding,) = lasagne.layers.get_all_params(network, trainable=True)  # shared weights: one matrix
    embedding.set_value(np.vstack([np.zeros((1, init.shape[1]), np.float32), init]))
    b1, b2 = data["batch_1"], data["batch_2"]  # (steps, B, L) and (steps, B, 2 + neg, L): ids + 1, 0 = padding
    targets = np.zeros((b1.shape[1], 2 + settings["neg"]), dtype=np.float32)
    targets[:, [0, 1]] = 0.5  # their getTargets for two positives
    losses = []
    for step, lr in enumerate(settings["lrs"]):
        learning_rate.set_value(np.float32(lr))
        losses.append(float(train_fn(b1[step], b2[step], targets)))
    np.savez(output, loss=np.array(losses), vectors=embedding.get_value()[1:])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", required=True, help="the directory holding the authors' siamese_cbowUtils.py")
    ap.add_argument("--python", required=True, help="an interpreter with Theano 1.0.5 and Lasagne")
    ap.add_argument("--sentences", type=int, default=6000)
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--batch-size", type=int, default=100)
    ap.add_argument("--neg", type=int, default=2)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--max-length", type=int, default=50)
    ap.add_argument("--lr", type=float, default=1.3e-3, help="lr₀ (our default run's: Σ lr = 67 over its batches)")
    ap.add_argument("--decay-batches", type=float, default=None,
                    help="the decay horizon T in batches (default: --steps, so the rate falls to lr₀·1e-4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", type=Path, default=Path(os.environ.get("SENTEMB_SHARED_DATA", "../shared/data")))
    args = ap.parse_args()

    import yaml

    from sentemb.core.data.pairs import read_turkcorpus
    from sentemb.core.text.config import TextConfig
    from sentemb.core.text.tokenization import tokenize
    from sentemb.siamese_cbow.fused import FusedSGD

    text = TextConfig.model_validate(yaml.safe_load(Path("params.yaml").read_text(encoding="utf-8"))["text"])

    seen: set[tuple[str, ...]] = set()
    sentences: list[tuple[str, ...]] = []
    for pair in read_turkcorpus(args.data):
        for s in pair:
            tokens = tuple(tokenize(s, text))[: args.max_length]
            if tokens and tokens not in seen:
                seen.add(tokens)
                sentences.append(tokens)
        if len(sentences) >= args.sentences:
            break
    vocab: dict[str, int] = {}
    for s in sentences:
        for w in s:
            vocab.setdefault(w, len(vocab))
    ids = [np.array([vocab[w] for w in s], dtype=np.int64) for s in sentences]
    rng = np.random.default_rng(args.seed)
    init = rng.normal(0.0, 0.01, (len(vocab), args.dim)).astype(np.float32)
    b, k, steps = args.batch_size, args.neg, args.steps
    if steps * b > len(ids) - 2:
        raise SystemExit(f"--steps {steps} × --batch-size {b} needs more than the {len(ids)} sentences")
    horizon = args.decay_batches or steps
    lrs = [max(args.lr * 1e-4, args.lr * (1.0 - t / horizon)) for t in range(steps)]  # their updateLearningRate
    centres = 1 + np.arange(steps * b).reshape(steps, b)
    negatives = rng.integers(0, len(ids), (steps, b, k))

    # their layout: (B, L) centres and (B, 2 + k, L) [previous, next, negatives…], ids + 1 with 0 as padding
    width = args.max_length
    batch_1 = np.zeros((steps, b, width), dtype=np.uint32)
    batch_2 = np.zeros((steps, b, 2 + k, width), dtype=np.uint32)
    for t in range(steps):
        for i, c in enumerate(centres[t]):
            rows = [c - 1, c + 1, *negatives[t, i]]
            batch_1[t, i, : len(ids[c])] = ids[c] + 1
            for j, r in enumerate(rows):
                batch_2[t, i, j, : len(ids[r])] = ids[r] + 1

    print(f"{len(ids)} TurkCorpus sentences, {len(vocab)} words, dim {args.dim}, {steps} SGD steps of {b} centres "
          f"with {k} negatives each, lr {lrs[0]:g} decaying linearly to {lrs[-1]:.3g}, float32")
    with tempfile.TemporaryDirectory() as tmp:
        inputs, output = Path(tmp) / "in.npz", Path(tmp) / "out.npz"
        np.savez(inputs, init=init, batch_1=batch_1, batch_2=batch_2,
                 settings=json.dumps({"max_length": width, "neg": k, "lrs": lrs}))
        env = os.environ | {"THEANO_FLAGS": f"floatX=float32,device=cpu,blas.ldflags=,base_compiledir={tmp}/theano",
                            "OMP_NUM_THREADS": "1"}
        subprocess.run([args.python, __file__, "reference-side", str(inputs), str(output), args.reference],
                       check=True, env=env)
        ref = np.load(output)

    # ours: the fused step over the corpus in place, the batch's sentences as [centres, previous, next, negatives…]
    tokens = np.concatenate(ids)
    starts_all = np.concatenate([[0], np.cumsum([len(s) for s in ids])[:-1]]).astype(np.int64)
    lengths_all = np.array([len(s) for s in ids], dtype=np.int64)
    weights = init.copy()
    step = FusedSGD(weights, threads=1)
    ours = []
    for t in range(steps):
        rows = np.concatenate([centres[t], centres[t] - 1, centres[t] + 1, negatives[t].T.reshape(-1)])
        ours.append(step(tokens, starts_all[rows], lengths_all[rows], b, lrs[t]))
    ours = np.array(ours)
    diff = np.abs(ours - ref["loss"])
    moved = np.linalg.norm(ref["vectors"].astype(np.float64) - init)
    apart = np.linalg.norm(weights.astype(np.float64) - ref["vectors"])
    print(f"loss per step: largest |ours - theirs| {diff.max():.2e} (relative {(diff / ref['loss']).max():.2e}); "
          f"after {steps} steps ‖W_ours − W_theirs‖ / ‖W_theirs − W_0‖ = {apart / moved:.2e} "
          f"(‖W_theirs − W_0‖ = {moved:.3e})")
    print("step  lr          theirs    ours")
    for t in range(steps):
        print(f"{t + 1:4d}  {lrs[t]:.4e}  {ref['loss'][t]:.6f}  {ours[t]:.6f}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "reference-side":
        reference_side(*sys.argv[2:5])
    else:
        main()
