"""What every stage script shares: reading a params.yaml entry and validating it with pydantic, and clean errors.

``src/sentemb`` knows nothing of DVC or params.yaml; the stage scripts read params.yaml through this module. Each
stage script declares the schema of the params it reads (a :class:`Section`), so that a changed default is a change
of that stage's own dependency; schemas shared by several stages live in ``stages/_*.py`` files those stages list.
"""

from __future__ import annotations

import inspect
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sentemb.atomic import read_json, write_json
from sentemb.errors import SentembError
from sentemb.text import TextConfig

PARAMS = Path("params.yaml")
TIMINGS = Path("logs/timings")

# A random seed: numpy's and torch's generators take 0 … 2**32 - 1.
Seed = Annotated[int, Field(ge=0, le=2**32 - 1)]


class Section(BaseModel):
    """A params.yaml section: unknown keys are refused (a typo never passes silently)."""

    model_config = ConfigDict(extra="forbid")


S = TypeVar("S", bound=Section)


def _read() -> dict:
    if not PARAMS.is_file():
        raise SentembError(f"{PARAMS.resolve()}: missing params file (run the stages from the repository root)")
    try:
        data = yaml.safe_load(PARAMS.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise SentembError(f"{PARAMS}: malformed YAML ({e})") from None
    if not isinstance(data, dict):
        raise SentembError(f"{PARAMS}: expected a mapping of sections at the top level")
    return data


def _validate(schema: type[Section], value, key: str):
    try:
        return schema.model_validate(value if value is not None else {})
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join([key, *map(str, err['loc'])])}: {err['msg']} (got {err.get('input')!r})" for err in e.errors()
        )
        raise SentembError(f"{PARAMS}: {problems}") from None


def params(key: str, schema: type[S], what: str | None = None) -> S:
    """The params.yaml entry at the dotted ``key`` (``vocab``, ``pretrain.glove``), validated by ``schema``.

    Args:
        what: what the last part of ``key`` names (``"word-vector model"``), for the error when it is missing.

    Raises:
        SentembError: a missing section or entry, or a bad key/value, naming the dotted key.
    """
    node = _read()
    parts = key.split(".")
    for i, part in enumerate(parts):
        parent = ".".join(parts[:i]) or "params.yaml"
        if not isinstance(node, dict) or part not in node:
            if what is not None and i == len(parts) - 1:
                defined = ", ".join(node) if isinstance(node, dict) and node else "none"
                raise SentembError(f"{PARAMS}: unknown {what} {part!r}; {parent} defines: {defined}")
            raise SentembError(f"{PARAMS}: missing section {'.'.join(parts[: i + 1])!r}")
        node = node[part]
    return _validate(schema, node, key)


def text_config(path: str | Path = "data/sentences/stats.json") -> TextConfig:
    """The tokenisation the split stage used (the ``text`` entry of its stats file).

    Raises:
        SentembError: the file is missing (the split stage has not run) or has no valid ``text`` entry.
    """
    stats = read_json(path, "missing (run `dvc repro split` first)")
    try:
        return TextConfig(**stats["text"])
    except (KeyError, TypeError) as e:
        raise SentembError(f"{path}: no valid 'text' entry ({e})") from None


def is_timing(key: str) -> bool:
    """Whether a statistics key holds a clock reading (``seconds``, ``wall_seconds``, ``pairs_per_second``,
    ``cells_per_cpu_second`` …): a figure that differs from run to run and so never goes into a file DVC hashes."""
    return key == "seconds" or key.endswith(("_seconds", "_second"))


def _split_timings(stats: dict, prefix: str, timings: dict) -> dict:
    kept = {}
    for k, v in stats.items():
        if is_timing(k):
            timings[prefix + k] = v
        elif isinstance(v, dict):
            kept[k] = _split_timings(v, f"{prefix}{k}.", timings)
        else:
            kept[k] = v
    return kept


def without_timings(stats: dict, name: str) -> tuple[dict, dict]:
    """Split a trainer's statistics into what is deterministic and its clock readings (:func:`is_timing`, at any
    depth), and write the readings to ``logs/timings/NAME.json`` (git-ignored, not a DVC output), so that a rerun
    with the same params writes byte-identical outputs.

    Returns:
        ``(kept, timings)``: the statistics without the timing keys, and those keys flattened (``selected.seconds``).
    """
    timings: dict = {}
    kept = _split_timings(stats, "", timings)
    write_json(TIMINGS / f"{name}.json", timings)
    return kept, timings


def relaunch_under_torchrun(processes: int) -> None:
    """Run this stage script again as ``processes`` data-parallel processes under ``torchrun`` (``python -m
    torch.distributed.run --standalone``), replacing this process, unless it already is one of them or
    ``processes`` is 1. The count is a param, so dvc.lock records how a model was trained."""
    if processes <= 1 or "LOCAL_RANK" in os.environ:
        return
    os.execv(sys.executable, [sys.executable, "-m", "torch.distributed.run", "--standalone",
                              f"--nproc_per_node={processes}", sys.argv[0], *sys.argv[1:]])


def run(main: Callable[..., None]) -> None:
    """Run a stage's ``main(*argv)``; a SentembError becomes one ``error:`` line on stderr and exit status 1.

    Logging is at INFO for our own modules and WARNING for gensim (whose INFO lines are thousands per run);
    ``SENTEMB_VERBOSE=1`` shows gensim's INFO too."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s", stream=sys.stderr)
    if not os.environ.get("SENTEMB_VERBOSE"):
        logging.getLogger("gensim").setLevel(logging.WARNING)
    names = list(inspect.signature(main).parameters)
    if len(sys.argv) - 1 != len(names):
        usage = " ".join(n.upper() for n in names)
        print(f"error: usage: python {sys.argv[0]} {usage}".rstrip(), file=sys.stderr)
        sys.exit(2)
    try:
        main(*sys.argv[1:])
    except SentembError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
