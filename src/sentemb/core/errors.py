"""The one exception type the library raises for bad input, and how a command turns errors and signals into one line.

Every entry point (the DVC stage scripts through ``stages/_common.py``, the ``sentemb`` command) runs under
:func:`exit_on_error`: a :class:`SentembError` prints ``error: …`` and exits 1; Ctrl-C (SIGINT) prints
``interrupted`` and exits 130; SIGTERM prints ``terminated`` and exits 143. No traceback in any of these cases, and
the atomic writes (:mod:`sentemb.core.atomic`) remove their temporaries on the way out, so an interrupted run leaves
its outputs as a kill would: old or absent, never half-written.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn


class SentembError(Exception):
    """Bad input: a missing or malformed file, an empty corpus, an unknown name or a bad parameter.

    The message always names the file (and line, where there is one) or the key, and what was expected.
    The CLI and the DVC stages print it as one line, without a traceback.
    """


class Terminated(BaseException):
    """Raised in the main thread when the process receives SIGTERM (:func:`exit_on_error`): a ``BaseException``, as
    ``KeyboardInterrupt`` is, so that only the clean-up code (``finally``, ``except BaseException``) sees it."""


def where(path: str | Path, line: int | None = None) -> str:
    """``"path"`` or ``"path:line"`` (1-based line numbers), for error messages."""
    return f"{path}:{line}" if line is not None else str(path)


def _terminate(signum, frame) -> NoReturn:
    raise Terminated()


def _clear_progress_bars() -> None:
    """Erase the tqdm progress bars still on the terminal, so that the message is a line of its own (and no bar is
    redrawn after it)."""
    tqdm = sys.modules.get("tqdm")
    for bar in list(getattr(getattr(tqdm, "tqdm", None), "_instances", ())):
        bar.leave = False
        bar.close()


def _fail(message: str, status: int) -> NoReturn:
    _clear_progress_bars()
    print(message, file=sys.stderr, flush=True)
    sys.exit(status)


def exit_on_error(call: Callable[[], object]) -> None:
    """Run ``call()``, turning bad input and signals into one line on stderr and an exit status.

    - :class:`SentembError` → ``error: MESSAGE``, exit 1;
    - SIGINT (``KeyboardInterrupt``) → ``interrupted``, exit 130 (128 + 2, the shell's convention);
    - SIGTERM → ``terminated``, exit 143 (128 + 15).

    Raises:
        SystemExit: in the three cases above; anything else ``call`` raises propagates (a bug: its traceback is
            what a report needs).
    """
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if main_thread else None
    try:
        call()
    except SentembError as e:
        _fail(f"error: {e}", 1)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except Terminated:
        _fail("terminated", 143)
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
