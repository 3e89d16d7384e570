"""The ``sentemb`` command: encode, compare and evaluate saved models."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import numpy as np
import typer

from sentemb.errors import SentembError

app = typer.Typer(help="Averaging-based sentence encoders scored on the SemEval STS benchmarks.",
                  no_args_is_help=True, pretty_exceptions_enable=False)


def _fail(e: SentembError) -> None:
    typer.echo(f"error: {e}", err=True)
    raise typer.Exit(1)


@app.command()
def similarity(
    model: Annotated[Path, typer.Argument(help="model directory, e.g. models/siamese_cbow")],
    sentence1: str,
    sentence2: str,
) -> None:
    """Cosine similarity of two sentences' embeddings (0 when either has no known word)."""
    from sentemb.evaluation.sts import cosine_scores
    from sentemb.models import load_model

    try:
        m = load_model(model)
    except SentembError as e:
        _fail(e)
    if getattr(m, "component_fit", None) == "per_set":
        _fail(SentembError(
            f"{model}: this model removes a common component fitted on the sentences of each call (SIF, per "
            "evaluation set); with two sentences that component is meaningless. Build the model with "
            "`dvc exp run -S baselines.component_fit=corpus` to compare single pairs."))
    emb = m.encode([sentence1, sentence2])
    score, undefined = cosine_scores(emb[:1], emb[1:])
    typer.echo(f"{score[0]:.4f}" + ("  (a sentence has no word in the model's vocabulary)" if undefined[0] else ""))


@app.command()
def encode(
    model: Annotated[Path, typer.Argument(help="model directory")],
    output: Annotated[Path, typer.Option("--output", "-o", help=".npy file for the (n, dim) float32 embeddings")],
    input: Annotated[Path | None, typer.Option("--input", "-i", help="one sentence a line (default: stdin)")] = None,
) -> None:
    """Embed sentences, one a line, into a .npy array of shape (n, dim)."""
    from sentemb.atomic import atomic_open
    from sentemb.models import load_model

    try:
        m = load_model(model)
        if input is not None and not input.is_file():
            raise SentembError(f"{input}: missing input file")
    except SentembError as e:
        _fail(e)
    lines = (input.read_text(encoding="utf-8") if input else sys.stdin.read()).splitlines()
    with atomic_open(output, "wb") as fh:
        np.save(fh, m.encode(lines))
    typer.echo(f"{len(lines)} sentences → {output}")


@app.command()
def evaluate(
    model: Annotated[Path, typer.Argument(help="model directory")],
    data: Annotated[
        Path, typer.Option(help="directory with sts/, sick/, stsbenchmark/, pit2015/ (the download stage's data/raw)")
    ] = Path("data/raw"),
    benchmark: Annotated[
        list[str] | None, typer.Option(help="STS12 … STS16, SICK-R, STS-B, PIT-2015 (repeatable; default all)")
    ] = None,
) -> None:
    """Score a model on the STS benchmarks and print Pearson/Spearman ×100 per dataset."""
    from sentemb.data.benchmarks import BENCHMARKS, load_benchmarks
    from sentemb.evaluation.sts import evaluate as run_eval
    from sentemb.models import load_model

    try:
        ev = run_eval(load_model(model), load_benchmarks(data, benchmark or BENCHMARKS))
    except SentembError as e:
        _fail(e)
    typer.echo(ev.datasets.to_string(index=False, float_format=lambda v: f"{v:.2f}"))


if __name__ == "__main__":
    app()
