"""The one exception type the library raises for bad input, and helpers that name the file and line."""

from __future__ import annotations

from pathlib import Path


class SentembError(Exception):
    """Bad input: a missing or malformed file, an empty corpus, an unknown name or a bad parameter.

    The message always names the file (and line, where there is one) or the key, and what was expected.
    The CLI and the DVC stages print it as one line, without a traceback.
    """


def where(path: str | Path, line: int | None = None) -> str:
    """``"path"`` or ``"path:line"`` (1-based line numbers), for error messages."""
    return f"{path}:{line}" if line is not None else str(path)


def require_file(path: str | Path, what: str) -> Path:
    """Return ``path`` as a Path if it is an existing file.

    Raises:
        SentembError: naming ``path`` and ``what`` it should have held.
    """
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing file (expected {what})")
    return p
