"""vocab: sentences → data/vocab.tsv (word, count; min_count applied) and data/corpus/ (memory-mapped token ids)."""

import json
from collections import Counter
from pathlib import Path

from pydantic import PositiveInt
from tqdm import tqdm

from sentemb.atomic import atomic_path, write_json
from sentemb.data.corpus import build_token_corpus, read_sentence_file
from sentemb.data.vocab import Vocabulary

from _common import Section, params, run


class Vocab(Section):
    min_count: PositiveInt = 5
    max_size: PositiveInt | None = None

SENTENCES = Path("data/sentences")


def main() -> None:
    p = params("vocab", Vocab)
    sentence_file = SENTENCES / "sentences.txt"
    counts: Counter = Counter()
    n_docs = 0
    for doc in tqdm(read_sentence_file(sentence_file), desc="count", unit="doc", mininterval=2.0):
        n_docs += 1
        for sent in doc:
            counts.update(sent)
    vocab = Vocabulary.from_counts(counts, min_count=p.min_count, max_size=p.max_size)
    vocab.save("data/vocab.tsv")
    corpus = build_token_corpus(
        tqdm(read_sentence_file(sentence_file), desc="encode", unit="doc", total=n_docs, mininterval=2.0), vocab.index
    )
    with atomic_path("data/corpus") as tmp:
        corpus.save(tmp)
    total = sum(counts.values())
    split_stats = json.loads((SENTENCES / "stats.json").read_text())
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
