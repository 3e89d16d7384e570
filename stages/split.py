"""split: corpus shards → data/sentences/: tokenised sentences, one a line, a blank line after each document.

The corpus is ``split.corpus``: the download stage's ``data/raw/corpus``, or a folder of your own (``.txt``,
WikiExtractor or Project Gutenberg files, or tar archives of them) outside the folders the pipeline writes, so that
no stage ever deletes it (dvc.yaml lists it as this stage's dependency).
"""

import os
from pathlib import Path

from _common import OUTPUTS, params, run

from sentemb.core.data.config import SentenceSplitConfig
from sentemb.core.data.documents import corpus_files, split_corpus
from sentemb.core.errors import SentembError
from sentemb.core.text.config import TextConfig

DOWNLOADED = "data/raw/corpus"


def main() -> None:
    text, config = params("text", TextConfig), params("split", SentenceSplitConfig)
    inside = Path(os.path.relpath(Path(config.corpus).resolve(), Path.cwd().resolve())).parts
    if config.corpus.rstrip("/") != DOWNLOADED and inside and inside[0] in OUTPUTS:
        raise SentembError(f"params.yaml: split.corpus: {config.corpus} is inside {inside[0]}/, which the pipeline "
                           f"writes and may delete; put your corpus outside {', '.join(d + '/' for d in OUTPUTS)}")
    stats = split_corpus(corpus_files(config.corpus), text, config, "data/sentences")
    print(f"split: {stats['documents']} documents, {stats['sentences']} sentences, {stats['tokens']} tokens")


if __name__ == "__main__":
    run(main)
