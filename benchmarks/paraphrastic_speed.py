"""Training throughput of the paraphrastic encoders, in pairs per second, against what the CPU's matrix products allow.

Usage (after `dvc repro pairs`):
    python benchmarks/paraphrastic_speed.py [--pairs data/pairs/train.tsv] [--batches 40] [--threads 2]
        [--products float32 bfloat16]

For each encoder of `params.yaml` `paraphrastic` that trains on sentences (AVG, PROJ, DAN, LSTM, LSTMAVG, GRAN),
with its own settings (dropout, scrambling, negatives, batch size, optimiser), it runs the first ``--batches``
mini-batches of an epoch over the real training pairs and prints the training-step throughput
(``train_paraphrastic``'s ``pairs_per_second``: updates only, selection excluded), after one untimed batch.

For the recurrent encoders it also prints the floating-point work of a pair (the matrix products of the forward and
backward passes over its real tokens: 3 × 2 × (W_x and W_h of the LSTM's gates, plus GRAN's gate matrices) per
token) and the rate that implies, beside the rate of one large float32 matrix product on the same threads: the
ceiling no implementation of the same arithmetic can pass. Run it with another ``PYTHONPATH`` to time another
revision of ``src/sentemb`` on the same pairs. ``--products float32 bfloat16`` times each recurrent encoder (LSTM,
LSTMAVG, GRAN) once with each, one after the other: the recurrence's products in float32 (the default) and in
bfloat16 (the ``products`` setting of ``params.yaml``); the GFLOP columns count the same products in either dtype,
and the product's rate beside them stays float32's. ``--profile`` runs the same batches of each recurrent encoder
once more under ``torch.profiler`` and prints a second table: the matrix products' share of the operators' time,
the rate they ran at, and the pairs/s they alone allow, whatever the rest of the step costs.

``--device cuda`` trains on the GPU (the ceiling is then a large float32 product on the GPU). ``--count-ops`` runs the
same batches of every encoder once more under ``torch.profiler`` and prints, per training batch, how many torch
operators the step calls (forward, backward and optimiser), and on a GPU how many kernels it launches, how many
host-device copies it makes and how often the host waits for the device (``cudaStreamSynchronize``,
``cudaDeviceSynchronize``), with the kernels' share of the wall time: where a step of 100 pairs leaves a GPU idle.
"""

import argparse
import time
from pathlib import Path

import numpy as np
import torch
import yaml

from sentemb.core.data.pairs import PAIRS_HEADER, read_pairs
from sentemb.paraphrastic.composition import CompositionEncoder, build_composition
from sentemb.paraphrastic.config import RECURRENT, ParaphrasticConfig
from sentemb.paraphrastic.training import train_paraphrastic


def _matmul_gflops(dim: int, rounds: int = 5, device: str = "cpu") -> float:
    """GFLOP/s of a large float32 product (2,000 × dim) @ (dim × 4·dim) on the current torch threads (or the GPU):
    the best of ``rounds`` rounds of 20 products (a ceiling; this shared machine's rate moves from second to
    second)."""
    a, b = torch.randn(2000, dim, device=device), torch.randn(dim, 4 * dim, device=device)
    for _ in range(3):
        a @ b
    best, reps = 0.0, 20
    for _ in range(rounds):
        if device != "cpu":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(reps):
            a @ b
        if device != "cpu":
            torch.cuda.synchronize()
        best = max(best, 2 * 2000 * dim * 4 * dim * reps / (time.perf_counter() - t0) / 1e9)
    return best


def _flops_per_token(p: dict, dim: int) -> float:
    """Forward + backward (3×) multiply-adds (2 FLOP) of the matrix products of one token of a recurrent encoder."""
    gates = 4 if p.get("output_gate", True) else 3
    macs = 2 * gates * dim * dim  # W_x and W_h
    if p["encoder"] == "gran":
        macs += 2 * dim * dim * (1 if p.get("variant", 1) in (1, 2) else 2)  # W_x^i, W_h^i of the gate
    return 3 * 2 * macs * (2 if p.get("bidirectional") else 1)


