"""Run pipeline stages one at a time on a machine with a GPU, without DVC, and record per stage: wall time, GPU
utilisation, GPU memory and the stage's own throughput.

A GPU machine lent for a few minutes, with no network, cannot install DVC or download the corpus; this script lets it
run the stages' own commands (as `dvc repro` would) on inputs made beforehand on another machine:

    # here (network, DVC), about 6 minutes: a clone with profiles/gpu.yaml's slice, its upstream stages, the plan and
    # the bundle
    python benchmarks/gpu_stages.py prepare /tmp/gpu-slice -o .gpu [--cpu]
    # there, in one call of the lent machine, .gpu (git-ignored) carried along
    python3 benchmarks/gpu_stages.py run .gpu --out $OUT/run --deadline 480
    # here again: the GPU's run beside the CPU's (--cpu ran PLAN's stages in the clone: /tmp/gpu-slice/cpu-run)
    python benchmarks/gpu_stages.py table RUN /tmp/gpu-slice/cpu-run     # times, rates, utilisation, memory
    mkdir /tmp/gpu-run && tar xzf RUN/results.tar.gz -C /tmp/gpu-run
    python benchmarks/gpu_stages.py compare /tmp/gpu-run /tmp/gpu-slice  # the models' scores

`prepare` is `plan` and `bundle` on a clone it makes: `plan CLONE STAGE... -o .gpu/plan.tsv` writes the stages'
commands as DVC resolves them in CLONE, `bundle CLONE -o .gpu` their inputs, the clone's params.yaml and the Python
packages the GPU machine's image lacks (`.gpu/data.tar.xz`, `.gpu/site.tar.xz`: about 58 MiB together, under the
64 MiB a call carries).

A line of the plan is ``NAME<TAB>COMMAND[<TAB>SECONDS]``: any command run from the checkout's root (a benchmark
too, e.g. ``benchmarks/paraphrastic_speed.py --device cuda``), stopped after SECONDS if given.
`run` unpacks `.gpu/data.tar.xz` (the inputs and the clone's params.yaml, over the checkout's) and `.gpu/site.tar.xz`
onto `sys.path`, samples `nvidia-smi` every 200 ms while each stage runs, and writes to OUT: `summary.json` (per
stage: command, exit code, wall seconds, mean and peak GPU utilisation in %, peak GPU memory in MiB, including the
CUDA context, and the throughput the stage logged in `logs/timings/`), `gpu.csv` (the samples), `stages.log` (every
stage's output) and `results.tar.gz` (the stages' metrics, training logs, model configs and what benchmarks wrote
under `logs/bench/`, to compare with a CPU run of the same stages). A stage that would start less than 20 s before
the deadline is skipped, and one that runs past it is stopped.

    python -m torch.distributed.run --standalone --nproc_per_node=2 benchmarks/gpu_stages.py nccl

(a plan line) is the data-parallel path's collective on one GPU: two processes on device 0 join an NCCL group and
all-reduce the dense gradient of an embedding under ``DistributedDataParallel``, as the trainers do under torchrun
on GPUs (their embeddings then take dense gradients), and rank 0 writes to ``logs/bench/nccl.json`` whether the
group formed and how far the averaged gradient is from one process's gradient of the whole batch, or NCCL's error.

    python benchmarks/gpu_stages.py compare GPU CPU        # two result trees (results.tar.gz unpacked, or a clone)

prints, for every model both trees scored, how far apart the two runs' Pearson r ×100 are per dataset (largest and
mean absolute difference, and the mean over the datasets of each), the word-similarity scores, the trainers' final
loss and the supervised test scores.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the Python packages the stages import that the GPU image lacks (KINDS.md of the machines lent here: it has torch,
# numpy, scipy, pandas, numba, typer, tqdm, yaml, regex, wrapt, …)
PACKAGES = ["gensim==4.4.0", "smart-open==9.0.2", "nltk==3.10.4", "pydantic==2.14.4", "pydantic-core==2.50.5",
            "annotated-types==0.8.0", "typing-inspection==0.4.5", "safetensors==0.8.0"]
# what the trainers and evaluations read, made by the stages upstream of them
DATA = ["params.yaml", "data/corpus", "data/vocab.tsv", "data/sentences/stats.json", "data/pairs", "data/benchmarks",
        "data/supervised", "data/raw/sts", "data/raw/sick", "data/raw/stsbenchmark", "data/raw/pit2015", "models/glove"]
RESULTS = ["metrics", "logs/timings", "logs/bench", "models/*/config.json", "models/*/info.json"]


# what `prepare` runs here: the inputs of PLAN's stages, GloVe among them (the CPU's cell fit, so that the trainers
# over it start from the same vectors on both machines)
UPSTREAM = ["download", "split", "vocab", "pairs", "benchmark-tokens", "supervised-data", "glove"]
# a loan's plan on the slice of profiles/gpu.yaml, in order (the deadline cuts the last first): a stage (its command
# resolved by DVC) or a command
PLAN: list[str | tuple[str, str, int]] = [
    "siamese_cbow@siamese_cbow", "nws@glove", "paraphrastic@paragram", "paraphrastic@para-avg",
    "paraphrastic@para-gran", "supervise@gran-universal", "evaluate-siamese_cbow@siamese_cbow", "evaluate-nws@glove",
    "evaluate-paraphrastic@paragram", "evaluate-paraphrastic@para-avg", "evaluate-paraphrastic@para-gran",
    ("nccl", "python -m torch.distributed.run --standalone --nproc_per_node=2 benchmarks/gpu_stages.py nccl", 60),
    ("paraphrastic-ops", "python benchmarks/paraphrastic_speed.py --device cuda --only para-avg para-gran --batches 40 "
     "--threads 16 --count-ops", 90),
    "paraphrastic@para-lstm", "evaluate-paraphrastic@para-lstm", "student@para-gran", "evaluate-student@para-gran"]


def plan(clone: Path, entries: list[str | tuple[str, str, int]], out: Path) -> None:
    """The plan file: each stage's name and command as DVC resolves them in ``clone`` (``dvc repro --dry --force
    --single-item``) and each ``(name, command, seconds)`` as given, in order."""
    stages = [e for e in entries if isinstance(e, str)]
    res = subprocess.run(["dvc", "repro", "--dry", "--force", "--single-item", *stages], cwd=clone,
                         capture_output=True, text=True)
    if res.returncode:
        sys.exit(f"gpu_stages: DVC could not resolve the plan's stages in {clone}: {res.stderr.strip()[-500:]}")
    dry = res.stdout
    resolved = dict(re.findall(r"Running stage '([^']+)':\n> (.+)", dry))
    if len(resolved) != len(stages):
        sys.exit(f"dvc resolved {len(resolved)} of {len(stages)} stages:\n{dry}")
    rows = ["\t".join(map(str, e)) if isinstance(e, tuple) else f"{e}\t{resolved[e]}" for e in entries]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(row + "\n" for row in rows))
    print(f"{out}: {len(rows)} commands")


def _run_or_exit(cmd: list[str], **kwargs) -> None:
    """Run ``cmd``; if it fails, exit with one line naming it (its own output has said why)."""
    rc = subprocess.run(cmd, **kwargs).returncode
    if rc:
        sys.exit(f"gpu_stages: `{' '.join(cmd)}` failed (exit {rc}) in {kwargs.get('cwd', Path.cwd())}")


def prepare(clone: Path, out: Path, cpu: bool) -> None:
    """Everything a loan needs, in one command: a clone of this repository's last commit at ``clone`` (kept if it
    exists) with the params of profiles/gpu.yaml (the slice) and this checkout's data mirror, its :data:`UPSTREAM`
    stages run by DVC, :data:`PLAN` resolved there and the bundle (:func:`bundle`) in ``out``; with ``cpu``, then
    PLAN's stages run by :func:`run` on this machine's CPU in the clone (without the plan's GPU benchmarks; the
    summary in ``CLONE/cpu-run``), the run that ``table`` and ``compare`` set beside the GPU's."""
    import yaml

    if not clone.exists():
        _run_or_exit(["git", "clone", "-q", str(ROOT), str(clone)])
    spec = importlib.util.spec_from_file_location("sentemb_profile", clone / "profiles/profile.py")
    profile = importlib.util.module_from_spec(spec)  # profiles/profile.py of the clone (a script, not a package)
    spec.loader.exec_module(profile)
    params_file = clone / "params.yaml"
    params = profile.apply_profile(yaml.safe_load(params_file.read_text()),
                                   profile.read_profile(clone / "profiles/gpu.yaml"))
    mirror = params["download"]["mirror"]
    if mirror is not None:  # params.yaml's is relative to the checkout (../shared/data): the clone may be elsewhere
        params["download"]["mirror"] = str((ROOT / mirror).resolve())
    params_file.write_text(yaml.safe_dump(params, sort_keys=False))
    env = dict(os.environ, PYTHONPATH=str(clone.resolve() / "src"))  # the clone's code, whatever is installed
    _run_or_exit(["dvc", "repro", *UPSTREAM], cwd=clone, env=env)
    plan(clone, PLAN, out / "plan.tsv")
    bundle(clone, out)
    if cpu:  # the same harness on this CPU, the plan's commands (benchmarks) that need a GPU left out
        commands = [e[0] for e in PLAN if isinstance(e, tuple)]
        _run_or_exit([sys.executable, str(clone / "benchmarks/gpu_stages.py"), "run", str(out.resolve()), "--out",
                      str(clone.resolve() / "cpu-run"), "--no-site", "--deadline", "86400", "--skip", *commands],
                     cwd=clone, env=env)


