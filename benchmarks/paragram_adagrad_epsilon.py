"""PARAGRAM trained under AdaGrad's δ as torch sets it and as the authors' code sets it.

AdaGrad in Duchi et al.'s form steps by lr·g / (√Σg² + δ). torch's Adagrad has δ = 1e-10, so its first step moves
every coordinate that has a non-zero gradient by ±lr (0.05 for PARAGRAM), whatever the gradient's size; the trainer
took it until the optimiser registry (``sentemb.core.optim``). Wieting et al. 2015's code (``AGWords.m`` in
jwieting/tacl2015: ``We_orig - params.etaw*gradWords./(sqrt(Gw)+delta)``, ``delta = 1E-4``) has δ = 1e-4, under which a
coordinate whose gradient is well below 1e-4 moves by about lr·g/δ instead; ``optimizer: adagrad_duchi`` is that rule.
``benchmarks/paraphrastic_vs_reference.py`` shows torch's rule and Lasagne's part after the first step.

This runs the ``paraphrastic@paragram`` stage as it is (``python stages/paraphrastic.py paragram``: PPDB XL lexical
pairs from our GloVe, params.yaml's settings, selection on SimLex-999) once per δ, with
``sentemb.core.optim.DUCHI_DELTA`` set to that value and nothing else changed, and prints SimLex-999 and WordSim-353
(Spearman ×100) at every checkpoint. Run it in a scratch clone of the pipeline that holds ``models/glove`` and
``data/pairs`` (``dvc repro glove pairs``): it overwrites that checkout's ``models/paragram`` and
``metrics/train/paragram.csv``.

    python benchmarks/paragram_adagrad_epsilon.py CHECKOUT --delta 1e-10 1e-4 --downstream para-avg

``--downstream`` trains paraphrastic models from each PARAGRAM as configured and reports the checkpoint the stage
selects (best STS 2016 mean) with its 22-set and STS 2012-2015 means, from the stage's checkpoint log (the selection
data: the GRAN paper's sets, no separate evaluation stage needed).
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

RUN_STAGE = """
import runpy, sys
import sentemb.core.optim
sentemb.core.optim.DUCHI_DELTA = float(sys.argv[1])
sys.argv = ["stages/paraphrastic.py", sys.argv[2]]
sys.path.insert(0, "stages")
runpy.run_path("stages/paraphrastic.py", run_name="__main__")
"""


def run_stage(checkout: Path, name: str, delta: float, out: Path | None, tag: str) -> list[dict]:
    """Run ``paraphrastic@name`` in ``checkout`` with ``adagrad_duchi``'s δ set to ``delta``; its checkpoint log's
    rows."""
    env = os.environ | {"PYTHONPATH": str((checkout / "src").resolve())}
    subprocess.run([sys.executable, "-c", RUN_STAGE, repr(delta), name], cwd=checkout, env=env, check=True)
    log = checkout / f"metrics/train/{name}.csv"
    if out:
        out.mkdir(parents=True, exist_ok=True)
        shutil.copy(log, out / f"{name}-{tag}.csv")
    with open(log, newline="") as fh:
        return list(csv.DictReader(fh))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", type=Path, help="a pipeline checkout with models/glove and data/pairs")
    ap.add_argument("--delta", type=float, nargs="+", default=[1e-10, 1e-4],
                    help="AdaGrad's δ in lr·g / (√Σg² + δ), one run each (torch: 1e-10; Wieting et al. 2015: 1e-4)")
    ap.add_argument("--out", type=Path, default=None, help="keep each run's checkpoint log here")
    ap.add_argument("--downstream", nargs="*", default=[], metavar="NAME",
                    help="paraphrastic models to train after each PARAGRAM (e.g. para-avg, with vectors: paragram), "
                         "as configured; their checkpoint with the best STS 2016 mean is reported")
    args = ap.parse_args()
    for needed in ("models/glove/config.json", "data/pairs/ppdb-lexical.tsv"):
        if not (args.checkout / needed).is_file():
            raise SystemExit(f"{args.checkout / needed}: missing; run `dvc repro glove pairs` in {args.checkout}")

    curves: dict[float, list[dict]] = {}
    downstream: dict[tuple[float, str], dict] = {}
    for delta in args.delta:
        start = time.perf_counter()
        curves[delta] = run_stage(args.checkout, "paragram", delta, args.out, f"delta-{delta:g}")
        for name in args.downstream:  # trained as configured from this PARAGRAM
            rows = run_stage(args.checkout, name, delta, args.out, f"after-paragram-delta-{delta:g}")
            downstream[delta, name] = max(rows, key=lambda r: float(r["STS16"])) | {
                "oracle": max(float(r["GRAN-22"]) for r in rows)}
        print(f"δ = {delta:g}: {time.perf_counter() - start:.0f} s")

    print("\nSpearman ×100 at each checkpoint, SimLex-999 / WordSim-353, one column per δ")
    print("epoch  " + "  ".join(f"{f'δ = {e:g}':>15s}" for e in args.delta))
    for k in range(max(len(c) for c in curves.values())):
        cells = []
        for e in args.delta:
            row = curves[e][k] if k < len(curves[e]) else None
            cells.append(f"{float(row['SimLex-999']):6.2f} / {float(row['WordSim-353']):5.2f}" if row else " " * 15)
        epoch = next(c[k]["epoch"] for c in curves.values() if k < len(c))
        print(f"{float(epoch):5.1f}  " + "  ".join(cells))
    for e in args.delta:
        best = max(curves[e], key=lambda r: float(r["SimLex-999"]))
        print(f"δ = {e:g}: selected epoch {best['epoch']}: SimLex-999 {float(best['SimLex-999']):.2f}, "
              f"WordSim-353 {float(best['WordSim-353']):.2f}")
        for name in args.downstream:
            row = downstream[e, name]
            print(f"    {name} from it: selected epoch {row['epoch']} (best STS 2016 mean, {float(row['STS16']):.2f}); "
                  f"22-set mean {float(row['GRAN-22']):.2f} (oracle {row['oracle']:.2f}), STS 2012-2015 "
                  f"{float(row['STS12-15']):.2f} (Pearson ×100)")


if __name__ == "__main__":
    main()
