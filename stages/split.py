"""split: corpus shards → data/sentences/: tokenised sentences, one a line, a blank line after each document.

The corpus is ``split.corpus``: the download stage's ``data/raw/corpus`` by default, or a folder of your own
(``.txt``, WikiExtractor ``wiki_*`` or Project Gutenberg files, or tar archives of them) anywhere outside the folders
the pipeline writes, so that no stage ever deletes it (dvc.yaml lists it as this stage's dependency).
"""

import os
from multiprocessing import Pool
from pathlib import Path
from typing import Literal

from pydantic import PositiveInt, field_validator
from tqdm import tqdm

from sentemb.atomic import atomic_open, write_json
from sentemb.data.documents import Document, iter_documents
from sentemb.errors import SentembError
from sentemb.text import TextConfig, split_sentences, tokenize

from _common import Section, params, run


class Text(Section):
    tokenizer: Literal["treebank", "wordpunct"] = "treebank"
    lowercase: bool = True
    strip_punctuation: bool = False


DOWNLOADED = "data/raw/corpus"
OUTPUT_DIRS = ("data", "models", "results", "metrics", "logs")  # what the pipeline writes (and may delete)


class Split(Section):
    corpus: str = DOWNLOADED
    max_documents: PositiveInt | None = None
    jobs: PositiveInt = 2

    @field_validator("corpus")
    @classmethod
    def _outside_outputs(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("empty path")
        path = Path(value)
        if path.as_posix().rstrip("/") == DOWNLOADED:
            return value
        rel = Path(os.path.relpath(path.resolve(), Path.cwd().resolve())).parts
        if rel and rel[0] in OUTPUT_DIRS:
            raise ValueError(f"{value} is inside {rel[0]}/, which the pipeline writes and may delete; put your corpus "
                             f"outside {', '.join(d + '/' for d in OUTPUT_DIRS)} (e.g. corpus/ or an absolute path)")
        return value


OUT = Path("data/sentences")
_config = TextConfig()


def _init(config: dict) -> None:
    global _config
    _config = TextConfig(**config)


def _process(doc: Document) -> tuple[str, str, list[str]]:
    sentences = []
    for para in doc.paragraphs:
        for s in split_sentences(para):
            tokens = tokenize(s, _config)
            if tokens:
                sentences.append(" ".join(tokens))
    return doc.source, doc.title, sentences


def shards(corpus: str | Path = DOWNLOADED) -> list[Path]:
    """The files of the corpus folder, sorted (PROVENANCE and index files, ``*.md``/``*.tsv``, left out).

    Raises:
        SentembError: the folder is missing or holds no file.
    """
    root = Path(corpus)
    if not root.is_dir():
        hint = ("run the download stage (params download.corpus)" if root.as_posix().rstrip("/") == DOWNLOADED
                else "params split.corpus names a folder of .txt, WikiExtractor or Project Gutenberg files")
        raise SentembError(f"{root}: missing corpus folder ({hint})")
    found = sorted(p for p in root.rglob("*") if p.is_file() and not p.name.endswith((".tsv", ".md")))
    if not found:
        raise SentembError(f"{root}: no corpus file (params download.corpus for the mirror's shards, or "
                           "split.corpus for a folder of your own)")
    return found


def _documents(paths: list[Path], max_documents: int | None):
    for p in paths:
        yield from iter_documents(p, max_documents)


def main() -> None:
    text, sp = params("text", Text), params("split", Split)
    config = TextConfig(**text.model_dump())
    paths = shards(sp.corpus)
    stats = {"documents": 0, "sentences": 0, "tokens": 0, "shards": {}}
    OUT.mkdir(parents=True, exist_ok=True)
    with (
        atomic_open(OUT / "sentences.txt") as out,
        atomic_open(OUT / "documents.tsv") as docs,
        Pool(sp.jobs, initializer=_init, initargs=(config.to_dict(),)) as pool,
    ):
        docs.write("document\tsource\ttitle\tsentences\ttokens\n")
        bar = tqdm(desc="split", unit="doc", mininterval=2.0)
        for source, title, sentences in pool.imap(_process, _documents(paths, sp.max_documents), chunksize=2):
            bar.update()
            if not sentences:
                continue
            n_tok = sum(s.count(" ") + 1 for s in sentences)
            out.write("\n".join(sentences))
            out.write("\n\n")
            shard = source.split(":")[0]
            st = stats["shards"].setdefault(shard, {"documents": 0, "sentences": 0, "tokens": 0})
            for d in (stats, st):
                d["documents"] += 1
                d["sentences"] += len(sentences)
                d["tokens"] += n_tok
            docs.write(f"{stats['documents'] - 1}\t{source}\t{' '.join(title.split())}\t{len(sentences)}\t{n_tok}\n")
            if stats["documents"] % 100 == 0:
                bar.set_postfix(sentences=stats["sentences"], refresh=False)
        bar.close()
        if stats["sentences"] == 0:
            raise SentembError(f"empty corpus: no sentence in {', '.join(map(str, paths))}")
    stats["text"] = config.to_dict()
    write_json(OUT / "stats.json", stats)
    print(f"split: {stats['documents']} documents, {stats['sentences']} sentences, {stats['tokens']} tokens")


if __name__ == "__main__":
    run(main)