def train_speed(encoder: CompositionEncoder, pairs: list, config: ParaphrasticConfig) -> float:
    """Train ``encoder`` on ``pairs`` with a selection that measures nothing: the training step's pairs/s."""
    return train_paraphrastic(encoder, pairs, config, lambda e: {config.select: 0.0})["pairs_per_second"]


PRODUCT_OPS = ("aten::mm", "aten::addmm", "aten::addmm_", "aten::bmm", "aten::baddbmm")  # torch.profiler's names


def profile_products(encoder: CompositionEncoder, pairs: list, config: ParaphrasticConfig
                     ) -> tuple[float, float, float]:
    """Train ``encoder`` on ``pairs`` under ``torch.profiler`` (CPU activities): (pairs/s under the profiler,
    seconds of self time in the matrix-product operators ``PRODUCT_OPS``, seconds of self time in all operators)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        speed = train_speed(encoder, pairs, config)
    events = prof.key_averages()
    products = sum(e.self_cpu_time_total for e in events if e.key in PRODUCT_OPS) / 1e6
    return speed, products, sum(e.self_cpu_time_total for e in events) / 1e6


SYNCS = ("cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize")
COPIES = ("cudaMemcpyAsync", "cudaMemcpy")


def count_ops(encoder: CompositionEncoder, pairs: list, config: ParaphrasticConfig, batches: int) -> dict:
    """Train ``encoder`` on ``pairs`` under ``torch.profiler`` and count, per training batch: torch operators
    (``aten::`` events not inside another: the forward pass, the backward pass and the optimiser), and with CUDA the
    kernels launched, the host-device copies and the host's waits for the device; with the kernels' summed time over
    the wall time (the GPU's busy share, kernels of several streams counted apart)."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    cuda = config.device.startswith("cuda")
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    t0 = time.perf_counter()
    with profile(activities=activities) as prof:
        train_speed(encoder, pairs, config)
    wall = time.perf_counter() - t0
    events = prof.events()
    top = sum(1 for e in events if e.name.startswith("aten::")
              and (e.cpu_parent is None or not e.cpu_parent.name.startswith("aten::")))
    row = {"operators": top / batches}
    if cuda:
        kernels = [e for e in events if e.device_type == DeviceType.CUDA]
        row |= {"kernels": len(kernels) / batches,
                "copies": sum(1 for e in events if e.name in COPIES) / batches,
                "syncs": sum(1 for e in events if e.name in SYNCS) / batches,
                "busy": sum(e.time_range.elapsed_us() for e in kernels) / 1e6 / wall}
    return row


def read_id_pairs(path: Path) -> tuple[list[tuple[np.ndarray, np.ndarray]], dict[str, int]]:
    """The training pairs as int64 token ids (words numbered in order of first occurrence), and that word index."""
    index: dict[str, int] = {}
    pairs = [tuple(np.array([index.setdefault(w, len(index)) for w in s.split()], dtype=np.int64) for s in (a, b))
             for _, a, b in read_pairs(path, PAIRS_HEADER)]
    return pairs, index


def build(p: dict, vectors: np.ndarray, **config: object) -> tuple[CompositionEncoder, ParaphrasticConfig]:
    """A model of ``params.yaml`` ``paraphrastic`` (its dict ``p``) over ``vectors``, with its own settings: the
    encoder and the training configuration for one epoch, on the CPU unless ``config`` names a device (``config``
    overrides more settings)."""
    settings = ParaphrasticConfig.model_validate(p | {"epochs": 1, "device": "cpu"} | config)
    return build_composition(settings, vectors, sparse=settings.sparse_embeddings), settings


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=Path, default=Path("data/pairs/train.tsv"))
    ap.add_argument("--params", type=Path, default=Path("params.yaml"))
    ap.add_argument("--batches", type=int, default=40)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--products", nargs="+", default=["float32"], choices=["float32", "bfloat16"],
                    help="the recurrent encoders' product dtypes to time, in this order")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda: train on the GPU")
    ap.add_argument("--count-ops", action="store_true",
                    help="also count each encoder's operators, kernels, copies and syncs a batch (torch.profiler)")
    ap.add_argument("--profile", action="store_true",
                    help="also time the recurrent encoders' batches under torch.profiler: the products' share")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    pairs, index = read_id_pairs(args.pairs)
    lengths = np.array([len(s) for p in pairs for s in p])
    params = yaml.safe_load(args.params.read_text())["paraphrastic"]
    print(f"{len(pairs)} pairs, {len(index)} words, mean sentence length {lengths.mean():.1f} tokens; "
          f"{args.threads} threads, {torch.get_num_threads()} torch threads, {args.dim} d", flush=True)
    vectors = np.random.default_rng(0).standard_normal((len(index), args.dim)).astype(np.float32)
    peak = _matmul_gflops(args.dim, device=args.device)
    print(f"one large matrix product on {args.device}, best of 5 rounds: {peak:.1f} GFLOP/s\n")
    print("| model | encoder | products | pairs/s | GFLOP per pair | GFLOP/s | share of the product's rate |")
    print("|---|---|---|---:|---:|---:|---:|")
    profiled, counted = [], []
    for name, p in params.items():
        if p.get("pairs") != "sentences" or (args.only and name not in args.only):
            continue
        n = p["batch_size"] * args.batches
        sub = [pairs[i] for i in np.random.default_rng(1).permutation(len(pairs))[:n]]
        recurrent = p["encoder"] in RECURRENT
        for products in args.products if recurrent else ["float32"]:
            enc, config = build(p, vectors, evals_per_epoch=1, products=products, device=args.device)
            # one untimed batch first: once-a-process costs (the CPU backward kernel's import and compiled-code load)
            train_speed(build(p, vectors, device=args.device)[0], sub[:p["batch_size"]], config)
            speed = train_speed(enc, sub, config)
            if recurrent:
                per_pair = _flops_per_token(p, args.dim) * lengths.mean() * 2 / 1e9
                rate = f"{per_pair:.4f} | {per_pair * speed:.1f} | {per_pair * speed / peak:.0%}"
            else:
                rate = "— | — | —"
            print(f"| {name} | {p['encoder']} | {products} | {speed} | {rate} |", flush=True)
            if args.profile and recurrent:
                profiled.append((name, products, per_pair * len(sub),
                                 profile_products(build(p, vectors, device=args.device)[0], sub, config), len(sub)))
            if args.count_ops:
                counted.append((name, products, count_ops(build(p, vectors, device=args.device)[0], sub, config,
                                                          args.batches)))
    if counted:
        cuda = args.device.startswith("cuda")
        print("\nPer training batch, under torch.profiler (operators: aten calls not inside another"
              + ("; busy: the kernels' time over the wall time):\n" if cuda else "):\n"))
        print("| model | products | operators" + (" | kernels | copies | syncs | busy |" if cuda else " |"))
        print("|---|---|---:" + ("|---:|---:|---:|---:|" if cuda else "|"))
        for name, products, row in counted:
            cells = [f"{row['operators']:.0f}"] + ([f"{row['kernels']:.0f}", f"{row['copies']:.1f}",
                                                    f"{row['syncs']:.1f}", f"{row['busy']:.0%}"] if cuda else [])
            print(f"| {name} | {products} | " + " | ".join(cells) + " |")
    if profiled:
        print("\nUnder torch.profiler, the same batches (self time of each operator; the products: "
              f"{', '.join(PRODUCT_OPS)}):\n")
        print("| model | products | pairs/s | products' share of the operators' time | products' GFLOP/s "
              "| pairs/s the products alone allow |")
        print("|---|---|---:|---:|---:|---:|")
        for name, products, gflop, (speed, mm, total), n in profiled:
            print(f"| {name} | {products} | {speed} | {mm / total:.0%} | {gflop / mm:.1f} | {n / mm:.0f} |")


if __name__ == "__main__":
    main()
