"""Wall time, CPU time and peak memory of corpus stages as the pipeline runs them: a point of the cost curves
(``cost_curves.py``) measured in a run of ``dvc repro`` rather than in a run of its own.

Usage, beside ``dvc repro`` in the same workspace (started before the stages it waits for):
    python benchmarks/stage_memory.py glove nws --report cost_curves.json [--interval 0.5]

For each stage in turn (the names of ``cost_curves.py``'s STAGES: their script and argument identify the process), it
waits for the stage's process, samples it with psutil (installed with DVC) every ``--interval`` seconds until it
exits and prints, and adds to the report as a point at the corpus's token count (``data/sentences/stats.json``): wall
seconds from the first sample to the exit, CPU seconds (user + system of the process and its threads, at the last
sample), the peak resident set and its largest anonymous part (resident less file-backed and shared pages: what a
memory budget bounds) and file part, and the size of its outputs. A peak shorter than the interval can be missed:
the peaks are lower bounds.
"""

import argparse
import json
import time
from pathlib import Path

import psutil
from cost_curves import STAGES, output_mib

from sentemb.core.atomic import write_json


def find(script: list[str]) -> psutil.Process | None:
    """The Python process running ``stages/SCRIPT ARG``, if one is running."""
    want = [f"stages/{script[0]}", *script[1:]]
    for proc in psutil.process_iter(["cmdline"]):
        cmd = proc.info["cmdline"] or []
        if len(cmd) >= len(want) + 1 and "python" in Path(cmd[0]).name and cmd[1 : 1 + len(want)] == want:
            return proc
    return None


def sample(proc: psutil.Process, interval: float) -> dict:
    """Sample ``proc`` until it exits."""
    start, cpu, rss, anon, file = time.perf_counter(), 0.0, 0, 0, 0
    try:
        while proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
            with proc.oneshot():
                mem, times = proc.memory_info(), proc.cpu_times()
            cpu = times.user + times.system
            rss, anon, file = max(rss, mem.rss), max(anon, mem.rss - mem.shared), max(file, mem.shared)
            time.sleep(interval)
    except psutil.NoSuchProcess:
        pass
    return {"wall_s": round(time.perf_counter() - start, 1), "cpu_s": round(cpu, 1),
            "peak_rss_mib": round(rss / 2**20, 1), "peak_anonymous_mib": round(anon / 2**20, 1),
            "peak_file_mib": round(file / 2**20, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stages", nargs="+", choices=list(STAGES))
    ap.add_argument("--report", type=Path, required=True, help="a cost_curves.py report to add the points to")
    ap.add_argument("--interval", type=float, default=0.5)
    args = ap.parse_args()
    tokens = json.loads(Path("data/sentences/stats.json").read_text(encoding="utf-8"))["tokens"]
    for stage in args.stages:
        script, outputs = STAGES[stage]
        while (proc := find(script)) is None:
            time.sleep(args.interval)
        figures = sample(proc, args.interval)
        point = {"tokens": tokens, "fraction": 1.0, **figures, "output_mib": output_mib(Path("."), outputs),
                 "measured": "in dvc repro"}
        runs = json.loads(args.report.read_text()) if args.report.is_file() else {}
        runs.setdefault(stage, []).append(point)
        write_json(args.report, runs)
        print(f"{stage}: {point}", flush=True)


if __name__ == "__main__":
    main()
