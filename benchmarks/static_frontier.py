"""The equal-corpus static frontier: each evaluated model's STS12-15 mean (its committed metrics) against its encoding
speed, teachers and their static students (``student@TEACHER``, model2vec's distillation) together.

Usage (after `dvc repro`):
    python benchmarks/static_frontier.py --figure docs/figures/static_frontier.svg [--sentences 5000] [--rounds 3]
    python benchmarks/static_frontier.py --ablation para-gran

``--ablation TEACHER``: the teacher's student under model2vec's two post-processing steps, each on and off (no PCA or
params' ``students.pca_dims``; no weights or ``students.sif_coefficient``), distilled afresh and scored on STS12-15.

One process, one thread (torch, and numpy's BLAS through the environment set before it loads), the same machine and
the same command for every model: each model loaded, then ``encode`` on the first N distinct sentences of STS
2012-2015 with the benchmark token cache loaded (``data/benchmarks/tokens.json``, as the evaluation runs: every model
tokenises alike, so the time is the encoder's), best of the rounds. Prints a markdown table (model, kind, STS12-15,
sentences/s, the teacher's and the student's ratio) and writes the figure: sentences/s on a log scale against
STS12-15, an arrow from each teacher to its student. The speeds are this machine's, so they stay out of the pipeline's
outputs (which two clones reproduce byte for byte).
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
import yaml  # noqa: E402

from sentemb.core.data.benchmarks import load_benchmarks  # noqa: E402
from sentemb.core.data.vocab import Vocabulary  # noqa: E402
from sentemb.core.evaluation.sts import aggregate, evaluate  # noqa: E402
from sentemb.core.models import load_model  # noqa: E402
from sentemb.core.models.word_averaging import WordAveragingModel  # noqa: E402
from sentemb.core.text import load_token_cache  # noqa: E402
from sentemb.distillation.static_student import StudentConfig, distil  # noqa: E402
from sentemb.reporting.tables import to_markdown  # noqa: E402
from sentemb.reporting.workspace import Workspace  # noqa: E402

STUDENT = "-static"


def kind(ws: Workspace, name: str) -> str:
    """teacher (a model with a student), student, or other."""
    if name.endswith(STUDENT):
        return "student"
    return "teacher" if ws.evaluated(name + STUDENT) else "other"


def speed(directory: Path, sentences: list[str], rounds: int) -> float:
    """Sentences per second of ``load_model(directory).encode`` on ``sentences``, best of ``rounds``."""
    model = load_model(directory)
    model.encode(sentences[:100])  # warm: lazy tables, first torch call
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        model.encode(sentences)
        best = min(best, time.perf_counter() - t0)
    return len(sentences) / best


def ablation(teacher: str) -> None:
    """The student of ``teacher`` with PCA and SIF weights each on and off: STS12-15 of each."""
    students = yaml.safe_load(Path("params.yaml").read_text(encoding="utf-8"))["students"]
    model = load_model(Path("models") / teacher)
    vocab = Vocabulary.load("data/vocab.tsv")
    datasets = load_benchmarks("data/raw", ["STS12", "STS13", "STS14", "STS15"])
    teacher_score = aggregate(evaluate(model, datasets))["STS12-15"]["pearson"]
    print(f"{teacher}: STS12-15 {teacher_score:.2f}")
    for pca in (None, students["pca_dims"]):
        for sif in (None, students["sif_coefficient"]):
            vectors, _ = distil(model, vocab, StudentConfig(pca_dims=pca, sif_coefficient=sif))
            student = WordAveragingModel(f"{teacher}-static", vectors, model.text)
            score = aggregate(evaluate(student, datasets))["STS12-15"]["pearson"]
            print(f"student, PCA {pca or 'none'}, SIF a {sif or 'none'}: STS12-15 {score:.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--figure", type=Path, help="the SVG to write")
    ap.add_argument("--ablation", metavar="TEACHER", help="the post-processing ablation of one teacher's student")
    ap.add_argument("--sentences", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--models", nargs="*", help="default: every evaluated model of the workspace")
    args = ap.parse_args()
    torch.set_num_threads(1)
    load_token_cache("data/benchmarks/tokens.json")
    if args.ablation:
        ablation(args.ablation)
        return
    if args.figure is None:
        ap.error("--figure is required (or --ablation)")
    ws = Workspace()
    datasets = load_benchmarks("data/raw", ["STS12", "STS13", "STS14", "STS15"])
    sentences = list(dict.fromkeys(s for d in datasets for s in (*d.sentences1, *d.sentences2)))[:args.sentences]
    rows = []
    for name in args.models or ws.evaluated_models():
        rate = speed(Path("models") / name, sentences, args.rounds)
        rows.append({"model": name, "kind": kind(ws, name), "STS12-15": ws.metrics(name)["STS12-15"]["pearson"],
                     "sentences/s": rate})
        print(f"{name}: {rate:,.0f} sentences/s", flush=True)
    table = pd.DataFrame(rows).set_index("model")
    students = table[table["kind"] == "student"]
    pairs = pd.DataFrame({"teacher STS12-15": table.loc[students.index.str.removesuffix(STUDENT), "STS12-15"].values,
                          "student STS12-15": students["STS12-15"].values,
                          "speed-up": (students["sentences/s"].values
                                       / table.loc[students.index.str.removesuffix(STUDENT), "sentences/s"].values)},
                         index=students.index.str.removesuffix(STUDENT))
    print(f"\n{len(sentences):,} distinct STS 2012-2015 sentences, best of {args.rounds}, one thread\n")
    shown = table.assign(**{"sentences/s": table["sentences/s"].map(lambda v: f"{v:,.0f}")})
    print(to_markdown(shown.reset_index()))
    print("\n" + to_markdown(pairs.assign(**{"speed-up": pairs["speed-up"].map(lambda v: f"{v:.1f}×")})
                             .rename_axis("teacher").reset_index()))

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for k, marker in (("other", "o"), ("teacher", "s"), ("student", "^")):
        part = table[table["kind"] == k]
        ax.scatter(part["sentences/s"], part["STS12-15"], marker=marker, s=18, label=k, zorder=3)
    for teacher in pairs.index:
        a, b = table.loc[teacher], table.loc[teacher + STUDENT]
        ax.annotate("", (b["sentences/s"], b["STS12-15"]), (a["sentences/s"], a["STS12-15"]),
                    arrowprops={"arrowstyle": "->", "linewidth": 0.6, "color": "grey"})
        ax.annotate(teacher, (a["sentences/s"], a["STS12-15"]), fontsize=6, xytext=(3, -8), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("sentences/s, one thread (log scale)")
    ax.set_ylabel("STS12-15, mean Pearson r × 100")
    ax.set_title("Quality against encoding speed: teachers → their static students")
    ax.grid(linewidth=0.3)
    ax.legend(fontsize=7, frameon=False)
    args.figure.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.figure, format="svg", metadata={"Date": None}, bbox_inches="tight")
    print(f"\nwrote {args.figure}")


if __name__ == "__main__":
    main()
