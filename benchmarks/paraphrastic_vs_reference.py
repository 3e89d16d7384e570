"""Our paraphrastic trainer side by side with the authors' Theano code (Wieting & Gimpel 2017, jwieting/acl2017;
Wieting et al. 2016, jwieting/iclr2016).

Both sides get the same word vectors, the same initial composition parameters (drawn N(0, 0.1) with zero biases, as
Lasagne initialises them), the same pairs and the same mini-batches in the same order; dropout and scrambling are
off (their random draws cannot be matched across two libraries) and the negatives are MAX, chosen by each side's
own code. For each case (CASES: our para-avg, para-lstmavg and para-gran settings against acl2017's ``models``
class, AVG under PARAGRAM's AdaGrad, and our para-proj, para-dan and para-lstm settings against iclr2016's
``ppdb_proj_model``, ``ppdb_dan_model`` and ``ppdb_lstm_model``) this prints:

- the gradient of the first batch's hinge loss at the initial parameters, parameter by parameter,
  ‖g_ours − g_theirs‖ / ‖g_theirs‖ (theirs: one SGD step of rate 1 through their ``train_function``);
- for one epoch of the case's optimiser: the hinge cost each side computes before each update (the authors'
  ``cost_function``; ours: the loss :func:`~sentemb.paraphrastic.training.train_paraphrastic` logs, to 6
  decimals), and after the last step how far apart the two sides' parameters are relative to how far training moved
  them, ‖θ_ours − θ_theirs‖ / ‖θ_theirs − θ_initial‖, for the word embeddings and the composition parameters.

Ours runs the trainer as configured (each regulariser weighted by λ/2 and Lasagne's Adam or AdaGrad,
:mod:`sentemb.core.optim.lasagne`, as the authors' code), and as it was before: torch's Adam or Adagrad (patched in for
that run) and each regulariser weighted by λ as the papers write it.

The reference side runs the authors' classes (their graph, their negative selection ``get_pairs`` /
``ppdb_utils.getpairs``, their ``train_function`` with Lasagne's Adam or AdaGrad) step by step, in a separate
interpreter that has Theano and Lasagne; this script drives it (``reference-side``), it never copies it. iclr2016's
``cost_function`` includes the regularisers; the script subtracts them (computed from the current parameters) to
compare hinge costs. Ours runs :func:`~sentemb.paraphrastic.training.train_paraphrastic` with dense embeddings and
dense optimiser steps (``sparse_embeddings: false``, the papers' exact objective) for one epoch over the same pairs,
whose first permutation is the batch order both sides use.

Setting up the reference (outside this repository; Python 3.11, no GPU):

    python -m venv REF/venv && REF/venv/bin/pip install numpy==1.23.5 scipy==1.10.1 theano==1.0.5
    REF/venv/bin/pip install LASAGNE    # a checkout of github.com/Lasagne/Lasagne (0.2.dev1; PyPI's 0.1 needs an
                                        # older Theano)
    REF/venv/bin/pip install scikit-learn==1.3.2     # iclr2016's evaluate.py imports it
    git archive of github.com/jwieting/acl2017 → REF/acl2017, of github.com/jwieting/iclr2016 → REF/iclr2016;
    python -m lib2to3 -w -n -x import REF/acl2017/main REF/iclr2016/main   (their code is Python 2: print
    statements, xrange, cPickle; "-x import" keeps their imports absolute, as they are run from their directory)

then ``python benchmarks/paraphrastic_vs_reference.py --reference REF/acl2017/main --reference-iclr2016
REF/iclr2016/main --python REF/venv/bin/python``.
The script sets Theano's flags itself: ``floatX=float32`` (the authors' ``train.sh``), no BLAS link flags (NumPy's
BLAS), and Scan's Python loop (its Cython extension does not compile against Python 3.11's headers). About 11
minutes on this 2-core machine for the seven cases at the defaults, most of it Theano compiling and Scan's loop.

The pairs are TurkCorpus's (the local mirror of the official files, ``SENTEMB_SHARED_DATA`` or ``../shared/data``),
tokenised as the pipeline does, with every sentence that occurred before dropped (so that no batch holds one
sentence twice: the authors' MAX may then pick the copy as a negative, ours never does).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

GATES = ("ingate", "forgetgate", "cell", "outgate")
# the authors' model name → ours (acl2017: models.py's params.model; iclr2016: ppdb_MODEL_model.py)
MODELS = {"wordaverage": "avg", "lstmavg": "lstmavg", "gran": "gran", "proj": "proj", "dan": "dan", "lstm": "lstm"}
OPTIMIZERS = {"adam": "adam", "adagrad": "adagrad_lasagne"}  # Lasagne's rule → its name in our registry
# the authors' encoders as our compositions: one layer, the output gate, one direction, GRAN-1, no dropout
ARGUMENTS = {"layers": 1, "output_gate": True, "bidirectional": False, "combine": "sum", "variant": 1}


def composition(model: str):
    from sentemb.paraphrastic.config import ENCODER_ARGUMENTS, Composition

    encoder = MODELS[model]
    return Composition(encoder=encoder, dropout=0.0, word_dropout=0.0,
                       **{k: ARGUMENTS[k] for k in ENCODER_ARGUMENTS[encoder]})


def text_config():
    """The pipeline's tokenisation (params.yaml ``text``)."""
    import yaml

    from sentemb.core.text.config import TextConfig

    return TextConfig.model_validate(yaml.safe_load(Path("params.yaml").read_text(encoding="utf-8"))["text"])
