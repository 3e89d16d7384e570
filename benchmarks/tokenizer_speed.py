"""The corpus's Treebank tokens two ways in one run: NLTK's ``NLTKWordTokenizer`` over each whole sentence (the
reference) and :func:`sentemb.core.text.treebank.treebank_tokens` (NLTK on the stretches with punctuation, remembered),
over the same sentences, alternating in blocks: tokens per second of each, their ratio, and every sentence where the
tokens differ (there should be none).

Usage:
    python benchmarks/tokenizer_speed.py ../shared/data/corpus/gutenberg/gutenberg-01.tar.xz ... [--max-documents N]

The sentences are the split stage's: each document's paragraphs split by BlingFire, normalised and lower-cased as
params.yaml's ``text`` does (the splitting is not timed). Measures; exits 1 if any sentence differs.
"""

import argparse
import sys
import time
from pathlib import Path

from sentemb.core import treebank
from sentemb.core.data.documents import iter_documents
from sentemb.core.text.tokenization import normalize, split_sentences


def sentence_blocks(files: list[Path], max_documents: int | None, block: int):
    sentences: list[str] = []
    for path in files:
        for doc in iter_documents(path, max_documents):
            for para in doc.paragraphs:
                for s in split_sentences(para):
                    text = normalize(s).lower()
                    if text:
                        sentences.append(text)
            if len(sentences) >= block:
                yield sentences
                sentences = []
    if sentences:
        yield sentences


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+", type=Path, help="corpus shards (tar archives, folders or text files)")
    ap.add_argument("--max-documents", type=int, default=None, help="per shard (default: all)")
    ap.add_argument("--block", type=int, default=20_000, help="sentences timed a side at a time")
    args = ap.parse_args()
    reference = treebank.nltk_treebank()
    seconds = {"nltk": 0.0, "sentemb": 0.0}
    sentences = tokens = differ = 0
    for k, block in enumerate(sentence_blocks(args.files, args.max_documents, args.block)):
        results = {}
        sides = ("nltk", "sentemb") if k % 2 == 0 else ("sentemb", "nltk")  # alternate who goes first
        for side in sides:
            t0 = time.perf_counter()
            if side == "nltk":
                results[side] = [[t for tok in reference.tokenize(s) for t in tok.split()] for s in block]
            else:
                results[side] = [treebank.treebank_tokens(s) for s in block]
            seconds[side] += time.perf_counter() - t0
        for s, a, b in zip(block, results["nltk"], results["sentemb"], strict=True):
            if a != b:
                differ += 1
                if differ <= 10:
                    print(f"differs: {s!r}\n  nltk:    {a}\n  sentemb: {b}")
        sentences += len(block)
        tokens += sum(map(len, results["nltk"]))
        print(f"{sentences:,} sentences, {tokens:,} tokens: nltk {tokens / seconds['nltk']:,.0f} tokens/s, sentemb "
              f"{tokens / seconds['sentemb']:,.0f} tokens/s ({seconds['nltk'] / seconds['sentemb']:.2f}×), "
              f"{differ} sentences differ", flush=True)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
