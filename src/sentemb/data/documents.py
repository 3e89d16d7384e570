"""Document readers: Project Gutenberg books, WikiExtractor files and plain text, from files or tar archives.

A *document* is a title plus its paragraphs in reading order. The split stage turns documents into tokenised
sentences (:mod:`sentemb.data.corpus` holds what comes after).
"""

from __future__ import annotations

import re
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gutenbergpy.textget import strip_headers

from sentemb.errors import SentembError

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
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SentembError(f"{source}: not UTF-8 text (byte {e.start}: {e.reason})") from None


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