# case → (the authors' code, their model, margin, λw, λc, optimiser, learning rate): our params.yaml's para-avg,
# para-lstmavg, para-gran (Wieting & Gimpel 2017, acl2017), para-proj, para-dan, para-lstm (Wieting et al. 2016,
# iclr2016; MAX negatives for para-lstm's MIX), and PARAGRAM's optimiser and λw (AdaGrad 0.05, margin 1; MAX negatives
# instead of its MIX) on acl2017's AVG
CASES = {"wordaverage": ("acl2017", "wordaverage", 0.6, 1e-6, 0.0, "adam", 0.001),
         "lstmavg": ("acl2017", "lstmavg", 0.4, 0.0, 0.0, "adam", 0.001),
         "gran": ("acl2017", "gran", 0.4, 0.0, 0.0, "adam", 0.001),
         "wordaverage-adagrad": ("acl2017", "wordaverage", 1.0, 1e-6, 0.0, "adagrad", 0.05),
         "proj": ("iclr2016", "proj", 0.4, 1e-8, 1e-5, "adam", 0.0005),
         "dan": ("iclr2016", "dan", 0.4, 1e-5, 1e-5, "adagrad", 0.05),
         "lstm": ("iclr2016", "lstm", 0.4, 1e-5, 0.0, "adam", 0.001)}


# ---------------------------------------------------------------------------------------------------------------
# the reference side: runs in the interpreter with Theano and Lasagne


def reference_side(inputs: str, output: str, reference: str) -> None:
    sys.modules["theano.scan_module.scan_perform_ext"] = None  # Scan's Python loop: its Cython does not build on 3.11
    sys.path.insert(0, reference)
    import importlib

    import lasagne

    data = np.load(inputs, allow_pickle=False)
    settings = json.loads(str(data["settings"]))
    dim = int(data["vectors"].shape[1])
    params = argparse.Namespace(margin=settings["margin"], LC=settings["lambda_c"], LW=settings["lambda_w"],
                                learner=getattr(lasagne.updates, settings["learner"]), eta=settings["lr"])
    if settings["code"] == "acl2017":  # models.py: one class, params.model picks the encoder
        from models import models

        params.__dict__.update(dropout=0.0, word_dropout=0.0, model=settings["model"], outgate=True, dim=dim,
                               gran_type=1, sumlayer=False, samplingtype="MAX", scramble=0.0)
        model = models(data["vectors"], params)

        def get_pairs(batch):
            return model.get_pairs(batch, params)
    else:  # iclr2016: ppdb_MODEL_model.py, negatives from ppdb_utils.getpairs; the demo's settings (demo.sh)
        import ppdb_utils

        params.__dict__.update(layersize=dim, hiddensize=dim, numlayers=1, peephole=True, outgate=True,
                               updatewords=True, clip=None, type="MAX",
                               nonlinearity={"proj": lasagne.nonlinearities.linear}.get(settings["model"],
                                                                                    lasagne.nonlinearities.tanh))
        module = importlib.import_module(f"ppdb_{settings['model']}_model")
        model = getattr(module, f"ppdb_{settings['model']}_model")(data["vectors"], params)

        def get_pairs(batch):
            return ppdb_utils.getpairs(model, batch, params)
    # names: the embeddings "W"; a dense layer's "W" and "b" (iclr2016's PROJ, DAN) become "W_dense", "b_dense"
    names = ["W"] + [p.name + "_dense" if p.name in ("W", "b") else p.name for p in model.all_params[1:]]
    for name, p in zip(names[1:], model.all_params[1:], strict=True):
        p.set_value(data["init_" + name].astype(p.get_value().dtype))
    initial = data["vectors"].astype(np.float64)

    def regularisers() -> float:  # what iclr2016's cost_function adds to the hinge cost (acl2017's does not)
        if settings["code"] == "acl2017":
            return 0.0
        values = [p.get_value().astype(np.float64) for p in model.all_params]
        return (0.5 * settings["lambda_w"] * float(((values[0] - initial) ** 2).sum())
                + 0.5 * settings["lambda_c"] * sum(float((v ** 2).sum()) for v in values[1:]))

    class Sentence:  # what the authors' negative sampling reads: token ids and, after a forward pass, the embedding
        def __init__(self, ids):
            self.embeddings = list(ids)
            self.representation = None

    ids, lengths = data["ids"], data["lengths"]
    ends = np.cumsum(lengths)
    sentences = [ids[e - n:e].tolist() for e, n in zip(ends, lengths, strict=True)]
    costs = []
    for batch in np.split(data["order"], data["batch_starts"][1:]):
        pairs = [(Sentence(sentences[2 * i]), Sentence(sentences[2 * i + 1])) for i in batch]
        g1x, g1m, g2x, g2m, p1x, p1m, p2x, p2m = get_pairs(pairs)
        costs.append(float(model.cost_function(g1x, g2x, p1x, p2x, g1m, g2m, p1m, p2m)) - regularisers())
        model.train_function(g1x, g2x, p1x, p2x, g1m, g2m, p1m, p2m)
    np.savez(output, cost=np.array(costs), names=np.array(names),
             **{f"final_{i}": p.get_value() for i, p in enumerate(model.all_params)})


