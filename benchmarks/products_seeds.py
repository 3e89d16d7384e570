"""Seed study of the recurrent encoders' `products` setting: float32 (the papers' arithmetic, the default) against
bfloat16 (the opt-in of docs/speed.md), over several training seeds.

Usage (after `dvc repro`, which trains each model once with the params' seed in float32):
    python benchmarks/products_seeds.py OUT [--models para-lstmavg para-gran] [--seeds 1 2 3]

One float32 and one bfloat16 run of the same seed differ only in the rounding of the products, but a paired test
over the 28 benchmark sets of two such runs cannot say whether bfloat16 itself moves the model: the 28 sets share one
model, so any two runs that differ at all (another seed, other float rounding) can differ consistently across sets.
This study trains each model with every seed in both dtypes and sets the effect beside that control:
- per seed, float32 → bfloat16: the 21-set mean (Wieting & Gimpel's 22 sets less the one we lack: ``GRAN-22``), the
  sets that went up, and the Wilcoxon signed-rank test over the 28 sets (scipy.stats.wilcoxon, paired, two-sided);
- the control: the same test between two seeds of one dtype (float32 seed i against seed j, and bfloat16's);
- over the seeds: the mean change of the 21-set mean, in how many seeds it pointed the same way, Welch's t-test
  of the seeds' 21-set means (bfloat16's against float32's), and the Wilcoxon test of the seed-averaged per-set
  changes.

Each run is the stages' own commands, ``python stages/paraphrastic.py MODEL`` then ``python stages/evaluate.py
MODEL``, in ``OUT/PRODUCTS-seed-S``, a directory whose ``data`` and ``stages`` link to this checkout's, whose
``models`` holds links to the checkout's models (the starting vectors) and whose ``params.yaml`` is the checkout's
with ``paraphrastic.MODEL.seed`` and ``.products`` replaced; the run's own model goes to that directory's
``models/MODEL``, never the checkout's. A run whose metrics are already there is not run again (the study resumes).
The checkout's own metrics stand for the run of its params (the params' seed in float32): every stage writes the
same bytes for the same params on one machine. About 4-7 min a run on 2 cores (LSTMAVG and GRAN).
Writes every run's per-set Pearson r to ``OUT/products_seeds.tsv``.
"""

import argparse
import itertools
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import yaml
from scipy.stats import ttest_ind, wilcoxon

from sentemb.reporting.workspace import Workspace

MODELS = ["para-lstm", "para-lstmavg", "para-gran"]
PRODUCTS = ["float32", "bfloat16"]
MEAN = "GRAN-22"  # the 21-set mean of metrics/models/MODEL.json


