"""Which of model2vec's two post-processing steps moves a static student's score: the teacher's student (``student``
stages, :mod:`sentemb.distillation.static_student`) distilled afresh with PCA (params ``students.pca_dims``) and the
SIF weights (``students.sif_coefficient``) each on and off, every variant scored on STS 2012-2015 (STS12-15, mean
Pearson ×100). The quality-against-speed frontier itself is a pipeline output: reports/harness.md.

Usage (after `dvc repro`):
    python benchmarks/student_ablation.py para-gran [para-lstm …]
"""

import argparse
from pathlib import Path

import yaml

from sentemb.core.data.benchmarks import load_benchmarks
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.evaluation.sts import aggregate, evaluate
from sentemb.core.models import load_model
from sentemb.core.models.word_averaging import WordAveragingModel
from sentemb.core.text import load_token_cache
from sentemb.distillation.static_student import StudentConfig, distil


def ablation(teacher: str, students: dict, vocab: Vocabulary, datasets: list) -> None:
    """The student of ``teacher`` with PCA and SIF weights each on and off: STS12-15 of each."""
    model = load_model(Path("models") / teacher)
    print(f"{teacher}: STS12-15 {aggregate(evaluate(model, datasets))['STS12-15']['pearson']:.2f}")
    for pca in (None, students["pca_dims"]):
        for sif in (None, students["sif_coefficient"]):
            vectors, _ = distil(model, vocab, StudentConfig(pca_dims=pca, sif_coefficient=sif))
            student = WordAveragingModel(f"{teacher}-static", vectors, model.text)
            score = aggregate(evaluate(student, datasets))["STS12-15"]["pearson"]
            print(f"student, PCA {pca or 'none'}, SIF a {sif or 'none'}: STS12-15 {score:.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("teachers", nargs="+", help="paraphrastic models of the run, e.g. para-gran")
    args = ap.parse_args()
    students = yaml.safe_load(Path("params.yaml").read_text(encoding="utf-8"))["students"]
    load_token_cache("data/benchmarks/tokens.json")
    vocab = Vocabulary.load("data/vocab.tsv")
    datasets = load_benchmarks("data/raw", ["STS12", "STS13", "STS14", "STS15"])
    for teacher in args.teachers:
        ablation(teacher, students, vocab, datasets)


if __name__ == "__main__":
    main()
