"""vocab: sentences → data/vocab.tsv (word, count; ``vocab.min_count`` applied), data/corpus/ (the memory-mapped
token-id corpus) and metrics/corpus.json (its counts)."""

from _common import params, run

from sentemb.core.atomic import write_json
from sentemb.core.data.config import VocabConfig
from sentemb.core.data.encoding import build_vocabulary


def main() -> None:
    config = params("vocab", VocabConfig)
    stats = build_vocabulary("data/sentences", config, "data/vocab.tsv", "data/corpus")
    write_json("metrics/corpus.json", stats)
    print(f"vocab: {stats['vocabulary']} words with count >= {config.min_count} of {stats['word_types']} types; "
          f"{stats['sentences']} sentences, {stats['in_vocabulary_tokens']} of {stats['tokens']} tokens in vocabulary")


if __name__ == "__main__":
    run(main)
