"""A worker process's lifetime tied to its parent's: when the parent dies, the worker is sent SIGTERM.

On Linux, ``prctl(PR_SET_PDEATHSIG, SIGTERM)`` (prctl(2)) asks the kernel for the signal when the thread that
started the process exits; elsewhere nothing is set and a worker outlives a killed parent until it finishes. The
worker's own SIGTERM handling (:func:`sentemb.core.errors.exit_on_error`) then prints ``terminated``, removes its
temporaries and exits 143, so that nothing is written after the parent has gone.

DVC runs a stage through ``$SHELL -c CMD`` (``/bin/sh`` where ``SHELL`` is unset). bash and zsh replace themselves by
the command, but dash (Debian's ``/bin/sh``) stays between DVC and the stage and outlives DVC; for a stage started by a
shell, a watcher thread therefore also follows the shell's parent (:func:`lineage`, :func:`exit_with_parent`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""prctl(2)'s option number (linux/prctl.h)."""
SHELLS = frozenset({"sh", "dash", "bash", "zsh", "ksh", "mksh", "fish"})
"""The process names of the shells that may stand between DVC and a stage (DVC runs ``$SHELL -c CMD``)."""
WATCH_S = 0.25
"""How often (seconds) the watcher thread looks at the shell's parent."""


def _parent_of(pid: int) -> int | None:
    """The parent PID of process ``pid`` (``/proc/PID/stat``'s fourth field); None once it has gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return int(f.read().rsplit(b")", 1)[1].split()[1])  # the name, in parentheses, may hold spaces
    except (OSError, ValueError, IndexError):
        return None


def _name_of(pid: int) -> str:
    """Process ``pid``'s command name (``/proc/PID/comm``); empty once it has gone."""
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return ""


def lineage() -> tuple[int, int | None]:
    """This process's parent and, where the parent is a shell (:data:`SHELLS`, Linux), the shell's parent: the two
    PIDs :func:`exit_with_parent` compares later. Cheap (two small reads of /proc): taken first thing at start."""
    parent = os.getppid()
    if not sys.platform.startswith("linux") or _name_of(parent) not in SHELLS:
        return parent, None
    return parent, _parent_of(parent)


def _watch(shell: int, grandparent: int) -> None:
    """The watcher thread: SIGTERM to this process once ``shell`` has another parent than ``grandparent`` (the
    kernel gives an orphan to PID 1 or a subreaper) or has gone."""
    while _parent_of(shell) == grandparent:
        time.sleep(WATCH_S)
    os.kill(os.getpid(), signal.SIGTERM)


def exit_with_parent(parent: int | None = None, grandparent: int | None = None) -> bool:
    """Ask for SIGTERM when the parent process dies (Linux), or, for a process started by a shell, when the shell's
    parent dies (a watcher thread); if it has died already, send it now.

    Args:
        parent: the parent's PID as the process saw it when it started (None: the parent now); a process whose
            parent has changed since is an orphan, and terminates.
        grandparent: the shell's parent as the process saw it when it started, where ``parent`` is a shell
            (:func:`lineage`); None: the parent's death alone counts.

    Returns:
        Whether the kernel took the request (False off Linux or where prctl fails).
    """
    if not sys.platform.startswith("linux"):
        return False
    parent = os.getppid() if parent is None else parent
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:  # the parent died before the request: nobody would send the signal
        os.kill(os.getpid(), signal.SIGTERM)
    elif grandparent is not None:
        threading.Thread(target=_watch, args=(parent, grandparent), name="exit-with-parent", daemon=True).start()
    return True


def _exit(signum, frame):
    raise SystemExit(128 + signum)


def start_worker() -> None:
    """What a worker process of a stage runs first (``Pool(initializer=start_worker)``): SIGTERM when the parent dies
    (:func:`exit_with_parent`), and SIGTERM and Ctrl-C as a quiet exit (``SystemExit``, 143 and 130) that runs the
    clean-up on its way, so that the worker's atomic writes remove their temporaries and the parent reports the one
    line, an idle worker ended by the pool included."""
    signal.signal(signal.SIGTERM, _exit)
    signal.signal(signal.SIGINT, _exit)
    exit_with_parent()
