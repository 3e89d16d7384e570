"""Seed study of the supervised step (Wieting & Gimpel 2017 §4.3, Tables 5 and 8): each claim over several runs.

Usage (after `dvc repro`, which trains the transfer models and runs seed 1 of every `supervise@…` stage):
    python benchmarks/supervised_seeds.py OUT [--seeds 2 3 4] [--configs avg-random avg-universal …]

Williams' test in `reports/wieting2017.md` compares two trained models on the same test pairs: it holds
the models fixed, so it cannot see how much another training run would move them, and the recurrent models' test r
moves 2-3 points from run to run (docs/reproduction.md). This study reruns the supervised
stages with other values of ``supervised.training.seed`` (the composition's initialisation for ``random``, dropout,
scrambling and the order of the mini-batches; the transfer models and the data splits stay as they are) and tests
each claim of the report over the runs.

Each run is ``python stages/supervise.py MODEL SETTING``, the stage's own command, in ``OUT/seed-S``, a directory
whose ``data``, ``models`` and ``stages`` link to this checkout's and whose ``params.yaml`` is this checkout's with the
seed replaced; a run whose metrics file is already there is not run again (the study resumes). Seed 1 is
the checkout's own ``metrics/supervised`` (the params of `dvc repro`; every stage gives the same bytes for the same
params on one machine). It prints, for each configuration and dataset, the test r ×100 of every seed, their mean and
standard deviation; then for each claim (A beats B on a dataset) the mean difference, in how many seeds A beat B,
and Welch's t-test over the seeds (scipy.stats.ttest_ind, unequal variances, two-sided), judged by the report's own
``judge``: reproduced when the mean difference points the paper's way with p < 0.05. Writes the table
to ``OUT/seeds.tsv``.
"""

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml
from scipy.stats import ttest_ind

from sentemb.reporting.claims import judge

CONFIGS = ["avg-random", "avg-universal", "lstmavg-random", "lstmavg-universal", "gran-random", "gran-universal"]
CLAIMS = [  # the report's claims: (A, B, dataset), A beats B in the paper
    *((f"{m}-universal", f"{m}-random", d) for m in ("avg", "lstmavg", "gran") for d in ("sts", "sick")),
    *(("gran-random", f"{m}-random", d) for m in ("avg", "lstmavg") for d in ("sts", "sick")),
]
LINKED = ("data", "models", "stages")


def _scratch(repo: Path, out: Path, seed: int) -> Path:
    """OUT/seed-S: links to the checkout's data, models and stages, and its params.yaml with the seed replaced."""
    work = out / f"seed-{seed}"
    work.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        if not (work / name).exists():
            (work / name).symlink_to(repo / name)
    params = yaml.safe_load((repo / "params.yaml").read_text(encoding="utf-8"))
    params["supervised"]["training"]["seed"] = seed
    (work / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")
    return work


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--seeds", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--configs", nargs="+", default=CONFIGS, choices=CONFIGS)
    ap.add_argument("--repo", type=Path, default=Path("."))
    args = ap.parse_args()
    repo, out = args.repo.resolve(), args.out.resolve()
    base = yaml.safe_load((repo / "params.yaml").read_text(encoding="utf-8"))["supervised"]["training"]["seed"]
    if base in args.seeds:
        sys.exit(f"seed {base} is the checkout's own run (params.yaml supervised.training.seed): leave it out")
    results: dict[tuple[str, int], dict] = {}
    for config in args.configs:
        path = repo / "metrics" / "supervised" / f"{config}.json"
        if not path.is_file():
            sys.exit(f"{path}: missing (dvc repro supervise@{config} first)")
        results[config, base] = json.loads(path.read_text(encoding="utf-8"))
    for seed in args.seeds:
        work = _scratch(repo, out, seed)
        for config in args.configs:
            metrics = work / "metrics" / "supervised" / f"{config}.json"
            if not metrics.is_file():
                model, setting = config.split("-")
                t = time.perf_counter()
                res = subprocess.run([sys.executable, "stages/supervise.py", model, setting], cwd=work,
                                     capture_output=True, text=True)
                if res.returncode:
                    sys.exit(f"seed {seed} {config} failed ({res.returncode}):\n{res.stderr[-3000:]}")
                print(f"seed {seed} {config}: {time.perf_counter() - t:.0f} s", flush=True)
                shutil.rmtree(work / "results", ignore_errors=True)  # the predictions: not needed here
            results[config, seed] = json.loads(metrics.read_text(encoding="utf-8"))
    seeds = [base, *args.seeds]
    rows = []
    print(f"\nTest r ×100 by seed ({', '.join(map(str, seeds))}; seed {base}: the checkout's run)\n")
    print("| configuration | dataset | " + " | ".join(f"seed {s}" for s in seeds) + " | mean | sd |")
    print("|---|---|" + "---:|" * (len(seeds) + 2))
    for config in args.configs:
        for d in ("sts", "sick"):
            r = [results[config, s][d]["test"] for s in seeds]
            rows.append((config, d, r))
            print(f"| {config} | {d.upper()} | " + " | ".join(f"{x:.2f}" for x in r)
                  + f" | {statistics.mean(r):.2f} | {statistics.stdev(r):.2f} |")
    print(f"\nClaims over {len(seeds)} seeds: Welch's t-test, two-sided; reproduced when A > B on the mean with "
          "p < 0.05\n")
    print("| A | B | dataset | mean A | mean B | difference | seeds A > B | t | p | verdict |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
    for a, b, d in CLAIMS:
        if a not in args.configs or b not in args.configs:
            continue
        ra = [results[a, s][d]["test"] for s in seeds]
        rb = [results[b, s][d]["test"] for s in seeds]
        test = ttest_ind(ra, rb, equal_var=False)
        diff = statistics.mean(ra) - statistics.mean(rb)
        wins = sum(x > y for x, y in zip(ra, rb, strict=True))
        verdict = judge("better", diff, test.pvalue)
        print(f"| {a} | {b} | {d.upper()} | {statistics.mean(ra):.2f} | {statistics.mean(rb):.2f} | {diff:+.2f} | "
              f"{wins} of {len(seeds)} | {test.statistic:.2f} | {test.pvalue:.2g} | {verdict} |")
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "seeds.tsv", "w", encoding="utf-8") as fh:
        fh.write("configuration\tdataset\t" + "\t".join(f"seed_{s}" for s in seeds) + "\n")
        for config, d, r in rows:
            fh.write(f"{config}\t{d}\t" + "\t".join(f"{x:.4f}" for x in r) + "\n")


if __name__ == "__main__":
    main()
