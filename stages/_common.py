"""What every stage script shares: its params section read through the library's schema, the tokenisation of the
corpus, clock readings kept out of the hashed outputs, and one line for errors and signals.

``src/sentemb`` knows nothing of DVC or params.yaml; the stage scripts are the adapters between them. Each reads its
params section through the schema of the package it calls (params.yaml holds every value, the schema none: see
``sentemb.core.config``), calls one library function and writes the outputs ``dvc.yaml`` declares.
"""

from __future__ import annotations

import os
import signal
import sys


def _quit_while_importing(signum: int, frame) -> None:
    """Ctrl-C or SIGTERM before the stage's main runs (while it imports torch, pandas …): one line, the shell's exit
    status, no traceback; nothing has been written yet. :func:`run` then hands the signals to
    :func:`sentemb.core.errors.exit_on_error`, whose clean-up removes the atomic writes' temporaries."""
    print("interrupted" if signum == signal.SIGINT else "terminated", file=sys.stderr, flush=True)
    os._exit(128 + signum)


for _signal in (signal.SIGINT, signal.SIGTERM):  # first thing: every stage script imports this module first
    signal.signal(_signal, _quit_while_importing)
from sentemb.core.runtime.lifetime import exit_with_parent, lineage

_LINEAGE = lineage()  # the process that started the stage (`dvc repro`, or the shell it runs the command in, and its
#                       parent): the death of `dvc repro` stops the stage (run)

import gc
import inspect
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import yaml

from sentemb.core.atomic import read_json, sweep_leftovers, write_json
from sentemb.core.config import Schema, validate
from sentemb.core.errors import SentembError, exit_on_error
from sentemb.core.text.config import TextConfig, text_config

PARAMS = Path("params.yaml")
OUTPUTS = ("data", "models", "results", "metrics", "reports", "logs")  # the folders the pipeline writes
TIMINGS = Path("logs/timings")
S = TypeVar("S", bound=Schema)


def params(key: str, schema: type[S], what: str | None = None) -> S:
    """The params.yaml entry at the dotted ``key`` (``vocab``, ``pretrain.glove``), validated by ``schema``.

    Args:
        what: what the last part of ``key`` names (``"word-vector model"``), for the error when it is missing.

    Raises:
        SentembError: a missing file, section or entry, or a bad key or value, naming the dotted key.
    """
    if not PARAMS.is_file():
        raise SentembError(f"{PARAMS.resolve()}: missing params file (run the stages from the repository root)")
    try:
        node = yaml.safe_load(PARAMS.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise SentembError(f"{PARAMS}: malformed YAML ({' '.join(str(e).split())})") from None
    parts = key.split(".")
    for i, part in enumerate(parts):
        if not isinstance(node, dict) or part not in node:
            parent = ".".join(parts[:i]) or "params.yaml"
            if what is not None and i == len(parts) - 1 and isinstance(node, dict):
                raise SentembError(f"{PARAMS}: unknown {what} {part!r}; {parent} defines: {', '.join(node) or 'none'}")
            raise SentembError(f"{PARAMS}: missing section {'.'.join(parts[: i + 1])!r}")
        node = node[part]
    return validate(schema, node, str(PARAMS), key)


def corpus_text(path: str = "data/sentences/stats.json") -> TextConfig:
    """The tokenisation the split stage used (the ``text`` entry of its statistics).

    Raises:
        SentembError: the file is missing (the split stage has not run) or has no valid ``text`` entry.
    """
    return text_config(read_json(path, "missing (run `dvc repro split` first)").get("text"), path)


def _is_timing(key: str) -> bool:
    """A clock reading (``seconds``, ``wall_seconds``, ``pairs_per_second`` …): it differs from run to run."""
    return key == "seconds" or key.endswith(("_seconds", "_second"))


def _split_timings(stats: dict, prefix: str, timings: dict) -> dict:
    kept = {}
    for k, v in stats.items():
        if _is_timing(k):
            timings[prefix + k] = v
        elif isinstance(v, dict):
            kept[k] = _split_timings(v, f"{prefix}{k}.", timings)
        else:
            kept[k] = v
    return kept


def without_timings(stats: dict, name: str) -> tuple[dict, dict]:
    """Split a trainer's statistics into what is deterministic and its clock readings (at any depth), and write the
    readings to ``logs/timings/NAME.json`` (git-ignored, not a DVC output), so that a rerun with the same params writes
    byte-identical outputs.

    Returns:
        ``(kept, timings)``: the statistics without the timing keys, and those keys flattened (``selected.seconds``).
    """
    timings: dict = {}
    kept = _split_timings(stats, "", timings)
    write_json(TIMINGS / f"{name}.json", timings)
    return kept, timings


def run(main: Callable[..., object]) -> None:
    """Run a stage's ``main(*argv)``: leftovers of killed earlier writers are swept first; bad input is one
    ``error:`` line (exit 1), Ctrl-C ``interrupted`` (130), SIGTERM ``terminated`` (143), none with a traceback; the
    parent process's death (``dvc repro`` killed) is a SIGTERM (:mod:`sentemb.core.runtime.lifetime`).

    Logging is at INFO for our own modules and WARNING for gensim (whose INFO lines are thousands per run);
    ``SENTEMB_VERBOSE=1`` shows gensim's INFO too."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s", stream=sys.stderr)
    if not os.environ.get("SENTEMB_VERBOSE"):
        logging.getLogger("gensim").setLevel(logging.WARNING)
    parameters = inspect.signature(main).parameters.values()
    names = [p.name.upper() + (" [...]" if p.kind is p.VAR_POSITIONAL else "") for p in parameters]
    variadic = any(p.kind is p.VAR_POSITIONAL for p in parameters)  # main(*names): one name or more
    fixed, given = len(names) - variadic, len(sys.argv) - 1
    if given < fixed + variadic or (given > fixed and not variadic):
        print(f"error: usage: python {sys.argv[0]} {' '.join(names)}".rstrip(), file=sys.stderr)
        sys.exit(2)
    exit_with_parent(*_LINEAGE)  # `dvc repro` killed: this stage gets SIGTERM, cleans up and writes nothing after it
    sweep_leftovers(*OUTPUTS)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # KeyboardInterrupt: the clean-up runs
    exit_on_error(lambda: main(*sys.argv[1:]))
    gc.freeze()  # the outputs are written: the exit skips the collector's last pass over every object (0.1 s)
