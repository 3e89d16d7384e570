"""The data sources: where each file lives in the local mirror, its official download URL and its sha256.

The catalogue (``sources.tsv`` beside this module) was generated from the PROVENANCE files of the staged data.
:func:`fetch` takes a file from the mirror when it is there and from the official URL otherwise, verifies the
sha256 and writes it atomically, so that a checksum mismatch or an interrupted download leaves no file behind.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import tarfile
import urllib.request
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sentemb.core.atomic import atomic_path
from sentemb.core.errors import SentembError

CATALOGUE = Path(__file__).with_name("sources.tsv")


@dataclass(frozen=True)
class SourceFile:
    """One file of a source: ``path`` relative to the mirror and to the output directory."""

    source: str
    path: str
    sha256: str
    bytes: int
    url: str
    member: str


@lru_cache(maxsize=1)
def catalogue() -> dict[str, tuple[SourceFile, ...]]:
    """Source name → its files, in catalogue order."""
    out: dict[str, list[SourceFile]] = {}
    for line in CATALOGUE.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        src, path, sha, size, url, member = line.split("\t")
        out.setdefault(src, []).append(SourceFile(src, path, sha, int(size), url, member))
    return {k: tuple(v) for k, v in out.items()}


def source_files(name: str) -> tuple[SourceFile, ...]:
    """The files of one source.

    Raises:
        SentembError: an unknown source name (the message lists the known ones).
    """
    cat = catalogue()
    if name not in cat:
        raise SentembError(f"unknown source {name!r}; known sources: {', '.join(sorted(cat))}")
    return cat[name]


def sha256_of(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@lru_cache(maxsize=8)
def _download(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.read()
    except OSError as e:
        raise SentembError(f"{url}: download failed ({e})") from None


def _member(archive: bytes, name: str, url: str) -> bytes:
    """The archive member whose base name is ``name`` (zip or tar, any compression)."""
    if zipfile.is_zipfile(io.BytesIO(archive)):
        with zipfile.ZipFile(io.BytesIO(archive)) as zf:
            for info in zf.infolist():
                if Path(info.filename).name == name:
                    return zf.read(info)
    else:
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:*") as tf:
            for m in tf:
                if m.isfile() and Path(m.name).name == name:
                    fh = tf.extractfile(m)
                    assert fh is not None
                    return fh.read()
    raise SentembError(f"{url}: archive has no member named {name!r}")


def fetch(file: SourceFile, mirror: str | Path | None, out_dir: str | Path, use_network: bool = True) -> Path:
    """Put one source file at ``out_dir/file.path``, from the mirror or else the official URL, sha256-checked.

    Args:
        file: the catalogue entry.
        mirror: local mirror directory laid out like the official data (``None``: none).
        out_dir: destination root (the DVC stage uses ``data/raw``).
        use_network: try the official URL when the mirror lacks the file.

    Returns:
        The written path.

    Raises:
        SentembError: the file is in neither place, the download failed, or the sha256 does not match (the
            message names the file, the expected and the actual digest). No partial file is left.
    """
    dest = Path(out_dir) / file.path
    local = Path(mirror) / file.path if mirror is not None else None
    with atomic_path(dest) as tmp:
        if local is not None and local.is_file():
            shutil.copyfile(local, tmp)
            origin = str(local)
        elif use_network and file.url:
            data = _download(file.url)
            tmp.write_bytes(_member(data, file.member, file.url) if file.member else data)
            origin = file.url
        else:
            why = "no official URL serves this file (see the data PROVENANCE)" if not file.url else "network disabled"
            where = f"is missing from the mirror {mirror}" if mirror is not None else "is in no mirror (none is set)"
            raise SentembError(f"source {file.source}: {file.path} {where} and {why}")
        digest = sha256_of(tmp)
        if digest != file.sha256:
            raise SentembError(
                f"{origin}: sha256 mismatch for {file.path}: expected {file.sha256}, got {digest}"
            )
    return dest


def fetch_sources(
    names: list[str], mirror: str | Path | None, out_dir: str | Path, use_network: bool = True
) -> list[Path]:
    """:func:`fetch` every file of every named source; unknown names fail before anything is written."""
    files = [f for n in names for f in source_files(n)]
    return [fetch(f, mirror, out_dir, use_network) for f in files]
