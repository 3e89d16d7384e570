"""The ``sentemb`` command: compare, embed, search, export and evaluate saved models (:mod:`sentemb.inference`).

Every command prints bad input as one ``error: …`` line (exit 1), Ctrl-C as ``interrupted`` (exit 130) and SIGTERM as
``terminated`` (exit 143), without a traceback (:func:`sentemb.core.errors.exit_on_error`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import click
import typer

from sentemb.core.errors import SentembError, exit_on_error

# typer >= 0.29 parses with its own copy of click, whose exceptions are not click's
ABORTS = (click.exceptions.Abort, typer.Abort)
USAGE_ERRORS = (click.ClickException, getattr(typer, "TyperException", click.ClickException))
ST_EXTRA = frozenset({"sentence_transformers", "transformers", "tokenizers", "huggingface_hub", "mteb", "model2vec"})
"""The packages the extra ``st`` brings (and theirs) that the exports import: missing, a one-line error says so."""

app = typer.Typer(help="Averaging-based sentence encoders scored on the SemEval STS benchmarks.",
                  no_args_is_help=True, pretty_exceptions_enable=False)


def _version(shown: bool) -> None:
    if shown:
        from sentemb import __version__

        typer.echo(f"sentemb {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                   help="print the version and exit")] = False) -> None:
    """Averaging-based sentence encoders scored on the SemEval STS benchmarks."""


def one_line_errors(command: Callable) -> Callable:
    """A command whose SentembError becomes ``error: …`` on stderr and exit status 1."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except SentembError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(1) from None

    return run


def _load(model: Path):
    from sentemb.core.models import load_model

    return load_model(model)


@app.command(epilog="Example: sentemb similarity models/siamese_cbow \"A man plays guitar.\" \"A man sings.\"")
@one_line_errors
def similarity(
    model: Annotated[Path, typer.Argument(help="model directory, e.g. models/siamese_cbow")],
    sentence1: str,
    sentence2: str,
) -> None:
    """Cosine similarity of two sentences' embeddings (0 when either has no known word)."""
    from sentemb.core.evaluation.cosine import cosine_scores
    from sentemb.inference.files import refuse_per_set_component

    m = _load(model)
    refuse_per_set_component(m, model, "with two sentences that component is meaningless")
    emb = m.encode([sentence1, sentence2])
    score, undefined = cosine_scores(emb[:1], emb[1:])
    typer.echo(f"{score[0]:.4f}" + ("  (a sentence has no word in the model's vocabulary)" if undefined[0] else ""))


@app.command(epilog="Example: sentemb embed models/para-gran sentences.txt -o sentences.npy")
@one_line_errors
def embed(
    model: Annotated[Path, typer.Argument(help="model directory, e.g. models/para-gran")],
    file: Annotated[str, typer.Argument(help="UTF-8 text, one sentence a line; - reads standard input")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="the .npy file (default: FILE with .npy)")
                      ] = None,
    batch_size: Annotated[int, typer.Option(min=1, help="sentences encoded at a time")] = 10_000,
) -> None:
    """Embed a file of sentences into a .npy array, float32 of shape (n, dim), streaming in batches."""
    from sentemb.inference.files import embed_lines, read_lines

    if output is None:
        if file == "-":
            raise SentembError("reading standard input: name the output with -o/--output")
        output = Path(file).with_suffix(".npy")
    m = _load(model)
    n, zero = embed_lines(m, read_lines(file), output, batch_size, model_name=model)
    typer.echo(f"{n} sentences → {output} ({n} × {m.dim} float32)")
    if zero:
        typer.echo(f"warning: {zero} of the {n} lines (blank ones included) have no word the model knows: their rows "
                   "are zeros", err=True)


@app.command(epilog="Example: sentemb nearest models/para-gran \"a man plays the guitar\" --corpus sentences.txt -k 5")
@one_line_errors
def nearest(
    model: Annotated[Path, typer.Argument(help="model directory")],
    query: Annotated[str, typer.Argument(help="the query sentence")],
    corpus: Annotated[str, typer.Option(help="UTF-8 text, one sentence a line, to search; - reads standard input")],
    k: Annotated[int, typer.Option("-k", min=1, help="neighbours to print")] = 10,
) -> None:
    """The k sentences of a file nearest to a query, by cosine similarity of the model's embeddings."""
    from sentemb.inference.files import read_lines
    from sentemb.inference.neighbours import nearest_sentences

    for cos, line, sentence in nearest_sentences(_load(model), query, read_lines(corpus), k, model_name=model):
        typer.echo(f"{cos:.4f}\t{line}\t{sentence}")


@app.command("nearest-words", epilog="Example: sentemb nearest-words models/word2vec-cbow king -k 5")
@one_line_errors
def nearest_words(
    model: Annotated[Path, typer.Argument(help="model directory of a model with word vectors")],
    word: Annotated[str, typer.Argument(help="a word of the model's vocabulary (as its tokeniser writes it)")],
    k: Annotated[int, typer.Option("-k", min=1, help="neighbours to print")] = 10,
) -> None:
    """The k words nearest to a word, by cosine similarity of the model's word vectors (gensim most_similar)."""
    from sentemb.inference.neighbours import nearest_words as nearest

    for cos, other in nearest(_load(model), word, k, model_name=model):
        typer.echo(f"{cos:.4f}\t{other}")


