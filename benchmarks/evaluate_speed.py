"""Wall time of the `evaluate@MODEL` stage command, fresh process by fresh process, beside the goal of 3 s.

Usage (after `dvc repro`, or at least the models named and `benchmark-tokens`):
    python benchmarks/evaluate_speed.py [MODEL ...] [--rounds 4] [--goal 3.0]

For each round and each model (default: ``glove``, ``word2vec-cbow`` and ``para-avg``: a word-averaging model, one
scored under both treatments of unknown words, and a paraphrastic encoder that needs torch) it runs
``python stages/evaluate.py MODEL`` exactly as the stage does, in a new interpreter, and times it from the start of
the process to its exit (interpreter start, imports, loading the model, scoring, writing). The command runs in a
scratch directory whose ``data``, ``models``, ``stages`` and ``params.yaml`` link to this checkout's, so the
checkout's own outputs are not touched; the ``metrics/models/MODEL.json`` it writes there is compared byte for byte with
the checkout's (the timed run computed the committed result). It also times, in new interpreters, ``python -c pass``,
``import torch`` and ``import scipy.stats`` (the fixed costs in every evaluation), and prints for each model the
fastest, median and slowest wall time of the rounds, its CPU time (user + system) and whether the fastest and the
median meet the goal. The first round also pays for cold file caches after another job; only rounds on an idle
machine compare.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINKED = ("data", "models", "stages", "params.yaml")


def _timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process; raises if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode:
        sys.exit(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*", default=["glove", "word2vec-cbow", "para-avg"])
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--goal", type=float, default=3.0, help="seconds of wall time")
    ap.add_argument("--repo", type=Path, default=Path("."))
    args = ap.parse_args()
    repo = args.repo.resolve()
    missing = [m for m in args.models if not (repo / "models" / m).is_dir()]
    if missing:
        sys.exit(f"no model directory models/{missing[0]} in {repo} (dvc repro first)")
    print(f"machine: {os.cpu_count()} cores; {args.rounds} rounds; {sys.executable}")
    py = sys.executable
    fixed = {label: statistics.median(_timed([py, "-c", code], repo)[0] for _ in range(3))
             for label, code in (("python -c pass", "pass"), ("import torch", "import torch"),
                                 ("import scipy.stats", "import scipy.stats"))}
    print("fixed costs (median of 3, wall): " + ", ".join(f"{k} {v:.2f} s" for k, v in fixed.items()) + "\n")
    walls: dict[str, list[float]] = {m: [] for m in args.models}
    cpus: dict[str, list[float]] = {m: [] for m in args.models}
    with tempfile.TemporaryDirectory(prefix="evaluate-speed-") as scratch:
        work = Path(scratch)
        for name in LINKED:
            (work / name).symlink_to(repo / name)
        for _ in range(args.rounds):
            for m in args.models:
                wall, cpu = _timed([py, "stages/evaluate.py", m], work)
                walls[m].append(wall)
                cpus[m].append(cpu)
        same = {m: (work / "metrics/models" / f"{m}.json").read_bytes()
                == (repo / "metrics/models" / f"{m}.json").read_bytes()
                for m in args.models}
    print(f"| model | wall s, fastest | median | slowest | CPU s, median | ≤ {args.goal:g} s (fastest, median) | "
          "metrics as committed |")
    print("|---|---:|---:|---:|---:|---|---|")
    for m in args.models:
        w = walls[m]
        med = statistics.median(w)
        verdict = f"{'yes' if min(w) <= args.goal else 'no'}, {'yes' if med <= args.goal else 'no'}"
        print(f"| {m} | {min(w):.2f} | {med:.2f} | {max(w):.2f} | {statistics.median(cpus[m]):.2f} | {verdict} | "
              f"{'same bytes' if same[m] else 'DIFFERENT'} |")


if __name__ == "__main__":
    main()
