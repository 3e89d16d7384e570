"""Document readers: Project Gutenberg books, WikiExtractor files and plain text, from files or tar archives.

A *document* is a title plus its paragraphs in reading order. :func:`split_corpus` turns documents into tokenised
sentences, one a line (the split stage; :mod:`sentemb.core.data.corpus` holds what comes after).
"""

from __future__ import annotations

import os
import re
import signal
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

from gutenbergpy.textget import strip_headers
from tqdm import tqdm

from sentemb.core.atomic import atomic_open, write_json
from sentemb.core.data.config import SentenceSplitConfig
from sentemb.core.errors import SentembError
from sentemb.core.text.config import TextConfig
from sentemb.core.text.tokenization import split_sentences, tokenize

_DOC_OPEN = re.compile(r"^<doc\s[^>]*>\s*$")
_DOC_TITLE = re.compile(r'\stitle="([^"]*)"')
_BLANK_LINES = re.compile(r"\n[ \t\r\f\v]*\n")
_GUTENBERG_START = re.compile(r"^\*\*\* ?START OF (THIS|THE) PROJECT GUTENBERG", re.M)
# The end marker of the current layout, "*** END OF THE PROJECT GUTENBERG EBOOK TITLE ***", which gutenbergpy's
# marker list misses (it has "*** END OF THE PROJECT GUTENBERG EBOOK" without the space some files put after ***).
_GUTENBERG_END = re.compile(r"^\*\*\* ?END OF (THIS|THE) PROJECT GUTENBERG", re.M | re.I)


@dataclass
class Document:
    """One document: where it came from, its title, and its paragraphs (each one string, line breaks joined)."""

    source: str
    title: str
    paragraphs: list[str]


def paragraphs_from_wrapped(text: str) -> list[str]:
    """Split hard-wrapped text into paragraphs at blank lines and rejoin each paragraph's lines with spaces."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    paras = (" ".join(p.split()) for p in _BLANK_LINES.split(text))
    return [p for p in paras if p]


def read_gutenberg(text: str, source: str) -> Document:
    """A Project Gutenberg e-book: licence header and footer stripped (``gutenbergpy.textget.strip_headers``,
    the marker list of the ``gutenberg`` package; the text is first cut at the ``*** END OF THE PROJECT GUTENBERG``
    line, which that list misses in the current layout), hard-wrapped lines rejoined into paragraphs.

    Raises:
        SentembError: when nothing is left after stripping (naming ``source``).
    """
    end = _GUTENBERG_END.search(text)
    body = strip_headers((text[: end.start()] if end else text).encode("utf-8")).decode("utf-8")
    paragraphs = paragraphs_from_wrapped(body)
    if not paragraphs:
        raise SentembError(f"{source}: no text left after stripping the Project Gutenberg header and footer")
    title = next((ln[len("Title:"):].strip() for ln in text.splitlines()[:60] if ln.startswith("Title:")), source)
    return Document(source=source, title=title, paragraphs=paragraphs)


def read_wikiextractor(text: str, source: str) -> list[Document]:
    """WikiExtractor output: ``<doc id=.. url=.. title=..>``, a title line, one paragraph per line, ``</doc>``.

    The title line is dropped (it is not running text); every other non-empty line is a paragraph.

    Raises:
        SentembError: on an unclosed or nested ``<doc>`` block, naming ``source`` and the line.
    """
    docs: list[Document] = []
    current: Document | None = None
    first_line = False
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.startswith("<doc "):
            m = _DOC_OPEN.match(line)
            if m is None or current is not None:
                raise SentembError(f"{source}:{lineno}: malformed or nested <doc> tag (WikiExtractor format expected)")
            title = _DOC_TITLE.search(line)
            current = Document(source=source, title=title.group(1) if title else "", paragraphs=[])
            first_line = True
        elif line.startswith("</doc>"):
            if current is None:
                raise SentembError(f"{source}:{lineno}: </doc> without an opening <doc> tag")
            docs.append(current)
            current = None
        elif current is not None:
            line = line.strip()
            if first_line and line:
                first_line = False
                if line == current.title or not current.title:
                    continue
            if line:
                current.paragraphs.append(line)
        elif line.strip():
            raise SentembError(f"{source}:{lineno}: text outside a <doc> block (WikiExtractor format expected)")
    if current is not None:
        raise SentembError(f"{source}: <doc> block opened but never closed with </doc>")
    return [d for d in docs if d.paragraphs]


def detect_format(text: str) -> str:
    """``"wikiextractor"``, ``"gutenberg"`` or ``"plain"``, from the text itself."""
    head = text.lstrip()[:200]
    if head.startswith("<doc "):
        return "wikiextractor"
    if _GUTENBERG_START.search(text[:50_000]):
        return "gutenberg"
    return "plain"


def documents_from_text(text: str, source: str) -> list[Document]:
    """The documents in one file's text, format detected by :func:`detect_format` (plain text: one document)."""
    fmt = detect_format(text)
    if fmt == "wikiextractor":
        return read_wikiextractor(text, source)
    if fmt == "gutenberg":
        return [read_gutenberg(text, source)]
    paragraphs = paragraphs_from_wrapped(text)
    return [Document(source=source, title=Path(source).stem, paragraphs=paragraphs)] if paragraphs else []


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark is no text
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise SentembError(f"{source}:{line}: not UTF-8 text ({e.reason}); convert it first, e.g. "
                           "`iconv -f latin1 -t utf-8`") from None


