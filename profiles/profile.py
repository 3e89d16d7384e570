"""Run profiles: named sets of params.yaml overrides (``profiles/NAME.yaml``) for ``dvc exp run -S``.

A profile is a YAML mapping of dotted params keys to values; a key written ``~key`` (with no value) removes that
entry, Hydra's deletion, e.g. a model of the paraphrastic section and with it its stages::

    split.max_documents: 4
    download.corpus: [gutenberg-01, enwiki-01]
    ~paraphrastic.para-proj:

``python profiles/profile.py quick`` checks it against ``params.yaml`` (DVC refuses to add a key that is not there)
and prints the ``-S key=value`` arguments, so that ``dvc exp run $(python profiles/profile.py quick)`` runs the
pipeline with them. A script of the repository, not of the library: the library knows nothing of DVC.
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path
from typing import Any

import typer
import yaml

from sentemb.core.errors import SentembError

PROFILES = Path(__file__).resolve().parent
_PLAIN = re.compile(r"^[A-Za-z0-9_.\-/]+$")


def profile_path(name_or_path: str | Path) -> Path:
    """``profiles/NAME.yaml`` for a bare name, else the path itself."""
    p = Path(name_or_path)
    return p if p.suffix in (".yaml", ".yml") or p.parent != Path(".") else PROFILES / f"{p}.yaml"


def read_profile(name_or_path: str | Path) -> dict[str, Any]:
    """The overrides of a profile: dotted key → value, in file order.

    Raises:
        SentembError: a missing or malformed file, or a key that is not a dotted params path (file named).
    """
    path = profile_path(name_or_path)
    if not path.is_file():
        known = sorted(p.stem for p in PROFILES.glob("*.yaml")) if PROFILES.is_dir() else []
        raise SentembError(f"{path}: no such profile" + (f" (profiles: {', '.join(known)})" if known else ""))
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise SentembError(f"{path}: malformed YAML ({e})") from None
    if not isinstance(data, dict) or not data:
        raise SentembError(f"{path}: expected a mapping of dotted params keys to values")
    for key, value in data.items():
        if not isinstance(key, str) or not all(key.removeprefix("~").split(".")):
            raise SentembError(f"{path}: {key!r} is not a dotted params key such as split.max_documents")
        if key.startswith("~") and value is not None:
            raise SentembError(f"{path}: {key}: a removal takes no value (got {value!r})")
    return data


def _node(params: dict, key: str, where: str) -> tuple[dict, str]:
    *parents, last = key.split(".")
    node = params
    for i, part in enumerate(parents):
        node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            raise SentembError(f"{where}: {key}: params.yaml has no section {'.'.join(parents[: i + 1])!r}")
    if last not in node:
        raise SentembError(f"{where}: {key}: params.yaml has no such key (dvc exp run -S can only change existing "
                           f"keys; {'.'.join(parents) or 'the top level'} has: {', '.join(map(str, node))})")
    return node, last


def apply_profile(params: dict, overrides: dict[str, Any], where: str = "profile") -> dict:
    """A copy of ``params`` (params.yaml's content) with the overrides set (and the ``~key`` entries removed).

    Raises:
        SentembError: an override of a key params.yaml does not have (``where`` names the profile).
    """
    out = copy.deepcopy(params)
    for key, value in overrides.items():
        node, last = _node(out, key.removeprefix("~"), where)
        if key.startswith("~"):
            del node[last]
        else:
            node[last] = copy.deepcopy(value)
    return out


def _value(value: Any, key: str) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str) and _PLAIN.match(value):
        return value
    if isinstance(value, list):
        return "[" + ",".join(_value(v, key) for v in value) + "]"
    raise SentembError(f"profile: {key}: {value!r} cannot be passed as `-S {key}=…` (use plain words, numbers, "
                       f"booleans, null or lists of them)")


def set_param_args(overrides: dict[str, Any]) -> list[str]:
    """``["-S", "key=value", …]`` for ``dvc exp run``: values in Hydra's override syntax, none with a space.

    Raises:
        SentembError: a value that has no such form (a mapping, a string with spaces or quotes).
    """
    args: list[str] = []
    for key, value in overrides.items():
        args += ["-S", key if key.startswith("~") else f"{key}={_value(value, key)}"]
    return args


def main(name: str, params: Path = Path("params.yaml")) -> None:
    """Print the profile NAME (profiles/NAME.yaml, or a path) as `-S key=value` arguments for `dvc exp run`, each
    checked against the params file."""
    try:
        overrides = read_profile(name)
        if not params.is_file():
            raise SentembError(f"{params}: missing params file (run from the repository root)")
        apply_profile(yaml.safe_load(params.read_text(encoding="utf-8")) or {}, overrides,
                      where=str(profile_path(name)))
        args = set_param_args(overrides)
    except SentembError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
    print(" ".join(args))


if __name__ == "__main__":
    typer.run(main)