class ExportFormat(StrEnum):
    word2vec = "word2vec"
    sentence_transformers = "sentence-transformers"
    model2vec = "model2vec"


@app.command(epilog="Examples: sentemb export models/glove-nws glove-nws.txt\n\n"
                    "sentemb export --format sentence-transformers models/para-gran st-para-gran\n\n"
                    "sentemb export --format model2vec models/para-gran-static m2v-para-gran")
@one_line_errors
def export(
    model: Annotated[Path, typer.Argument(help="model directory")],
    output: Annotated[Path, typer.Argument(help="the word2vec file, or the directory, to write")],
    format: Annotated[ExportFormat, typer.Option(
        help="word2vec: the model's word vectors (weighted models: the weights baked in); sentence-transformers: the "
             "whole model, loadable with SentenceTransformer(DIR, trust_remote_code=True), with a model card; "
             "model2vec: a word average as model2vec's StaticModel (a tokenizers imitation of the tokenisation), "
             "loadable without sentemb (both need the optional extra st of the set-up)")] = ExportFormat.word2vec,
    binary: Annotated[bool, typer.Option(help="word2vec: the binary format instead of text")] = False,
    metrics: Annotated[Path | None, typer.Option(
        help="sentence-transformers, model2vec: the scores for the model card (default: metrics/models/NAME.json "
             "beside the model's folder)")] = None,
) -> None:
    """Export a model: its word vectors in the word2vec format, the whole model for sentence-transformers, or a word
    average in model2vec's layout."""
    if format is not ExportFormat.word2vec:
        try:  # the extra's packages are imported here and, some of them, inside the export
            if format is ExportFormat.sentence_transformers:
                from sentemb.interop.sentence_transformers import export_sentence_transformers as export_to
            else:
                from sentemb.interop.model2vec import export_model2vec as export_to
            written = export_to(model, output, metrics)
        except ModuleNotFoundError as e:
            if (e.name or "").split(".")[0] not in ST_EXTRA:
                raise
            raise SentembError(f"--format {format.value} needs {e.name}: pip install -e '.[st]'") from None
        typer.echo(f"{output}: {written}")
        return
    from sentemb.inference.export import export_word2vec

    typer.echo(f"{output}: {export_word2vec(_load(model), output, binary, model_name=model)}")


@app.command(epilog="Examples: sentemb evaluate models/glove-nws --benchmark STS16 --benchmark SICK-R\n\n"
                    "sentemb evaluate models/para-gran --pairs my_pairs.tsv --scale 0 5")
@one_line_errors
def evaluate(
    model: Annotated[Path, typer.Argument(help="model directory")],
    data: Annotated[
        Path, typer.Option(help="directory with sts/, sick/, stsbenchmark/, pit2015/ (the download stage's data/raw)")
    ] = Path("data/raw"),
    benchmark: Annotated[
        list[str] | None, typer.Option(help="STS12 … STS16, SICK-R, STS-B, PIT-2015 (repeatable; default all)")
    ] = None,
    pairs: Annotated[Path | None, typer.Option(
        help="your own pairs instead: UTF-8 lines sentence1<TAB>sentence2<TAB>gold, an optional header line")] = None,
    scale: Annotated[tuple[float, float] | None, typer.Option(
        help="the gold scale of --pairs, LOW HIGH (every score is checked against it; default: the scores' range)")
    ] = None,
) -> None:
    """Score a model on STS benchmarks, or on your own scored pairs, and print Pearson/Spearman ×100 per dataset."""
    from sentemb.core.data.benchmarks import BENCHMARKS, load_benchmarks, read_pairs_tsv
    from sentemb.core.evaluation.sts import evaluate as run_eval

    if pairs is not None and benchmark:
        raise SentembError("--pairs and --benchmark: give one or the other")
    if scale is not None and pairs is None:
        raise SentembError("--scale applies to --pairs")
    unknown = [b for b in benchmark or [] if b not in BENCHMARKS]
    if unknown:
        raise SentembError(f"--benchmark: unknown benchmark {unknown[0]!r} (expected one of {', '.join(BENCHMARKS)})")
    datasets = [read_pairs_tsv(pairs, scale)] if pairs is not None else load_benchmarks(data, benchmark or BENCHMARKS)
    if pairs is not None:
        gold = datasets[0].gold
        low, high = scale or (gold.min(), gold.max())
        typer.echo(f"{pairs}: {len(gold)} pairs, gold scale [{low:g}, {high:g}] "
                   f"({'--scale' if scale else 'the range of the scores; --scale LOW HIGH to check against yours'})",
                   err=True)
    ev = run_eval(_load(model), datasets)
    typer.echo(ev.datasets.to_string(index=False, float_format=lambda v: f"{v:.2f}"))


def main() -> None:
    """The ``sentemb`` entry point: the commands above, with Ctrl-C and SIGTERM as one line each."""

    def run() -> None:
        try:
            status = app(standalone_mode=False)  # click returns the status of typer.Exit in this mode
        except ABORTS:  # click's form of Ctrl-C
            raise KeyboardInterrupt from None
        except USAGE_ERRORS as e:  # a usage error
            e.show()
            raise SystemExit(e.exit_code) from None
        if isinstance(status, int) and status:
            raise SystemExit(status)

    exit_on_error(run)


if __name__ == "__main__":
    main()