# ---------------------------------------------------------------------------------------------------------------
# our side


def load_pairs(root: Path, count: int) -> list[tuple[list[str], list[str]]]:
    """The first ``count`` TurkCorpus pairs whose two sentences are both new and non-empty, tokenised."""
    from sentemb.core.data.pairs import read_turkcorpus
    from sentemb.core.text.tokenization import tokenize

    text = text_config()
    seen: set[tuple[str, ...]] = set()
    out = []
    for a, b in read_turkcorpus(root):
        ta, tb = tuple(tokenize(a, text)), tuple(tokenize(b, text))
        if not ta or not tb or ta in seen or tb in seen or ta == tb:
            continue
        seen.update((ta, tb))
        out.append((list(ta), list(tb)))
        if len(out) == count:
            break
    return out


def initial_parameters(model: str, dim: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The composition parameters under the authors' names and shapes: W_in (dim, dim), used as x·W."""
    init: dict[str, np.ndarray] = {}
    normal = lambda *shape: rng.normal(0.0, 0.1, shape).astype(np.float32)  # noqa: E731
    if model == "wordaverage":
        return init
    if model in ("proj", "dan"):
        return {"W_dense": normal(dim, dim), "b_dense": np.zeros(dim, dtype=np.float32)}
    for g in GATES:
        init[f"W_in_to_{g}"], init[f"W_hid_to_{g}"] = normal(dim, dim), normal(dim, dim)
        init[f"b_{g}"] = np.zeros(dim, dtype=np.float32)
    for g in ("ingate", "forgetgate", "outgate"):
        init[f"W_cell_to_{g}"] = normal(dim)
    if model == "gran":
        init["W_avg1"], init["W_avg2"], init["b_avg"] = normal(dim, dim), normal(dim, dim), np.zeros(dim, np.float32)
    return init


def _dense_layer(encoder):
    """The one linear layer of PROJ (``projection``) or of a one-layer DAN (``layers[0]``)."""
    return encoder.projection if hasattr(encoder, "projection") else encoder.layers[0]


def ours_from_reference(encoder, p: dict[str, np.ndarray]) -> None:
    """Copy parameters named as the authors' into our encoder (the transposes of x·W into nn.Linear)."""
    import torch

    if not p:
        return
    if "W_dense" in p:
        layer = _dense_layer(encoder)
        with torch.no_grad():
            layer.weight.copy_(torch.from_numpy(p["W_dense"].T.copy()))
            layer.bias.copy_(torch.from_numpy(p["b_dense"]))
        return
    cat = lambda kind: np.concatenate([p[f"{kind}_{g}"] for g in GATES], axis=-1)  # noqa: E731
    with torch.no_grad():
        lstm = encoder.lstm
        lstm.w_x.weight.copy_(torch.from_numpy(cat("W_in_to").T.copy()))
        lstm.w_x.bias.copy_(torch.from_numpy(np.concatenate([p[f"b_{g}"] for g in GATES])))
        lstm.w_h.weight.copy_(torch.from_numpy(cat("W_hid_to").T.copy()))
        lstm.peephole.copy_(torch.from_numpy(np.stack([p[f"W_cell_to_{g}"]
                                                       for g in ("ingate", "forgetgate", "outgate")])))
        if hasattr(encoder, "gate_x"):
            encoder.gate_x.weight.copy_(torch.from_numpy(p["W_avg1"].T.copy()))
            encoder.gate_x.bias.copy_(torch.from_numpy(p["b_avg"]))
            encoder.gate_h.weight.copy_(torch.from_numpy(p["W_avg2"].T.copy()))


def reference_from_ours(encoder, grad: bool = False) -> dict[str, np.ndarray]:
    """Our encoder's composition parameters (or their gradients) under the authors' names (the inverse of
    :func:`ours_from_reference`)."""
    value = (lambda t: t.grad.detach().numpy()) if grad else (lambda t: t.detach().numpy())
    if hasattr(encoder, "projection") or hasattr(encoder, "layers"):
        layer = _dense_layer(encoder)
        return {"W_dense": value(layer.weight).T, "b_dense": value(layer.bias)}
    if not hasattr(encoder, "lstm"):
        return {}
    d, lstm = encoder.dim, encoder.lstm
    w_x, b, w_h, peephole = map(value, (lstm.w_x.weight, lstm.w_x.bias, lstm.w_h.weight, lstm.peephole))
    out = {}
    for k, g in enumerate(GATES):
        out[f"W_in_to_{g}"], out[f"W_hid_to_{g}"] = w_x[k * d:(k + 1) * d].T, w_h[k * d:(k + 1) * d].T
        out[f"b_{g}"] = b[k * d:(k + 1) * d]
    for k, g in enumerate(("ingate", "forgetgate", "outgate")):
        out[f"W_cell_to_{g}"] = peephole[k]
    if hasattr(encoder, "gate_x"):
        out["W_avg1"], out["W_avg2"] = value(encoder.gate_x.weight).T, value(encoder.gate_h.weight).T
        out["b_avg"] = value(encoder.gate_x.bias)
    return out


def our_gradient(model: str, vectors: np.ndarray, init: dict[str, np.ndarray], batch, margin: float
                 ) -> dict[str, np.ndarray]:
    """The gradient of the hinge loss of one batch at the initial parameters, through our encoder and our
    negative selection (what one step of :func:`train_paraphrastic` differentiates; no regulariser: it is 0 there)."""
    import torch

    from sentemb.paraphrastic.composition import PaddedBatch, build_composition
    from sentemb.paraphrastic.training import margin_loss, negative_indices

    encoder = build_composition(composition(model), vectors, sparse=False)
    ours_from_reference(encoder, init)
    encoder.train()
    s1, s2 = [p[0] for p in batch], [p[1] for p in batch]
    g1, g2 = encoder(PaddedBatch.from_lists(s1 + s2)).split(len(batch))
    t1, t2 = negative_indices(g1, g2, "max")
    cand = torch.cat([g1, g2])
    margin_loss(g1, g2, cand[t1], cand[t2], margin).backward()
    return {"W": encoder.embedding.weight.grad.numpy()} | reference_from_ours(encoder, grad=True)


def torch_optimizers(name: str, dense, sparse, lr: float):
    """The trainer's optimisers before it took Lasagne's (sentemb.core.optim.lasagne): torch's Adam, whose ε comes
    after the bias correction, and torch's Adagrad, lr·g/(√Σg² + 1e-10). For the "before" rows only."""
    import torch

    params = [*sparse, *dense]
    return [torch.optim.Adam(params, lr=lr) if name == "adam" else torch.optim.Adagrad(params, lr=lr)]


def run_ours(model: str, vectors: np.ndarray, pairs_ids, init, margin: float, lambda_w: float, lambda_c: float,
             optimizer: str, lr: float, batch_size: int, seed: int, log_path: Path, before: bool = False):
    import csv
    from unittest import mock

    import torch

    from sentemb.paraphrastic.composition import build_composition
    from sentemb.paraphrastic.config import ParaphrasticConfig
    from sentemb.paraphrastic.training import train_paraphrastic

    torch.set_num_threads(1)
    encoder = build_composition(composition(model), vectors, sparse=False)
    ours_from_reference(encoder, init)
    batches = -(-len(pairs_ids) // batch_size)
    config = ParaphrasticConfig(
        **composition(model).model_dump(), vectors="none", pairs="sentences", select="STS16", scramble=0.0,
        margin=margin, negatives="max", batch_size=batch_size, epochs=1, optimizer=OPTIMIZERS[optimizer], lr=lr,
        lambda_w=lambda_w, lambda_c=lambda_c, grad_clip=None, sparse_embeddings=False, evals_per_epoch=batches,
        seed=seed, device="cpu", processes=1, products="float32")
    counter = itertools.count()  # rising, so that the last checkpoint is the one kept
    patch = mock.patch("sentemb.paraphrastic.training.build_optimizers", torch_optimizers)
    with patch if before else contextlib.nullcontext():
        train_paraphrastic(encoder, pairs_ids, config, lambda enc: {"STS16": float(next(counter))}, log_path)
    with open(log_path, newline="") as fh:
        losses = [float(r["loss"]) for r in csv.DictReader(fh)]
    return np.array(losses), encoder.embedding.weight.detach().numpy().copy(), reference_from_ours(encoder)


def relative_distance(ours: list[np.ndarray], ref: list[np.ndarray], start: list[np.ndarray]) -> float:
    num = np.sqrt(sum(float(((o.astype(np.float64) - r) ** 2).sum()) for o, r in zip(ours, ref, strict=True)))
    den = np.sqrt(sum(float(((r.astype(np.float64) - s) ** 2).sum()) for r, s in zip(ref, start, strict=True)))
    return num / den if den else float("nan")


def run_reference(args, tmp: Path, tag: str, vectors, flat, order, starts, init, settings: dict) -> dict:
    """Run the authors' code on the batches ``order`` split at ``starts``; returns its costs and final parameters
    by name (``W``: the word embeddings)."""
    inputs, output = tmp / f"{tag}-in.npz", tmp / f"{tag}-out.npz"
    np.savez(inputs, vectors=vectors, ids=np.concatenate(flat).astype(np.int32),
             lengths=np.array([len(s) for s in flat]), order=order.astype(np.int32), batch_starts=starts,
             settings=json.dumps(settings), **{"init_" + k: v for k, v in init.items()})
    env = os.environ | {"THEANO_FLAGS": f"floatX=float32,device=cpu,blas.ldflags=,base_compiledir={tmp / 'theano'}",
                        "OMP_NUM_THREADS": "1"}
    reference = args.reference if settings["code"] == "acl2017" else args.reference_iclr2016
    subprocess.run([args.python, __file__, "reference-side", str(inputs), str(output), reference], check=True, env=env)
    ref = np.load(output)
    return {"cost": ref["cost"]} | {str(n): ref[f"final_{i}"] for i, n in enumerate(ref["names"])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", required=True, help="jwieting/acl2017's main/ directory, ported to Python 3")
    ap.add_argument("--reference-iclr2016", default=None,
                    help="jwieting/iclr2016's main/ directory, ported to Python 3 (for the cases proj, dan, lstm)")
    ap.add_argument("--python", required=True, help="an interpreter with Theano 1.0.5 and Lasagne")
    ap.add_argument("--cases", nargs="+", default=None, choices=list(CASES),
                    help="default: every case whose reference code is given")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--batch-size", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-parameter", action="store_true", help="the distance of each composition parameter")
    ap.add_argument("--data", type=Path, default=Path(os.environ.get("SENTEMB_SHARED_DATA", "../shared/data")))
    args = ap.parse_args()
    if args.cases is None:
        args.cases = [c for c in CASES if CASES[c][0] == "acl2017" or args.reference_iclr2016]
    if any(CASES[c][0] == "iclr2016" for c in args.cases) and not args.reference_iclr2016:
        ap.error("the cases proj, dan and lstm need --reference-iclr2016")

    pairs = load_pairs(args.data, args.pairs)
    vocab: dict[str, int] = {}
    for a, b in pairs:
        for w in a + b:
            vocab.setdefault(w, len(vocab))
    rng = np.random.default_rng(args.seed)
    vectors = rng.normal(0.0, 0.1, (len(vocab), args.dim)).astype(np.float32)
    pairs_ids = [(np.array([vocab[w] for w in a], dtype=np.int64), np.array([vocab[w] for w in b], dtype=np.int64))
                 for a, b in pairs]
    flat = [s for p in pairs_ids for s in p]
    order = np.random.default_rng(args.seed).permutation(len(pairs_ids))  # train_paraphrastic's first epoch
    starts = np.arange(0, len(order), args.batch_size)
    print(f"{len(pairs)} TurkCorpus pairs, {len(vocab)} words, dim {args.dim}, {len(starts)} batches of "
          f"{args.batch_size}, float32, MAX negatives, no dropout or scrambling")

    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases:
            code, model, margin, lambda_w, lambda_c, optimizer, lr = CASES[case]
            init = initial_parameters(model, args.dim, rng)
            settings = {"code": code, "model": model, "margin": margin, "lambda_w": lambda_w, "lambda_c": lambda_c}
            # the gradient of the first batch's hinge loss: one SGD step of rate 1 on their side, without the
            # regularisers, is minus their gradient
            first = order[:args.batch_size]
            ref = run_reference(args, Path(tmp), f"{case}-grad", vectors, flat, first, np.array([0]), init,
                                settings | {"learner": "sgd", "lr": 1.0, "lambda_w": 0.0, "lambda_c": 0.0})
            ours = our_gradient(model, vectors, init, [pairs_ids[i] for i in first], margin)
            start = {"W": vectors} | init
            print(f"\n{case}: the authors' {model} ({code}), ours {MODELS[model]}; margin {margin}, λw {lambda_w:g}, "
                  f"λc {lambda_c:g}, {optimizer} at {lr:g}")
            print("  gradient of the first batch's hinge loss at the initial parameters, ‖g_ours − g_theirs‖ / "
                  "‖g_theirs‖:")
            for name in ["W", *sorted(init)]:
                theirs = start[name].astype(np.float64) - ref[name]
                err = np.linalg.norm(ours[name] - theirs) / max(np.linalg.norm(theirs), 1e-30)
                print(f"    {name:22s} {err:.2e}  (‖g_theirs‖ {np.linalg.norm(theirs):.3e})")
            ref = run_reference(args, Path(tmp), case, vectors, flat, order, starts, init,
                                settings | {"learner": optimizer, "lr": lr})
            # ours as configured (λ/2 and Lasagne's optimisers, as the authors' code), and as it was before
            # sentemb.core.optim.lasagne: torch's optimisers, each regulariser weighted by λ as the papers write it
            # (2λ given to the trainer, which halves it)
            name = {"adam": "Adam", "adagrad": "AdaGrad"}[optimizer]
            variants = [("as configured", 1.0, False), (f"with torch's {name}", 1.0, True)]
            if lambda_w or lambda_c:
                variants += [("with λ as the papers write it", 2.0, False),
                             (f"with torch's {name} and λ as written: the trainer before Lasagne's optimisers", 2.0,
                              True)]
            print(f"  {len(starts)} steps of {name}:")
            costs = []
            for label, scale, torchs in variants:
                losses, embedding, comp = run_ours(model, vectors, pairs_ids, init, margin, scale * lambda_w,
                                                   scale * lambda_c, optimizer, lr, args.batch_size, args.seed,
                                                   Path(tmp) / f"{case}-log.csv", torchs)
                costs.append(losses)
                diff = np.abs(losses - ref["cost"])
                over = [k + 1 for k, d in enumerate(diff) if d > 1e-5]
                emb = relative_distance([embedding], [ref["W"]], [vectors])
                names = sorted(comp)
                rel = relative_distance([comp[n] for n in names], [ref[n] for n in names],
                                        [init[n] for n in names]) if names else float("nan")
                print(f"    ours, {label}: largest |Δ hinge cost| {diff.max():.2e} (first step over 1e-5: "
                      f"{over[0] if over else 'none'}); ‖θ_ours − θ_theirs‖ / ‖θ_theirs − θ_0‖ after the last "
                      f"step: embeddings {emb:.2e}" + (f", composition {rel:.2e}" if names else ""))
                if args.per_parameter and names:
                    for n in names:
                        print(f"      {n:22s} {relative_distance([comp[n]], [ref[n]], [init[n]]):.2e}")
            print("    hinge cost per step: theirs, then ours in the order above")
            for k in range(len(starts)):
                print(f"    {k + 1:4d}  {ref['cost'][k]:.6f}  " + "  ".join(f"{c[k]:.6f}" for c in costs))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "reference-side":
        reference_side(*sys.argv[2:5])
    else:
        main()
