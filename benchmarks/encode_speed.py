"""Encoding speed of saved models as a user sees it, and the static frontier: quality against speed.

Usage (after `dvc repro`, or the quick look's models):
    python benchmarks/encode_speed.py models/para-gran models/para-gran-static models/glove [--sentences 10000]
        [--rounds 5] [--figure docs/figures/static_frontier.svg]

Each model loaded once, then ``encode`` on the first N distinct STS 2012-2015 sentences, one call, one thread (torch
and numpy's BLAS), best of R rounds after a warm-up (:func:`sentemb.reporting.frontier.encoding_speed`), twice:

- ``raw``: the sentences as a user passes them (the model tokenises each one: NLTK's Treebank tokens,
  :mod:`sentemb.core.text.treebank`, which remembers the words it has met, as in any long stream of text);
- ``cached``: with the benchmark token cache loaded (``data/benchmarks/tokens.json``), so that every model reads the
  same tokens and the time is the encoder's alone, as the evaluation runs it.

Prints sentences/s of each, each model's STS12-15 (``metrics/models/MODEL.json``) and, for each teacher given with its
static student (``NAME`` and ``NAME-static``), the student's speed-up on raw text and cached. ``--figure`` draws the
frontier from the raw-text speeds (:func:`sentemb.reporting.frontier.frontier_figure`). Clock readings vary by run
and machine: this is why they are not pipeline outputs (docs/choices.md, Determinism). Measures, asserts nothing.
"""

import argparse
import json
from pathlib import Path

import pandas as pd

from sentemb.core.atomic import atomic_open
from sentemb.core.data.benchmarks import load_benchmarks
from sentemb.core.models import load_model
from sentemb.core.text.cache import load_token_cache
from sentemb.reporting.frontier import STUDENT, encoding_speed, frontier_figure, frontier_table, speed_sentences


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+", type=Path, help="saved model directories")
    ap.add_argument("--raw", type=Path, default=Path("data/raw"), help="the download stage's benchmark files")
    ap.add_argument("--tokens", type=Path, default=Path("data/benchmarks/tokens.json"), help="the token cache")
    ap.add_argument("--metrics", type=Path, default=Path("metrics/models"), help="each model's STS12-15")
    ap.add_argument("--sentences", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--figure", type=Path, default=None, help="write the frontier (SVG) here")
    args = ap.parse_args()
    sentences = speed_sentences(load_benchmarks(args.raw, ["STS12", "STS13", "STS14", "STS15"]), args.sentences)
    models = {directory.name: load_model(directory) for directory in args.models}
    raw = {name: encoding_speed(model, sentences, args.rounds) for name, model in models.items()}
    load_token_cache(args.tokens)  # from here on, every model reads the evaluation's tokens
    rows = []
    for name, model in models.items():
        cached = encoding_speed(model, sentences, args.rounds)
        metrics = args.metrics / f"{name}.json"
        sts = json.loads(metrics.read_text())["STS12-15"]["pearson"] if metrics.is_file() else float("nan")
        rows.append({"model": name, "STS12-15": sts, "raw": raw[name], "cached": cached})
        print(f"{name}: raw {raw[name]:,.0f} sentences/s, cached {cached:,.0f} sentences/s, STS12-15 {sts:.2f}")
    table = pd.DataFrame(rows).set_index("model")
    print(f"\n{len(sentences):,} sentences a call, best of {args.rounds}, one thread")
    for teacher in table.index:
        if teacher + STUDENT in table.index:
            t, s = table.loc[teacher], table.loc[teacher + STUDENT]
            gap = s["STS12-15"] - t["STS12-15"]
            print(f"{teacher + STUDENT} over {teacher}: {s['raw'] / t['raw']:.1f}× on raw text, "
                  f"{s['cached'] / t['cached']:.1f}× with the token cache; STS12-15 {gap:+.2f}")
    if args.figure is not None:
        speed = table.reset_index().rename(columns={"raw": "sentences_per_s"})
        with atomic_open(args.figure) as fh:
            fh.write(frontier_figure(frontier_table(speed, table["STS12-15"].dropna().to_dict())))
        print(f"figure: {args.figure}")


if __name__ == "__main__":
    main()
