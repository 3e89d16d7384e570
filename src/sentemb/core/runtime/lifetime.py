"""A worker process's lifetime tied to its parent's: when the parent dies, the worker is sent SIGTERM.

On Linux, ``prctl(PR_SET_PDEATHSIG, SIGTERM)`` (prctl(2)) asks the kernel for the signal when the thread that
started the process exits; elsewhere nothing is set and a worker outlives a killed parent until it finishes. The
worker's own SIGTERM handling (:func:`sentemb.core.errors.exit_on_error`) then prints ``terminated``, removes its
temporaries and exits 143, so that nothing is written after the parent has gone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

PR_SET_PDEATHSIG = 1
"""prctl(2)'s option number (linux/prctl.h)."""


def exit_with_parent(parent: int | None = None) -> bool:
    """Ask for SIGTERM when the parent process dies (Linux); if it has died already, send it now.

    Args:
        parent: the parent's PID as the process saw it when it started (None: the parent now); a process whose
            parent has changed since is an orphan, and terminates.

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