def iter_documents(path: str | Path, max_documents: int | None = None) -> Iterator[Document]:
    """Documents of a corpus shard, in order.

    Args:
        path: a ``.tar``/``.tar.gz``/``.tar.xz`` archive (members in archive order), a directory (``*.txt`` and
            WikiExtractor ``wiki_*`` files, sorted by name) or a single text file.
        max_documents: stop after this many documents (``None``: all).

    Raises:
        SentembError: missing path, unreadable archive, non-UTF-8 member or malformed WikiExtractor block.
    """
    p = Path(path)
    if not p.exists():
        raise SentembError(f"{p}: missing corpus shard")
    count = 0
    for source, data in _iter_files(p):
        for doc in documents_from_text(_decode(data, source), source):
            yield doc
            count += 1
            if max_documents is not None and count >= max_documents:
                return


def _iter_files(p: Path) -> Iterator[tuple[str, bytes]]:
    if p.is_dir():
        for f in sorted(x for x in p.rglob("*") if x.is_file() and (x.suffix == ".txt" or x.name.startswith("wiki_"))):
            yield str(f), f.read_bytes()
        return
    if ".tar" in "".join(p.suffixes):
        try:
            with tarfile.open(p, "r:*") as tf:
                for m in tf:
                    if m.isfile():
                        fh = tf.extractfile(m)
                        assert fh is not None
                        yield f"{p.name}:{m.name}", fh.read()
        except (tarfile.TarError, EOFError, OSError) as e:
            raise SentembError(f"{p}: unreadable tar archive ({e})") from None
        return
    yield str(p), p.read_bytes()


def corpus_files(corpus: str | Path) -> list[Path]:
    """The files of a corpus folder and its sub-folders, sorted (PROVENANCE and index files, ``*.md``/``*.tsv``, left
    out); a symbolically linked folder or file is read as if it were there (a folder linked twice, once).

    Raises:
        SentembError: the folder is missing or holds no file.
    """
    root = Path(corpus)
    if not root.is_dir():
        raise SentembError(f"{root}: missing corpus folder (the download stage's data/raw/corpus, or a folder of .txt, "
                           "WikiExtractor or Project Gutenberg files)")
    found, seen = [], set()
    for folder, dirs, files in os.walk(root, followlinks=True):  # linked folders are read as the others
        real = os.path.realpath(folder)
        if real in seen:  # a link back to a folder already read: once is enough
            dirs[:] = []
            continue
        seen.add(real)
        found += [Path(folder) / f for f in files if not f.endswith((".tsv", ".md")) and (Path(folder) / f).is_file()]
    found.sort()
    if not found:
        raise SentembError(f"{root}: no corpus file (params download.corpus for the mirror's shards, or split.corpus "
                           "for a folder of your own)")
    return found


_text: TextConfig | None = None


def _init_worker(text: dict) -> None:
    global _text
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: no traceback from a worker
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool's terminate() ends a worker quietly
    _text = TextConfig(**text)


def _sentences(doc: Document) -> tuple[str, str, list[str]]:
    assert _text is not None
    sentences = [" ".join(tokens) for para in doc.paragraphs for s in split_sentences(para)
                 if (tokens := tokenize(s, _text))]
    return doc.source, doc.title, sentences


def split_corpus(files: list[Path], text: TextConfig, config: SentenceSplitConfig, out_dir: str | Path) -> dict:
    """Documents → tokenised sentences: ``OUT/sentences.txt`` (one sentence a line, a blank line after each document),
    ``OUT/documents.tsv`` (document, source, title, sentences, tokens) and ``OUT/stats.json`` (counts per shard and
    the ``text`` settings), each written atomically.

    Sentences are split by BlingFire and tokenised by NLTK (:mod:`sentemb.core.text`) in ``config.jobs`` worker
    processes, in document order; a document with no sentence is skipped.

    Returns:
        The statistics written to ``stats.json``.

    Raises:
        SentembError: a file that cannot be read, or no sentence at all.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stats: dict = {"documents": 0, "sentences": 0, "tokens": 0, "shards": {}}
    documents = (doc for f in files for doc in iter_documents(f, config.max_documents))
    with (
        atomic_open(out / "sentences.txt") as sentences_out,
        atomic_open(out / "documents.tsv") as docs,
        Pool(config.jobs, initializer=_init_worker, initargs=(text.to_dict(),)) as pool,
    ):
        docs.write("document\tsource\ttitle\tsentences\ttokens\n")
        bar = tqdm(desc="split", unit="doc", mininterval=2.0)
        for source, title, sentences in pool.imap(_sentences, documents, chunksize=2):
            bar.update()
            if not sentences:
                continue
            n_tok = sum(s.count(" ") + 1 for s in sentences)
            sentences_out.write("\n".join(sentences))
            sentences_out.write("\n\n")
            shard = source.split(":")[0]
            st = stats["shards"].setdefault(shard, {"documents": 0, "sentences": 0, "tokens": 0})
            for d in (stats, st):
                d["documents"] += 1
                d["sentences"] += len(sentences)
                d["tokens"] += n_tok
            docs.write(f"{stats['documents'] - 1}\t{source}\t{' '.join(title.split())}\t{len(sentences)}\t{n_tok}\n")
        bar.close()
        if stats["sentences"] == 0:
            raise SentembError(f"empty corpus: no sentence in {', '.join(map(str, files))}")
    stats["text"] = text.to_dict()
    write_json(out / "stats.json", stats)
    return stats
