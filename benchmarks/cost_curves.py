"""Cost curves: how each stage that reads the corpus grows with it (wall time, CPU time, peak resident memory, output
size), fitted as power laws of the token count and extrapolated to the full corpus, the Toronto Book Corpus and a
crawl of 1B sentences.

    python benchmarks/cost_curves.py SENTENCES OUT [--fractions 0.03125 0.0625 0.125] [--split-documents 10 20 40]
        [--stages vocab word2vec-sg word2vec-cbow glove siamese_cbow nws] [--report OUT/cost_curves.json]

SENTENCES is a full run's ``data/sentences`` (after ``dvc repro split``). For each fraction, whole documents drawn at
random (seed 1, nested: each fraction's documents hold the smaller fractions'), in corpus order, are written to
``OUT/fraction-F/data/sentences``, and the stage scripts run there one after another with ``params.yaml``'s full-run
settings, each under ``/usr/bin/time`` (its own process: wall and CPU seconds, peak resident set). The split stage,
whose input is the raw shards, runs on the first K documents of every shard of the data mirror
(``--split-documents``, ``split.corpus`` pointed at the mirror's corpus folder) and is fitted on the tokens it wrote.
The stages that do not read the corpus (pairs, the paraphrastic and supervised trainers, evaluation, reports) do
not grow with it.

Each measure is fitted as ``a · tokens^b`` by least squares on logarithms (two points or more), the times also as
``c + k · tokens`` (a pass over every token has no economy of scale), and extrapolated to
126.0M tokens (the full corpus), 985M (the Toronto Book Corpus's words, Zhu et al. 2015) and 1B sentences × 22.6
tokens (the full corpus's mean sentence length). Prints a markdown table and, with ``--figure``, writes a log-log
figure (SVG).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import yaml

from sentemb.core.atomic import atomic_open, write_json

ROOT = Path(__file__).resolve().parent.parent
SCALES = {"full corpus": 125_988_097, "Toronto (985M words)": 985_000_000, "1B sentences": 22_616_000_000}
STAGES = {  # name → (stage script and its argument, the outputs it writes)
    "vocab": (["vocab.py"], ["data/vocab.tsv", "data/corpus"]),
    "word2vec-sg": (["word2vec.py", "word2vec-sg"], ["models/word2vec-sg"]),
    "word2vec-cbow": (["word2vec.py", "word2vec-cbow"], ["models/word2vec-cbow"]),
    "glove": (["glove.py", "glove"], ["models/glove"]),
    "siamese_cbow": (["siamese_cbow.py", "siamese_cbow"], ["models/siamese_cbow"]),
    "nws": (["nws.py", "glove-nws"], ["models/glove-nws"]),
}
MEASURES = ("wall_s", "cpu_s", "peak_rss_mib", "output_mib")


def project(folder: Path, overrides: dict) -> None:
    """A folder to run stage scripts in: the stages, and params.yaml with ``overrides`` (dotted keys, applied and
    checked by ``profiles/profile.py`` as a profile's are)."""
    spec = importlib.util.spec_from_file_location("profile_script", ROOT / "profiles" / "profile.py")
    profile = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(profile)
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "stages").exists():
        shutil.copytree(ROOT / "stages", folder / "stages")
    params = profile.apply_profile(yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8")), overrides,
                                   where="cost_curves")
    (folder / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")


def sample_documents(source: Path, target: Path, fraction: float, seed: int = 1) -> dict:
    """Whole documents of ``source`` (a split stage's folder: sentences.txt, a blank line after each document;
    documents.tsv) drawn at random, ``fraction`` of them, written to ``target`` in corpus order with its statistics.
    The draw is nested: one uniform number per document, a document kept when its number is below ``fraction``."""
    import csv

    with open(source / "documents.tsv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    keep = np.random.default_rng(seed).random(len(rows)) < fraction
    target.mkdir(parents=True, exist_ok=True)
    sentences = tokens = 0
    with open(source / "sentences.txt", encoding="utf-8") as fin, \
            open(target / "sentences.txt", "w", encoding="utf-8") as fout, \
            open(target / "documents.tsv", "w", encoding="utf-8") as dout:
        dout.write("document\tsource\ttitle\tsentences\ttokens\n")
        for row, kept in zip(rows, keep, strict=True):
            n = int(row["sentences"])
            lines = [fin.readline() for _ in range(n + 1)]  # its sentences and the blank line after them
            if kept:
                fout.writelines(lines)
                dout.write(f"{row['document']}\t{row['source']}\t{row['title']}\t{n}\t{row['tokens']}\n")
                sentences += n
                tokens += int(row["tokens"])
    stats = json.loads((source / "stats.json").read_text(encoding="utf-8"))
    stats.update(documents=int(keep.sum()), sentences=sentences, tokens=tokens, shards={})
    write_json(target / "stats.json", stats)
    return stats


def timed(folder: Path, args: list[str], outputs: list[str]) -> dict:
    """Run ``python stages/ARGS`` in ``folder`` under /usr/bin/time: wall and CPU seconds, peak RSS, output size."""
    log = folder / "time.txt"
    cmd = ["/usr/bin/time", "-o", str(log), "-f", "%e %U %S %M", sys.executable, f"stages/{args[0]}", *args[1:]]
    res = subprocess.run(cmd, cwd=folder, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"error: {' '.join(args)} in {folder} failed:\n{res.stderr[-2000:]}")
    wall, user, system, rss_kib = log.read_text().split()[-4:]
    return {"wall_s": float(wall), "cpu_s": float(user) + float(system), "peak_rss_mib": int(rss_kib) / 1024,
            "output_mib": output_mib(folder, outputs)}


def output_mib(folder: Path, outputs: list[str]) -> float:
    """MiB of the files ``outputs`` (files or folders, relative to ``folder``) hold."""
    size = sum(p.stat().st_size for out in outputs for p in ([folder / out] if (folder / out).is_file()
                                                                else (folder / out).rglob("*")) if p.is_file())
    return size / 2**20


def fit(points: list[tuple[float, float]]) -> tuple[float, float] | None:
    """``(a, b)`` of ``y = a · x^b`` by least squares on logarithms; None with fewer than two distinct x."""
    xs = np.array([p[0] for p in points], dtype=float)
    ys = np.array([max(p[1], 1e-9) for p in points], dtype=float)
    if len(set(xs)) < 2:
        return None
    b, log_a = np.polyfit(np.log(xs), np.log(ys), 1)
    return float(np.exp(log_a)), float(b)


def fit_linear(points: list[tuple[float, float]]) -> tuple[float, float] | None:
    """``(c, k)`` of ``y = c + k · x`` by least squares (a fixed cost and one per token); None with fewer than two
    distinct x. The model of a stage that passes over every token a fixed number of times, whose power-law exponent
    over a small range is pulled below 1 by costs that grow with the vocabulary (∝ tokens^0.58) rather than the
    tokens."""
    xs = np.array([p[0] for p in points], dtype=float)
    if len(set(xs)) < 2:
        return None
    k, c = np.polyfit(xs, np.array([p[1] for p in points], dtype=float), 1)
    return float(c), float(k)


def table(runs: dict[str, list[dict]]) -> str:
    """Markdown: per stage and measure, the fitted power law's exponent and extrapolations, and for the times the
    linear fit's too."""
    lines = ["| stage | measure | fit | points (tokens: value) | exponent b | " + " | ".join(SCALES) + " |",
             "|---|---|---|---|---:|" + "---:|" * len(SCALES)]
    for stage, points in runs.items():
        for measure in MEASURES:
            pts = sorted((p["tokens"], p[measure]) for p in points)
            shown = ", ".join(f"{x / 1e6:.1f}M: {y:.3g}" for x, y in pts)
            ab = fit(pts)
            if ab is None:
                lines.append(f"| {stage} | {measure} | | {shown} | | " + " | ".join("" for _ in SCALES) + " |")
                continue
            a, b = ab
            lines.append(f"| {stage} | {measure} | a·x^b | {shown} | {b:.2f} | "
                         + " | ".join(f"{a * n ** b:.3g}" for n in SCALES.values()) + " |")
            if measure in ("wall_s", "cpu_s"):
                c, k = fit_linear(pts)
                lines.append(f"| {stage} | {measure} | c + k·x | | | "
                             + " | ".join(f"{c + k * n:.3g}" for n in SCALES.values()) + " |")
    return "\n".join(lines)


def figure(runs: dict[str, list[dict]], path: Path) -> None:
    """Wall time and peak memory against tokens, log-log, each stage's points and its fitted power law (solid) out to
    1B sentences; for the wall time also the linear fit (dashed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sentemb.reporting.figures import svg_text

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    grid = np.geomspace(min(p["tokens"] for pts in runs.values() for p in pts), max(SCALES.values()), 50)
    for stage, points in runs.items():
        for ax, measure in zip(axes, ("wall_s", "peak_rss_mib"), strict=True):
            pts = [(p["tokens"], p[measure]) for p in points]
            (line,) = ax.plot([x for x, _ in pts], [y for _, y in pts], "o", label=stage)
            ab = fit(pts)
            if ab:
                ax.plot(grid, ab[0] * grid ** ab[1], "-", color=line.get_color(), alpha=0.6)
            ck = fit_linear(pts) if measure == "wall_s" else None
            if ck:
                ax.plot(grid, ck[0] + ck[1] * grid, "--", color=line.get_color(), alpha=0.6)
    for ax, label in zip(axes, ("wall time (s)", "peak resident memory (MiB)"), strict=True):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("corpus tokens")
        ax.set_ylabel(label)
        for name, n in SCALES.items():
            ax.axvline(n, color="grey", lw=0.8, ls=":")
            ax.text(n, ax.get_ylim()[0], f" {name}", rotation=90, va="bottom", fontsize=7, color="grey")
    axes[1].axhline(24 * 1024, color="red", lw=0.8, ls="--")
    axes[1].text(grid[0], 24 * 1024, " 24 GiB", va="bottom", fontsize=7, color="red")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    with atomic_open(path) as fh:
        fh.write(svg_text(fig))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sentences", type=Path, help="a full run's data/sentences")
    ap.add_argument("out", type=Path)
    ap.add_argument("--fractions", type=float, nargs="*", default=[1 / 32, 1 / 16, 1 / 8])
    ap.add_argument("--split-documents", type=int, nargs="*", default=[10, 20, 40])
    ap.add_argument("--mirror", type=Path, default=ROOT.parent / "shared/data", help="the data mirror (split)")
    ap.add_argument("--stages", nargs="*", default=list(STAGES), choices=list(STAGES))
    ap.add_argument("--report", type=Path, help="the JSON the figures go to, rewritten after each run, and that an "
                    "earlier run's are added to (default OUT/cost_curves.json)")
    ap.add_argument("--figure", type=Path, help="write the log-log figure (SVG) here")
    args = ap.parse_args()
    report = args.report or args.out / "cost_curves.json"
    runs: dict[str, list[dict]] = json.loads(report.read_text()) if report.is_file() else {}

    def record(stage: str, point: dict) -> None:  # the report rewritten after each run: a later failure keeps it
        runs.setdefault(stage, []).append(point)
        write_json(report, runs)

    for k in args.split_documents:
        folder = args.out / f"split-{k}"
        project(folder, {"split.corpus": str((args.mirror / "corpus").resolve()), "split.max_documents": k})
        figures = timed(folder, ["split.py"], ["data/sentences"])
        stats = json.loads((folder / "data/sentences/stats.json").read_text(encoding="utf-8"))
        record("split", {"tokens": stats["tokens"], "documents_per_shard": k, **figures})
        print(f"split K={k}: {stats['tokens']} tokens {figures}", flush=True)
        shutil.rmtree(folder / "data")
    for fraction in sorted(args.fractions):
        folder = args.out / f"fraction-{fraction:g}"
        project(folder, {})
        stats = sample_documents(args.sentences, folder / "data/sentences", fraction)
        for stage in args.stages:
            script, outputs = STAGES[stage]
            figures = timed(folder, script, outputs)
            record(stage, {"tokens": stats["tokens"], "fraction": fraction, **figures})
            print(f"{stage} at {fraction:g} ({stats['tokens']} tokens): {figures}", flush=True)
        shutil.rmtree(folder)
    print(table(runs))
    if args.figure:
        figure(runs, args.figure)


if __name__ == "__main__":
    main()