def bundle(clone: Path, out: Path, python_version: str = "3.12") -> None:
    """``data.tar.xz`` (the inputs in :data:`DATA` from ``clone``) and ``site.tar.xz`` (:data:`PACKAGES` for the GPU
    machine's Python, gensim without its tests except the two word-similarity lists the evaluation reads and the
    corpus ``gensim.test.utils`` reads when imported)."""
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(out / "data.tar.xz", "w:xz", preset=6) as tar:
        for path in DATA:
            tar.add(clone / path, arcname=path)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--only-binary=:all:",
                        "--python-version", python_version, "--implementation", "cp", "--platform",
                        "manylinux_2_28_x86_64", "--platform", "manylinux_2_17_x86_64", "--target", tmp,
                        *PACKAGES], check=True)
        test_data = Path(tmp, "gensim", "test", "test_data")
        for f in test_data.iterdir():
            if f.name not in ("simlex999.txt", "wordsim353.tsv", "lee_background.cor"):  # the last: read on import
                shutil.rmtree(f) if f.is_dir() else f.unlink()
        with tarfile.open(out / "site.tar.xz", "w:xz", preset=6) as tar:
            tar.add(tmp, arcname=".")
    for f in ("data.tar.xz", "site.tar.xz"):
        print(f"{out / f}: {(out / f).stat().st_size / 2**20:.1f} MiB")


