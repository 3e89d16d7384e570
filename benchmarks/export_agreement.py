"""How exactly the sentence-transformers export and the MTEB wrapper reproduce sentemb's own numbers.

Usage (after `dvc repro`, with the extra installed: pip install -e ".[st]"):
    python benchmarks/export_agreement.py OUT glove glove-nws para-gran [--mteb glove para-gran] [--raw data/raw]
    python benchmarks/export_agreement.py OUT --model2vec para-gran-static glove

For each model named: ``sentemb export --format sentence-transformers`` into OUT/NAME, then every distinct sentence
of STS 2012-2016 embedded by ``load_model(models/NAME)`` and by ``SentenceTransformer(OUT/NAME,
trust_remote_code=True)``: the largest absolute difference, the smallest cosine between the two embeddings of a
sentence, the rows that are zero in one and not the other, and the mean Pearson of each STS year rescored from the
export beside the committed ``metrics/models/NAME.json``. The export's time and each side's encoding time (one
process, the same sentences) are printed beside.

``--mteb``: for the models named, ``mteb.evaluate`` with a task read from the local files per benchmark (STS12 …
STS16, SICK-R, STS-B test) against Spearman's ρ of our own cosines over the same pooled pairs, and the pairs where a
sentence has no known word (scored 0.5 or 1.0 by MTEB, 0 by sentemb).

``--model2vec``: for the word averages named, ``sentemb export --format model2vec`` into OUT/NAME-model2vec, loaded by
``SentenceTransformer`` without ``trust_remote_code`` (``StaticEmbedding``): how often its ``tokenizers`` imitation
splits a sentence exactly as sentemb does (every distinct sentence of the benchmarks' token cache,
``data/benchmarks/tokens.json``), the smallest cosine between the two embeddings of a sentence split alike, and the
STS means rescored from the export beside the committed ones.
"""

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy import stats
from sentence_transformers import SentenceTransformer

from sentemb.core.data.benchmarks import load_benchmarks
from sentemb.core.evaluation.cosine import cosine_scores
from sentemb.core.evaluation.sts import aggregate, evaluate
from sentemb.core.models import load_model
from sentemb.interop.sentence_transformers import export_sentence_transformers
from sentemb.papers import MEANS

YEARS = ["STS12", "STS13", "STS14", "STS15", "STS16"]


def _row_cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine between row i of ``a`` and row i of ``b`` (float64), for rows that are not zero in ``a``."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.maximum(np.linalg.norm(b, axis=1), 1e-300)


def _rescored(st: SentenceTransformer, sets, name: str) -> tuple[dict, dict]:
    """The STS means of the sentence-transformers model ``st`` on ``sets``, and the committed ones of ``name``."""

    class Exported:
        def encode(self, s):
            return st.encode(s, batch_size=512, convert_to_numpy=True)

    committed = json.loads((Path("metrics/models") / f"{name}.json").read_text())
    return aggregate(evaluate(Exported(), sets), MEANS), committed


def agreement(name: str, out: Path, raw: Path) -> None:
    t = time.perf_counter()
    export_sentence_transformers(Path("models") / name, out / name)
    t_export = time.perf_counter() - t
    sets = load_benchmarks(raw, YEARS)
    sentences = sorted({s for d in sets for s in [*d.sentences1, *d.sentences2]})
    model = load_model(Path("models") / name)
    st = SentenceTransformer(str(out / name), device="cpu", trust_remote_code=True)
    t = time.perf_counter()
    ours = model.encode(sentences)
    t_ours = time.perf_counter() - t
    t = time.perf_counter()
    theirs = st.encode(sentences, batch_size=512, convert_to_numpy=True)
    t_theirs = time.perf_counter() - t
    za, zb = ~ours.any(axis=1), ~theirs.any(axis=1)
    cos = _row_cosines(ours[~za], theirs[~za])
    rescored, committed = _rescored(st, sets, name)
    same = all(rescored[y]["pearson"] == committed[y]["pearson"] for y in YEARS)
    modules = " + ".join(type(m).__name__ for m in st)
    differing = int((za != zb).sum())
    print(f"| {name} | {modules} | {len(sentences):,} | {np.abs(ours - theirs).max():.1e} | {cos.min():.7f} | "
          f"{differing} | "
          f"{'yes' if same else 'NO'} ({rescored['STS12']['pearson']:.2f} … {rescored['STS16']['pearson']:.2f}) | "
          f"{t_export:.1f} | {t_ours:.1f} / {t_theirs:.1f} |", flush=True)


