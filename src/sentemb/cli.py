"""The ``sentemb`` command: compare, embed, search, export and evaluate saved models (sentemb.toolkit)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sentemb.errors import SentembError

app = typer.Typer(help="Averaging-based sentence encoders scored on the SemEval STS benchmarks.",
                  no_args_is_help=True, pretty_exceptions_enable=False)


def _fail(e: SentembError) -> None:
    typer.echo(f"error: {e}", err=True)
    raise typer.Exit(1)


@app.command(epilog="Example: sentemb similarity models/siamese_cbow \"A man plays guitar.\" \"A man sings.\"")
def similarity(
    model: Annotated[Path, typer.Argument(help="model directory, e.g. models/siamese_cbow")],
    sentence1: str,
    sentence2: str,
) -> None:
    """Cosine similarity of two sentences' embeddings (0 when either has no known word)."""
    from sentemb.evaluation.sts import cosine_scores
    from sentemb.models import load_model
    from sentemb.toolkit import refuse_per_set_component

    try:
        m = load_model(model)
    except SentembError as e:
        _fail(e)
    try:
        refuse_per_set_component(m, model, "with two sentences that component is meaningless")
    except SentembError as e:
        _fail(e)
    emb = m.encode([sentence1, sentence2])
    score, undefined = cosine_scores(emb[:1], emb[1:])
    typer.echo(f"{score[0]:.4f}" + ("  (a sentence has no word in the model's vocabulary)" if undefined[0] else ""))


def _load(model: Path):
    from sentemb.models import load_model

    try:
        return load_model(model)
    except SentembError as e:
        _fail(e)


@app.command(epilog="Example: sentemb embed models/para-gran sentences.txt -o sentences.npy")
def embed(
    model: Annotated[Path, typer.Argument(help="model directory, e.g. models/para-gran")],
    file: Annotated[str, typer.Argument(help="UTF-8 text, one sentence a line; - reads standard input")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="the .npy file (default: FILE with .npy)")
                      ] = None,
    batch_size: Annotated[int, typer.Option(min=1, help="sentences encoded at a time")] = 10_000,
) -> None:
    """Embed a file of sentences into a .npy array, float32 of shape (n, dim), streaming in batches."""
    from sentemb.toolkit import embed_lines, read_lines

    if output is None:
        if file == "-":
            _fail(SentembError("reading standard input: name the output with -o/--output"))
        output = Path(file).with_suffix(".npy")
    m = _load(model)
    try:
        n = embed_lines(m, read_lines(file), output, batch_size, model_name=model)
    except SentembError as e:
        _fail(e)
    typer.echo(f"{n} sentences → {output} ({n} × {m.dim} float32)")


@app.command(hidden=True)
def encode(
    model: Annotated[Path, typer.Argument(help="model directory")],
    output: Annotated[Path, typer.Option("--output", "-o", help=".npy file for the (n, dim) float32 embeddings")],
    input: Annotated[Path | None, typer.Option("--input", "-i", help="one sentence a line (default: stdin)")] = None,
) -> None:
    """The former name of ``embed`` (kept for scripts): sentemb encode MODEL -i FILE -o OUT."""
    embed(model, str(input) if input else "-", output)


@app.command(epilog="Example: sentemb nearest models/para-gran \"a man plays the guitar\" --corpus sentences.txt -k 5")
def nearest(
    model: Annotated[Path, typer.Argument(help="model directory")],
    query: Annotated[str, typer.Argument(help="the query sentence")],
    corpus: Annotated[str, typer.Option(help="UTF-8 text, one sentence a line, to search; - reads standard input")],
    k: Annotated[int, typer.Option("-k", min=1, help="neighbours to print")] = 10,
) -> None:
    """The k sentences of a file nearest to a query, by cosine similarity of the model's embeddings."""
    from sentemb.toolkit import nearest_sentences, read_lines

    m = _load(model)
    try:
        rows = nearest_sentences(m, query, read_lines(corpus), k, model_name=model)
    except SentembError as e:
        _fail(e)
    for cos, line, sentence in rows:
        typer.echo(f"{cos:.4f}\t{line}\t{sentence}")


@app.command("nearest-words", epilog="Example: sentemb nearest-words models/word2vec-cbow guitar -k 5")
def nearest_words(
    model: Annotated[Path, typer.Argument(help="model directory of a model with word vectors")],
    word: Annotated[str, typer.Argument(help="a word of the model's vocabulary (as its tokeniser writes it)")],
    k: Annotated[int, typer.Option("-k", min=1, help="neighbours to print")] = 10,
) -> None:
    """The k words nearest to a word, by cosine similarity of the model's word vectors (gensim most_similar)."""
    from sentemb.toolkit import word_vectors

    try:
        vectors, _ = word_vectors(_load(model), model)
        if word not in vectors.key_to_index:
            raise SentembError(f"{model}: {word!r} is not in the model's vocabulary of {len(vectors)} words")
    except SentembError as e:
        _fail(e)
    for other, cos in vectors.most_similar(word, topn=k):
        typer.echo(f"{cos:.4f}\t{other}")


@app.command(epilog="Example: sentemb export models/glove-nws glove-nws.txt")
def export(
    model: Annotated[Path, typer.Argument(help="model directory of a model with word vectors")],
    output: Annotated[Path, typer.Argument(help="the word2vec-format file to write")],
    binary: Annotated[bool, typer.Option(help="the binary word2vec format instead of text")] = False,
) -> None:
    """Write a model's word vectors in the word2vec format (weighted models: the weights baked into the vectors)."""
    from sentemb.toolkit import export_word2vec

    try:
        what = export_word2vec(_load(model), output, binary, model_name=model)
    except SentembError as e:
        _fail(e)
    typer.echo(f"{output}: {what}")


@app.command(epilog="Example: sentemb evaluate models/glove-nws --benchmark STS16 --benchmark SICK-R")
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

    unknown = [b for b in benchmark or [] if b not in BENCHMARKS]
    if unknown:
        _fail(SentembError(f"--benchmark: unknown benchmark {unknown[0]!r} (expected one of {', '.join(BENCHMARKS)})"))
    try:
        ev = run_eval(load_model(model), load_benchmarks(data, benchmark or BENCHMARKS))
    except SentembError as e:
        _fail(e)
    typer.echo(ev.datasets.to_string(index=False, float_format=lambda v: f"{v:.2f}"))


@app.command(epilog="Example: dvc exp run $(sentemb profile quick)")
def profile(
    name: Annotated[str, typer.Argument(help="a profile of profiles/ (quick) or the path of a profile file")],
    params: Annotated[Path, typer.Option(help="the params file the overrides must fit")] = Path("params.yaml"),
) -> None:
    """Print a run profile's overrides as `-S key=value` arguments for `dvc exp run`, each checked against
    params.yaml."""
    import yaml

    from sentemb.profile import apply_profile, profile_path, read_profile, set_param_args

    try:
        overrides = read_profile(name)
        if not params.is_file():
            raise SentembError(f"{params}: missing params file (run from the repository root)")
        apply_profile(yaml.safe_load(params.read_text(encoding="utf-8")) or {}, overrides,
                      where=str(profile_path(name)))
        typer.echo(" ".join(set_param_args(overrides)))
    except SentembError as e:
        _fail(e)


if __name__ == "__main__":
    app()