class GpuSampler:
    """``nvidia-smi``'s utilisation (%) and memory used (MiB) every 200 ms, each sample with its wall-clock time."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float, float]] = []
        self.process = None
        if shutil.which("nvidia-smi"):
            self.process = subprocess.Popen(
                ["nvidia-smi", "--query-gpu=utilization.gpu,memory.used", "--format=csv,noheader,nounits",
                 "-lms", "200"], stdout=subprocess.PIPE, text=True)
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            try:
                util, mem = (float(x) for x in line.split(","))
            except ValueError:
                continue
            self.samples.append((time.time(), util, mem))

    def window(self, t0: float, t1: float) -> dict:
        inside = [s for s in self.samples if t0 <= s[0] <= t1]
        if not inside:
            return {}
        return {"gpu_util_mean": round(sum(s[1] for s in inside) / len(inside), 1),
                "gpu_util_max": max(s[1] for s in inside), "gpu_memory_peak_mib": max(s[2] for s in inside),
                "samples": len(inside)}

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()


def run(bundle_dir: Path, out: Path, deadline: float, site: bool = True, skip: tuple[str, ...] = ()) -> None:
    """Unpack the bundle and run the plan's lines one after another here (see the module's docstring); ``site=False``
    leaves the bundled packages out (a machine whose own environment has them: the CPU's reference run), and the
    lines named in ``skip`` are recorded as skipped."""
    with tempfile.TemporaryDirectory(prefix="site-") as packages:
        _run_plan(bundle_dir, out, deadline, Path(packages) if site else None, set(skip))


def _run_plan(bundle_dir: Path, out: Path, deadline: float, site: Path | None, skip: set[str]) -> None:
    start = time.time()
    out.mkdir(parents=True, exist_ok=True)
    for name, target in (("data.tar.xz", ROOT), ("site.tar.xz", site)):
        if target is not None:
            with tarfile.open(bundle_dir / name) as tar:
                tar.extractall(target, filter="data")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([*([str(site)] if site else []), str(ROOT / "src")]),
               PYTHONUNBUFFERED="1")
    stages = [line.split("\t") for line in (bundle_dir / "plan.tsv").read_text().splitlines() if line.strip()]
    sampler = GpuSampler()
    time.sleep(1.0)
    summary = {"python": sys.version.split()[0], "unpack_seconds": round(time.time() - start, 1), "stages": []}
    try:
        import torch

        summary["torch"] = torch.__version__
        summary["gpu"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    except ImportError:
        pass
    with open(out / "stages.log", "w") as log:
        for name, cmd, *limit in stages:
            left = deadline - (time.time() - start)
            row = {"stage": name, "cmd": cmd}
            if name in skip or left < 20:
                row["skipped"] = "asked" if name in skip else f"{left:.0f} s left of the deadline"
                summary["stages"].append(row)
                continue
            argv = cmd.split()
            if argv[0] == "python":
                argv[0] = sys.executable
            log.write(f"\n===== {name}: {cmd}\n")
            log.flush()
            t0 = time.time()
            try:
                rc = subprocess.run(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                    timeout=min([left - 10, *map(float, limit)])).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
            t1 = time.time()
            row |= {"rc": rc, "wall_seconds": round(t1 - t0, 1)} | sampler.window(t0, t1)
            written = {str(p.relative_to(ROOT / "logs/timings").with_suffix("")): json.loads(p.read_text())
                       for p in ROOT.glob("logs/timings/**/*.json")
                       if p.stat().st_mtime >= t0}  # the clock readings this stage logged
            if written:
                row["timings"] = written
            summary["stages"].append(row)
            print(json.dumps({k: v for k, v in row.items() if k != "timings"}), flush=True)
            (out / "summary.json").write_text(json.dumps(summary, indent=1))
    sampler.stop()
    summary["seconds"] = round(time.time() - start, 1)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    with open(out / "gpu.csv", "w") as fh:
        fh.write("time,util_percent,memory_mib\n")
        fh.writelines(f"{t:.2f},{u:g},{m:g}\n" for t, u, m in sampler.samples)
    with tarfile.open(out / "results.tar.gz", "w:gz") as tar:  # what the stages wrote
        for pattern in RESULTS:
            for path in sorted(ROOT.glob(pattern)):
                for f in [path] if path.is_file() else sorted(path.rglob("*")):
                    if f.is_file() and f.stat().st_mtime >= start:
                        tar.add(f, arcname=str(f.relative_to(ROOT)))


RATES = ("corpus_words_per_second", "cells_per_second", "pairs_per_second")  # a stage's throughput in its timings


def _rate(row: dict) -> float | None:
    """The first of :data:`RATES` the stage logged (a supervised run logs one per task, ``sts.pairs_per_second``:
    the first task's)."""
    for timings in row.get("timings", {}).values():
        for rate in RATES:
            for key, value in timings.items():
                if key == rate or key.endswith("." + rate):
                    return float(value)
    return None


def table(gpu: Path, cpu: Path) -> None:
    """A markdown table of two :func:`run` summaries (``summary.json`` in each folder), the GPU's and the CPU's, stage
    by stage: wall seconds, the stage's throughput (corpus words, cells or pairs per second, as its timings give it)
    and their ratios, mean and peak GPU utilisation and peak GPU memory."""
    g, c = (json.loads((d / "summary.json").read_text()) for d in (gpu, cpu))
    cpu_rows = {row["stage"]: row for row in c["stages"]}
    print(f"GPU: {g.get('gpu')} (torch {g.get('torch')}); CPU run: torch {c.get('torch')}\n")
    print("| stage | CPU | GPU | GPU / CPU | CPU rate | GPU rate | rate ratio | GPU util. mean / peak | GPU memory |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in g["stages"]:
        other = cpu_rows.get(row["stage"], {})
        if "wall_seconds" not in row:
            print(f"| {row['stage']} | | | | | | | | {row.get('skipped', '')} |")
            continue
        ok = row["rc"] == 0 and other.get("rc") == 0
        wall = f"{other['wall_seconds'] / row['wall_seconds']:.2f}×" if ok else ""
        rates = [_rate(other), _rate(row)]
        ratio = f"{rates[1] / rates[0]:.2f}×" if ok and None not in rates else ""
        shown = [f"{r:,.0f}" if r is not None else "" for r in rates]
        util = (f"{row['gpu_util_mean']:.0f}% / {row['gpu_util_max']:.0f}%" if "gpu_util_mean" in row else "")
        memory = f"{row['gpu_memory_peak_mib']:,.0f} MiB" if "gpu_memory_peak_mib" in row else ""
        cpu_wall = f"{other['wall_seconds']} s" if "wall_seconds" in other else other.get("skipped", "")
        status = "" if row["rc"] == 0 else f" (exit {row['rc']})"
        print(f"| {row['stage']} | {cpu_wall} | {row['wall_seconds']} s{status} | {wall} | {shown[0]} | {shown[1]} | "
              f"{ratio} | {util} | {memory} |")


def nccl_probe(out: Path, backend: str = "nccl") -> None:
    """Under ``torchrun`` on one GPU: every process joins an NCCL group on device 0 and trains one step of a dense
    ``EmbeddingBag`` (the trainers' embedding under torchrun on GPUs) on its share of a batch under
    ``DistributedDataParallel``; rank 0 writes whether it worked and the largest difference between the averaged
    gradient and one process's gradient of the whole batch (equal shares: the two are the same mean), or the error.
    ``backend="gloo"`` runs the same on the CPU (the probe's own check, without a GPU)."""
    import torch
    import torch.distributed as dist

    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    result: dict = {"backend": backend, "world_size": world, "torch": torch.__version__,
                    "device_count": torch.cuda.device_count()}
    device = torch.device("cuda", 0) if backend == "nccl" else torch.device("cpu")
    try:
        if backend == "nccl":
            torch.cuda.set_device(0)
            dist.init_process_group("nccl", device_id=device)
            result["nccl_version"] = ".".join(map(str, torch.cuda.nccl.version()))
        else:
            dist.init_process_group(backend)
        gen = torch.Generator().manual_seed(0)
        ids = torch.randint(0, 1000, (world * 64, 20), generator=gen).to(device)
        torch.manual_seed(0)  # the same initial weights in every process (DDP also broadcasts rank 0's)
        embedding = torch.nn.EmbeddingBag(1000, 300, mode="mean", sparse=False).to(device)
        embedding(ids).square().sum(1).mean().backward()  # the whole batch in one process
        whole = embedding.weight.grad.clone()
        embedding.weight.grad = None
        model = torch.nn.parallel.DistributedDataParallel(embedding, device_ids=[0] if backend == "nccl" else None)
        model(ids[rank * 64:(rank + 1) * 64]).square().sum(1).mean().backward()  # DDP averages the shares
        result |= {"ok": True, "max_abs_difference": float((embedding.weight.grad - whole).abs().max()),
                   "gradient_max_abs": float(whole.abs().max())}
        dist.destroy_process_group()
    except Exception as e:  # NCCL's refusal is the finding, not a failure of the probe
        result |= {"ok": False, "error": f"{type(e).__name__}: {e}"[:2000]}
    if rank == 0:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1))
    print(json.dumps({"rank": rank} | result), flush=True)


def compare(gpu: Path, cpu: Path) -> None:
    """How close two runs of the same stages are (e.g. on a GPU and on the CPU), model by model."""
    # imported here: `run` must work on the GPU image, which lacks the project's dependencies
    import pandas as pd

    print("model | datasets | largest |Δr|×100 | mean |Δr|×100 | mean r×100, first / second | other figures")
    print("---|---:|---:|---:|---|---")
    for first in sorted(gpu.glob("metrics/models/*.datasets.csv")):
        other = cpu / "metrics" / "models" / first.name
        if not other.is_file():
            continue
        model = first.name.removesuffix(".datasets.csv")
        a, b = (pd.read_csv(f).set_index("set")["pearson"].to_dict() for f in (first, other))
        common = sorted(set(a) & set(b))
        gaps = [abs(a[k] - b[k]) for k in common]
        notes = []
        ma, mb = (json.loads((root / f"metrics/models/{model}.json").read_text()) for root in (gpu, cpu))
        for name, ws in ma.get("word_similarity", {}).items():
            notes.append(f"{name} ρ {ws['spearman']} / {mb['word_similarity'][name]['spearman']}")
        ca, cb = (json.loads((root / f"models/{model}/config.json").read_text()).get("info", {}).get("training", {})
                  if (root / f"models/{model}/config.json").is_file() else {} for root in (gpu, cpu))
        if "final_loss" in ca and "final_loss" in cb:
            notes.append(f"final loss {ca['final_loss']} / {cb['final_loss']}")
        if "selected" in ca and "selected" in cb:
            notes.append(f"selected at step {ca['selected']['step']} / {cb['selected']['step']}")
        print(f"{model} | {len(common)} | {max(gaps):.2f} | {sum(gaps) / len(gaps):.2f} | "
              f"{sum(a[k] for k in common) / len(common):.2f} / {sum(b[k] for k in common) / len(common):.2f} | "
              + "; ".join(notes))
    for first in sorted(gpu.glob("metrics/supervised/*.json")):
        other = cpu / "metrics" / "supervised" / first.name
        if other.is_file():
            a, b = json.loads(first.read_text()), json.loads(other.read_text())
            print(f"supervise {first.stem}: test r×100 STS {a['sts']['test']:.2f} / {b['sts']['test']:.2f} (epoch "
                  f"{a['sts']['selected_epoch']:g} / {b['sts']['selected_epoch']:g}), SICK {a['sick']['test']:.2f} / "
                  f"{b['sick']['test']:.2f} (epoch {a['sick']['selected_epoch']:g} / {b['sick']['selected_epoch']:g})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plan", help="the stages' commands, resolved by DVC in CLONE")
    p.add_argument("clone", type=Path)
    p.add_argument("stages", nargs="+")
    p.add_argument("-o", "--out", type=Path, required=True)
    b = sub.add_parser("bundle", help="the stages' inputs from CLONE and the packages the GPU image lacks")
    b.add_argument("clone", type=Path)
    b.add_argument("-o", "--out", type=Path, required=True)
    b.add_argument("--python-version", default="3.12")
    r = sub.add_parser("run", help="run the plan's stages here, sampling the GPU")
    r.add_argument("bundle", type=Path)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--deadline", type=float, default=480.0, help="seconds for everything (default 480)")
    r.add_argument("--no-site", dest="site", action="store_false",
                   help="leave the bundled packages out (this environment has them: a CPU reference run)")
    r.add_argument("--skip", nargs="*", default=[], help="plan lines not to run (recorded as skipped)")
    n = sub.add_parser("nccl", help="under torchrun: an NCCL group and a DDP gradient on GPU 0")
    n.add_argument("--out", type=Path, default=ROOT / "logs/bench/nccl.json")
    n.add_argument("--backend", default="nccl", choices=["nccl", "gloo"])
    q = sub.add_parser("prepare", help="a clone with the slice, its upstream stages run, the plan and the bundle")
    q.add_argument("clone", type=Path)
    q.add_argument("-o", "--out", type=Path, default=ROOT / ".gpu")
    q.add_argument("--cpu", action="store_true", help="then the plan's stages on this CPU, for table and compare")
    t = sub.add_parser("table", help="two run summaries (GPU, CPU) side by side, stage by stage")
    t.add_argument("gpu", type=Path)
    t.add_argument("cpu", type=Path)
    c = sub.add_parser("compare", help="how close two runs' metrics are (e.g. GPU and CPU)")
    c.add_argument("gpu", type=Path)
    c.add_argument("cpu", type=Path)
    a = parser.parse_args()
    if a.command == "compare":
        compare(a.gpu, a.cpu)
    elif a.command == "plan":
        plan(a.clone, a.stages, a.out)
    elif a.command == "table":
        table(a.gpu, a.cpu)
    elif a.command == "prepare":
        prepare(a.clone, a.out, a.cpu)
    elif a.command == "nccl":
        nccl_probe(a.out, a.backend)
    elif a.command == "bundle":
        bundle(a.clone, a.out, a.python_version)
    else:
        run(a.bundle, a.out, a.deadline, a.site, tuple(a.skip))


if __name__ == "__main__":
    main()
