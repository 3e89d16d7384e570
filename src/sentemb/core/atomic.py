"""Atomic output: write to a temporary sibling, then rename, so an interrupted run leaves no half-written file.

A temporary is named ``.NAME.sentemb-tmp-PID-XXXX`` beside its target ``NAME``: hidden, matched by the repository's
``.gitignore`` and ``.dvcignore`` (never in ``git status``, never inside a DVC output's hash), and tagged with the
process that writes it. On an error, Ctrl-C or SIGTERM the writer removes it (:func:`atomic_path`). A process killed
outright (SIGKILL, power loss) cannot: its temporaries are removed by the next write of the same target and by
:func:`sweep_leftovers`, which every stage runs on start over the folders the pipeline writes; a temporary is only
removed once the process named in it has ended.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from sentemb.core.errors import SentembError

MARK = ".sentemb-tmp-"
"""What every temporary's name contains (the ignore files' pattern is ``.*.sentemb-tmp-*``)."""

_LEFTOVER = re.compile(r"^\..+" + re.escape(MARK) + r"(\d+)-")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _dead_leftovers(entries: Iterable[Path], name: str | None = None) -> Iterator[Path]:
    prefix = None if name is None else f".{name}{MARK}"
    for entry in entries:
        match = _LEFTOVER.match(entry.name)
        if match and (prefix is None or entry.name.startswith(prefix)) and not _alive(int(match[1])):
            yield entry


def sweep_leftovers(*roots: str | Path) -> list[Path]:
    """Remove the temporaries that killed writers left anywhere under ``roots`` (their process has ended).

    Returns:
        The paths removed.
    """
    removed = []
    for root in map(Path, roots):
        if not root.is_dir():
            continue
        for folder, dirs, files in os.walk(root):
            base = Path(folder)
            for path in _dead_leftovers([base / n for n in (*dirs, *files)]):
                _remove(path)
                removed.append(path)
            dirs[:] = [d for d in dirs if MARK not in d]
    return removed


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it to ``path``, on any exception (Ctrl-C and
    SIGTERM included) remove it.

    Works for files and directories (a directory target is replaced whole). Leftovers of a killed earlier writer of the
    same target are removed first.

    Raises:
        SentembError: ``path`` cannot be written (no space left, a quota or file size limit, a read-only or forbidden
            folder: :data:`WRITE_ERRORS`), naming it; nothing is left behind.
    """
    target = Path(path)
    with writing(target):
        target.parent.mkdir(parents=True, exist_ok=True)
        for leftover in _dead_leftovers(target.parent.iterdir(), target.name):
            _remove(leftover)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}{MARK}{os.getpid()}-", dir=target.parent))
        os.rmdir(tmp)  # a fresh name; the caller makes a file or a directory of it
        try:
            yield tmp
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            os.replace(tmp, target)
        except BaseException:
            if tmp.exists() or tmp.is_symlink():
                _remove(tmp)
            raise


@contextlib.contextmanager
def writing(path: str | Path) -> Iterator[None]:
    """A block that writes ``path`` (through :func:`atomic_path`, or scratch files beside it): a failure for reasons
    of the place written to (:data:`WRITE_ERRORS`) becomes one :class:`SentembError` naming ``path``.

    Raises:
        SentembError: as :func:`atomic_path`.
    """
    try:
        yield
    except OSError as e:
        if _is_write_error(e, Path(path)):
            raise SentembError(f"{path}: cannot write it: {e.strerror}") from None
        raise


WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM})
"""Why a write fails for reasons of the place written to: no space, a quota, a file size limit, a read-only or
forbidden folder."""


def _is_write_error(error: OSError, target: Path) -> bool:
    """Whether ``error`` is the failure to write ``target``: of the target itself, a folder on its way, a file beside
    it (its temporary, a scratch file) or inside its temporary folder; not one of a file the caller reads while it
    writes."""
    if error.errno not in WRITE_ERRORS:
        return False
    if error.filename is None or MARK in str(error.filename):
        return True  # a write or flush of an open file, or a file inside a temporary folder
    written = Path(os.path.abspath(target))
    failed = Path(os.path.abspath(error.filename))
    return failed == written or failed in written.parents or failed.parent == written.parent


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w", **kwargs: Any) -> Iterator[IO]:
    """``open()`` a temporary sibling of ``path`` and rename it onto ``path`` when the block ends without error."""
    encoding = {"encoding": "utf-8"} if "b" not in mode else {}
    with atomic_path(path) as tmp, open(tmp, mode, **encoding | kwargs) as fh:
        yield fh


@contextlib.contextmanager
def scratch_folder(parent: str | Path | None, name: str = "scratch") -> Iterator[Path]:
    """A fresh folder for a stage's spill files under ``parent`` (None: the system's temporary folder), removed when
    the block ends, on an error, Ctrl-C or SIGTERM too; named ``.NAME.sentemb-tmp-PID-…`` so that a folder a killed
    process left is removed by :func:`sweep_leftovers`. Put it on a disk: a RAM-backed ``/tmp`` defeats a spill."""
    if parent is not None:
        Path(parent).mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f".{name}{MARK}{os.getpid()}-", dir=parent))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


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
    except UnicodeDecodeError as e:
        raise SentembError(f"{p}: not UTF-8 text ({e.reason})") from None
    except json.JSONDecodeError as e:
        raise SentembError(f"{p}:{e.lineno}: malformed JSON ({e.msg})") from None


def write_json(path: str | Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON (keys in insertion order), atomically."""
    with atomic_open(path) as fh:
        json.dump(obj, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