def _scratch(repo: Path, out: Path, products: str, seed: int, model: str) -> Path:
    """OUT/PRODUCTS-seed-S: links to the checkout's data, stages and the model's starting vectors, and its params.yaml
    with the model's seed and products replaced."""
    work = out / f"{products}-seed-{seed}"
    (work / "models").mkdir(parents=True, exist_ok=True)
    for name in ("data", "stages"):
        if not (work / name).exists():
            (work / name).symlink_to(repo / name)
    params = yaml.safe_load((repo / "params.yaml").read_text(encoding="utf-8"))
    params["paraphrastic"][model].update(seed=seed, products=products)
    vectors = work / "models" / params["paraphrastic"][model]["vectors"]
    if not vectors.exists():
        vectors.symlink_to(repo / "models" / params["paraphrastic"][model]["vectors"])
    (work / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")
    return work


def _run(work: Path, model: str) -> None:
    """Train and evaluate ``model`` in ``work`` with the stages' own commands, unless its metrics are there."""
    if (work / "metrics" / "models" / f"{model}.datasets.csv").is_file():
        return
    t = time.perf_counter()
    for script in ("stages/paraphrastic.py", "stages/evaluate.py"):
        res = subprocess.run([sys.executable, script, model], cwd=work, capture_output=True, text=True)
        if res.returncode:
            sys.exit(f"{work.name} {model}: {script} failed ({res.returncode}):\n{res.stderr[-3000:]}")
    print(f"{work.name} {model}: {time.perf_counter() - t:.0f} s", flush=True)


def _read(root: Path, model: str) -> tuple[float, np.ndarray, list[str]]:
    """The 21-set mean, the per-set Pearson r ×100 and the sets' names of one run."""
    ws = Workspace(root)
    mean, sets = ws.metrics(model)[MEAN]["pearson"], ws.datasets(model)
    return mean, sets["pearson"].to_numpy(), list(sets["set"])


def _paired(a: np.ndarray, b: np.ndarray) -> str:
    """Sets up (b over a) and the Wilcoxon signed-rank p over the sets, as table cells."""
    return f"{int((b > a).sum())} / {len(a)} | {wilcoxon(b, a).pvalue:.2g}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--models", nargs="+", default=["para-lstmavg", "para-gran"], choices=MODELS)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--repo", type=Path, default=Path("."))
    args = ap.parse_args()
    if len(args.seeds) < 2:
        sys.exit("--seeds: at least two seeds (the control compares seeds)")
    repo, out = args.repo.resolve(), args.out.resolve()
    params = yaml.safe_load((repo / "params.yaml").read_text(encoding="utf-8"))["paraphrastic"]
    runs: dict[tuple[str, str, int], tuple[float, np.ndarray]] = {}
    names: list[str] = []
    for model in args.models:
        own = (params[model]["products"], params[model]["seed"])
        if not (repo / "metrics" / "models" / f"{model}.datasets.csv").is_file():
            sys.exit(f"{repo / 'metrics' / 'models' / model}.datasets.csv: missing "
                     f"(dvc repro evaluate-paraphrastic@{model})")
        for products, seed in itertools.product(PRODUCTS, args.seeds):
            root = repo
            if (products, seed) != own:
                root = _scratch(repo, out, products, seed, model)
                _run(root, model)
            mean, pearson, names = _read(root, model)
            runs[model, products, seed] = mean, pearson
    rows = []
    for model in args.models:
        print(f"\n{model}: Pearson r ×100, float32 → bfloat16 for each seed (paired over the {len(names)} sets)\n")
        print("| seed | 21-set mean, float32 | bfloat16 | change | sets up | Wilcoxon p |")
        print("|---:|---:|---:|---:|---:|---:|")
        for seed in args.seeds:
            (m32, r32), (m16, r16) = runs[model, "float32", seed], runs[model, "bfloat16", seed]
            print(f"| {seed} | {m32:.2f} | {m16:.2f} | {m16 - m32:+.2f} | {_paired(r32, r16)} |")
            rows += [(model, p, seed, runs[model, p, seed][1]) for p in PRODUCTS]
        print("\nThe control: two seeds of one dtype (seed i → seed j), the same paired test\n")
        print("| dtype | seeds | 21-set mean change | sets up | Wilcoxon p |")
        print("|---|---|---:|---:|---:|")
        for products in PRODUCTS:
            for i, j in itertools.combinations(args.seeds, 2):
                (mi, ri), (mj, rj) = runs[model, products, i], runs[model, products, j]
                print(f"| {products} | {i} → {j} | {mj - mi:+.2f} | {_paired(ri, rj)} |")
        m32 = [runs[model, "float32", s][0] for s in args.seeds]
        m16 = [runs[model, "bfloat16", s][0] for s in args.seeds]
        change = [b - a for a, b in zip(m32, m16, strict=True)]
        down = sum(c < 0 for c in change)
        per_set = np.mean([runs[model, "bfloat16", s][1] - runs[model, "float32", s][1] for s in args.seeds], axis=0)
        welch = ttest_ind(m16, m32, equal_var=False)
        sd32, sd16 = statistics.stdev(m32), statistics.stdev(m16)
        print(f"\nOver {len(args.seeds)} seeds: 21-set mean {statistics.mean(m32):.2f} (sd {sd32:.2f}) "
              f"→ {statistics.mean(m16):.2f} (sd {sd16:.2f}), change {statistics.mean(change):+.2f} "
              f"(down in {down} of {len(change)} seeds); Welch's t-test of the seeds' means p = {welch.pvalue:.2g}; "
              f"seed-averaged per-set change: up on {int((per_set > 0).sum())} of {len(per_set)} sets, Wilcoxon "
              f"p = {wilcoxon(per_set).pvalue:.2g}")
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "products_seeds.tsv", "w", encoding="utf-8") as fh:
        fh.write("model\tproducts\tseed\t" + "\t".join(names) + "\n")
        for model, products, seed, pearson in rows:
            fh.write(f"{model}\t{products}\t{seed}\t" + "\t".join(f"{x:.4f}" for x in pearson) + "\n")


if __name__ == "__main__":
    main()
