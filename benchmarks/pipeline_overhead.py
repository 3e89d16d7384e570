"""The smoke profile's wall time in a fresh project, per stage family: what the end-to-end tests spend, and what the
pipeline's layout (how many dvc.yaml and lock files) costs around the stages.

Usage:
    python benchmarks/pipeline_overhead.py OUT [--against REV] [--shared ../shared/data]

For this checkout, and first for revision REV of it when ``--against`` is given (``git archive REV``, unpacked in
``OUT/REV``), it makes a fresh git + DVC project in ``OUT/NAME`` exactly as the end-to-end tests do (conftest's
``make_project``: the tree's dvc.yaml files, stages, src, reference and profiles, params.yaml reading the shared mirror)
and runs the smoke profile in it, ``dvc exp run $(python profiles/profile.py smoke)`` (in older trees the same profile
was named ``quick``, and older still ``sentemb profile quick``), timing each line DVC prints. Each stage's time is
from its ``Running stage`` line to the next stage's (DVC's bookkeeping around the stage included); the stage commands
import ``sentemb`` from the tree's own ``src`` (PYTHONPATH). It prints the seconds per stage family for each tree side
by side, and the total. The runs go one after the other: run it on an idle machine, and compare figures of one
invocation only (this machine's speed drifts from day to day).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from conftest import GIT_IDENTITY, make_project  # noqa: E402  (the end-to-end tests' fresh project)


def run_smoke_profile(tree: Path, work: Path, shared: Path) -> tuple[float, Counter]:
    """Seconds of the whole ``dvc exp run`` and seconds per stage family (``nws@glove`` → ``nws``)."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    proj = make_project(work, shared, smoke=False, root=tree)
    env = os.environ | GIT_IDENTITY | {"PYTHONPATH": str(tree / "src"), "PYTHONUNBUFFERED": "1"}
    subprocess.run(["git", "add", "-A"], cwd=proj, check=True)
    subprocess.run(["git", "commit", "-qm", "a fresh project"], cwd=proj, check=True, env=env)
    py = shlex.quote(sys.executable)
    start = time.monotonic()
    script, name = tree / "profiles/profile.py", "smoke" if (tree / "profiles/smoke.yaml").is_file() else "quick"
    profile = f"profiles/profile.py {name}" if script.is_file() else "-m sentemb.cli profile quick"
    proc = subprocess.Popen(["bash", "-c", f"{py} -m dvc exp run $({py} {profile})"], cwd=proj,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    marks = []  # (seconds since start, stage address) of every "Running stage" line
    for line in proc.stdout:
        if m := re.match(r"Running stage '(.+)':", line):
            marks.append((time.monotonic() - start, m.group(1)))
    if proc.wait():
        sys.exit(f"{tree}: dvc exp run failed (exit {proc.returncode}); the project is in {proj}")
    total = time.monotonic() - start
    families: Counter = Counter()
    for (t, name), (t_next, _) in zip(marks, [*marks[1:], (total, "")], strict=True):
        families[name.rsplit(":", 1)[-1].split("@")[0]] += t_next - t
    print(f"{tree}: {len(marks)} stages in {total:.1f} s", flush=True)
    return total, families


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--against", help="another revision to time first (git archive REV)")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    args = ap.parse_args()
    trees = {}
    if args.against:
        tree = args.out / args.against
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", args.against], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        trees[args.against] = tree
    trees["this checkout"] = ROOT
    results = {name: run_smoke_profile(tree, args.out / f"project-{i}", args.shared)
               for i, (name, tree) in enumerate(trees.items())}
    names = list(results)
    print("\n| stage family | " + " | ".join(names) + " |\n|---|" + "---:|" * len(names))
    families = list(dict.fromkeys(f for _, fam in results.values() for f in fam))
    for family in families:
        print(f"| {family} | " + " | ".join(f"{results[n][1][family]:.0f} s" for n in names) + " |")
    print("| **all** (`dvc exp run`) | " + " | ".join(f"**{results[n][0]:.0f} s**" for n in names) + " |")


if __name__ == "__main__":
    main()
