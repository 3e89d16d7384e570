"""Run pipeline stages one at a time on a machine with a GPU, without DVC, and record per stage: wall time, GPU
utilisation, GPU memory and the stage's own throughput.

A GPU machine lent for a few minutes, with no network, cannot install DVC or download the corpus; this script lets it
run the stages' own commands (as `dvc repro` would) on inputs made beforehand on another machine:

    # here (network, DVC): a clone whose upstream stages have run, e.g. on a slice of the corpus
    python benchmarks/gpu_stages.py plan CLONE STAGE... -o .gpu/plan.tsv     # the stages' commands, in that order
    python benchmarks/gpu_stages.py bundle CLONE -o .gpu                     # their inputs and the Python packages
                                                                             # the GPU machine's image lacks
    # there (in a copy of this checkout with .gpu beside it)
    python3 benchmarks/gpu_stages.py run .gpu --out OUT --deadline 480

`run` unpacks `.gpu/data.tar.xz` into `data/` and `.gpu/site.tar.xz` onto `sys.path`, samples `nvidia-smi` every
200 ms while each stage runs, and writes to OUT: `summary.json` (per stage: command, exit code, wall seconds, mean
and peak GPU utilisation in %, peak GPU memory in MiB, including the CUDA context, and the throughput the stage
logged in `logs/timings/`), `gpu.csv` (the samples), `stages.log` (every stage's output) and `results.tar.gz` (the
stages' metrics, training logs and model configs, to compare with a CPU run of the same stages). A stage that would
start less than 20 s before the deadline is skipped, and one that runs past it is stopped.

    python benchmarks/gpu_stages.py compare GPU CPU        # two result trees (results.tar.gz unpacked, or a clone)

prints, for every model both trees scored, how far apart the two runs' Pearson r ×100 are per dataset (largest and
mean absolute difference, and the mean over the datasets of each), the word-similarity scores, the trainers' final
loss and the supervised test scores.
"""

from __future__ import annotations

import argparse
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
DATA = ["data/corpus", "data/vocab.tsv", "data/sentences/stats.json", "data/pairs", "data/benchmarks",
        "data/supervised", "data/raw/sts", "data/raw/sick", "data/raw/stsbenchmark", "data/raw/pit2015"]
RESULTS = ["metrics", "logs/timings", "models/*/config.json", "models/*/info.json"]


def plan(clone: Path, stages: list[str], out: Path) -> None:
    """Each stage's name and command as DVC resolves them (``dvc repro --dry --force --single-item``), in order."""
    dry = subprocess.run(["dvc", "repro", "--dry", "--force", "--single-item", *stages], cwd=clone, check=True,
                         capture_output=True, text=True).stdout
    rows = re.findall(r"Running stage '([^']+)':\n> (.+)", dry)
    if len(rows) != len(stages):
        sys.exit(f"dvc resolved {len(rows)} of {len(stages)} stages:\n{dry}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(f"{name.split(':')[-1]}\t{cmd}\n" for name, cmd in rows))
    print(f"{out}: {len(rows)} stages")


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


def run(bundle_dir: Path, out: Path, deadline: float) -> None:
    start = time.time()
    out.mkdir(parents=True, exist_ok=True)
    site = Path(tempfile.mkdtemp(prefix="site-"))
    for name, target in (("data.tar.xz", ROOT), ("site.tar.xz", site)):
        with tarfile.open(bundle_dir / name) as tar:
            tar.extractall(target, filter="data")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT / "src")]), PYTHONUNBUFFERED="1")
    stages = [line.split("\t", 1) for line in (bundle_dir / "plan.tsv").read_text().splitlines() if line.strip()]
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
        for name, cmd in stages:
            left = deadline - (time.time() - start)
            row = {"stage": name, "cmd": cmd}
            if left < 20:
                row["skipped"] = f"{left:.0f} s left of the deadline"
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
                                    timeout=left - 10).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
            t1 = time.time()
            row |= {"rc": rc, "wall_seconds": round(t1 - t0, 1)} | sampler.window(t0, t1)
            written = {p.stem: json.loads(p.read_text()) for p in ROOT.glob("logs/timings/*.json")
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
    c = sub.add_parser("compare", help="how close two runs' metrics are (e.g. GPU and CPU)")
    c.add_argument("gpu", type=Path)
    c.add_argument("cpu", type=Path)
    a = parser.parse_args()
    if a.command == "compare":
        compare(a.gpu, a.cpu)
    elif a.command == "plan":
        plan(a.clone, a.stages, a.out)
    elif a.command == "bundle":
        bundle(a.clone, a.out, a.python_version)
    else:
        run(a.bundle, a.out, a.deadline)


if __name__ == "__main__":
    main()
