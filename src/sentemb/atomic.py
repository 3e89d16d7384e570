"""Atomic output: write to a temporary sibling, then rename, so an interrupted stage leaves no half-written file."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from sentemb.errors import SentembError


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it to ``path``, on error remove it.

    Works for files and directories (a directory target is replaced whole).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    shutil.rmtree(tmp)
    try:
        yield tmp
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        os.replace(tmp, target)
    except BaseException:
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        elif tmp.exists():
            tmp.unlink()
        raise


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w", **kwargs: Any) -> Iterator[IO]:
    """``open()`` a temporary sibling of ``path`` and rename it onto ``path`` when the block ends without error."""
    encoding = {"encoding": "utf-8"} if "b" not in mode else {}
    with atomic_path(path) as tmp, open(tmp, mode, **encoding | kwargs) as fh:
        yield fh


def read_json(path: str | Path, missing: str) -> Any:
    """The JSON value in ``path``.

    Args:
        missing: what the error for a missing file says after the path (e.g. how to make the file).

    Raises:
        SentembError: a missing file, or malformed JSON (naming the file and line).
    """
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: {missing}")
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise SentembError(f"{p}:{e.lineno}: malformed JSON ({e.msg})") from None


def write_json(path: str | Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON (keys in insertion order), atomically."""
    with atomic_open(path) as fh:
        json.dump(obj, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