def agreement_model2vec(name: str, out: Path, raw: Path) -> None:
    from sentemb.core.text.tokenization import tokenize
    from sentemb.interop.model2vec import export_model2vec, imitated_tokens, treebank_tokenizer

    export_model2vec(Path("models") / name, out / f"{name}-model2vec")
    model = load_model(Path("models") / name)
    st = SentenceTransformer(str(out / f"{name}-model2vec"), device="cpu")
    imitation = treebank_tokenizer([], model.text)
    cache = json.loads(Path("data/benchmarks/tokens.json").read_text())["tokens"]
    alike = [s for s in cache if imitated_tokens(imitation, s) == tokenize(s, model.text)]
    sets = load_benchmarks(raw, YEARS)
    sentences = sorted({s for d in sets for s in [*d.sentences1, *d.sentences2]} & set(alike))
    ours, theirs = model.encode(sentences), st.encode(sentences, batch_size=512, convert_to_numpy=True)
    known = ours.any(axis=1)
    cos = _row_cosines(ours[known], theirs[known])
    rescored, committed = _rescored(st, sets, name)
    print(f"| {name} | {len(alike):,} / {len(cache):,} ({len(alike) / len(cache):.2%}) | {cos.min():.7f} | "
          f"{rescored['STS12-15']['pearson']:.2f} / {committed['STS12-15']['pearson']:.2f} | "
          f"{max(abs(rescored[y]['pearson'] - committed[y]['pearson']) for y in YEARS):.2f} |", flush=True)


def mteb_scores(name: str, raw: Path) -> None:
    import mteb

    from sentemb.interop.mteb import SentembEncoder, local_sts_task

    encoder = SentembEncoder(Path("models") / name)
    for benchmark in [*YEARS, "SICK-R", "STS-B"]:
        with tempfile.TemporaryDirectory() as cache:
            result = mteb.evaluate(encoder, tasks=[local_sts_task(raw, benchmark)], cache=mteb.ResultCache(cache),
                                   show_progress_bar=False)
        sets = [d for d in load_benchmarks(raw, [benchmark]) if benchmark != "STS-B" or d.name == "test"]
        e1 = encoder.model.encode([s for d in sets for s in d.sentences1])
        e2 = encoder.model.encode([s for d in sets for s in d.sentences2])
        ours, undefined = cosine_scores(e1, e2)
        rho = stats.spearmanr(ours, np.concatenate([d.gold for d in sets])).statistic
        main = result.task_results[0].get_score()
        print(f"| {name} | {benchmark} | {main * 100:.4f} | {rho * 100:.4f} | {abs(main - rho) * 100:.4f} | "
              f"{int(undefined.sum())} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder for the exported models")
    parser.add_argument("models", nargs="*", help="model names under models/")
    parser.add_argument("--mteb", nargs="*", default=[], help="models to score under MTEB")
    parser.add_argument("--model2vec", nargs="*", default=[], help="word averages to export as model2vec")
    parser.add_argument("--raw", type=Path, default=Path("data/raw"))
    args = parser.parse_args()
    if args.models:
        print("| model | modules | sentences | max abs diff | min cosine | zero rows differing | STS means equal "
              "(STS12 … STS16) | export s | encode s (sentemb / sentence-transformers) |")
        print("|---|---|---:|---:|---:|---:|---|---:|---:|")
        for name in args.models:
            agreement(name, args.out, args.raw)
    if args.model2vec:
        print("| model | sentences split alike | min cosine (split alike) | STS12-15 export / committed | largest "
              "gap of a year's mean |\n|---|---:|---:|---:|---:|")
        for name in args.model2vec:
            agreement_model2vec(name, args.out, args.raw)
    if args.mteb:
        print("\n| model | task | MTEB main score | ours: pooled cosine Spearman | difference | pairs with no known "
              "word |\n|---|---|---:|---:|---:|---:|")
        for name in args.mteb:
            mteb_scores(name, args.raw)


if __name__ == "__main__":
    main()
