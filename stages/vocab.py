"""vocab: sentences → data/vocab.tsv (word, count; min_count applied) and data/corpus/ (memory-mapped token ids)."""

import json
from pathlib import Path

import numpy as np
from pydantic import PositiveInt
from tqdm import tqdm

from sentemb.atomic import atomic_path, write_json
from sentemb.data.encoding import encode_sentence_file
from sentemb.data.vocab import Vocabulary

from _common import Section, params, run


class Vocab(Section):
    min_count: PositiveInt = 5
    max_size: PositiveInt | None = None

SENTENCES = Path("data/sentences")


def main() -> None:
    p = params("vocab", Vocab)
    sentence_file = SENTENCES / "sentences.txt"
    split_stats = json.loads((SENTENCES / "stats.json").read_text())
    lines = split_stats["sentences"] + split_stats["documents"]  # a blank line after each document
    types, every_token = encode_sentence_file(
        sentence_file, lambda fh: tqdm(fh, desc="read", unit="line", total=lines, mininterval=2.0))
    counts = dict(zip(types, np.bincount(every_token.token_ids, minlength=len(types)).tolist(), strict=True))
    vocab = Vocabulary.from_counts(counts, min_count=p.min_count, max_size=p.max_size)
    vocab.save("data/vocab.tsv")
    new_ids = np.full(len(types), -1, dtype=np.int32)  # a type's id in the file → its vocabulary id, or −1
    new_ids[[types[w] for w in vocab.words]] = np.arange(len(vocab), dtype=np.int32)
    corpus = every_token.remap(new_ids)
    n_docs = int(corpus.document_ids[-1]) + 1
    with atomic_path("data/corpus") as tmp:
        corpus.save(tmp)
    total = len(every_token.token_ids)
    write_json("metrics/corpus.json", {
        "documents": n_docs,
        "sentences": int(corpus.n_sentences),
        "tokens": int(total),
        "word_types": len(counts),
        "vocabulary": len(vocab),
        "in_vocabulary_tokens": len(corpus.token_ids),
        "token_coverage": round(len(corpus.token_ids) / total, 4),
        "sentences_without_known_word": int((corpus.lengths == 0).sum()),
        "text": split_stats["text"],
    })
    print(f"vocab: {len(vocab)} words with count >= {p.min_count} of {len(counts)} types; "
          f"{corpus.n_sentences} sentences, {len(corpus.token_ids)} of {total} tokens in vocabulary")


if __name__ == "__main__":
    run(main)
