"""The model directory: what it may contain, how it is written and how its config is read.

A model directory holds ``config.json`` and fixed file names that its ``type`` defines, nothing a loader would run:

- ``word_average`` (word2vec, GloVe, Siamese CBOW, PARAGRAM, the untrained controls): ``vectors.npy``, ``vocab.tsv``;
- ``weighted_average`` (NWS, ISF, SIF): ``weights.npy``, and ``component.npy`` when a common component is removed;
- ``paraphrastic`` (AVG, PROJ, DAN, RNN, LSTM, LSTMAVG, GRAN): ``words.txt``, ``encoder.safetensors``.

Arrays are ``.npy`` read with ``allow_pickle=False`` or safetensors, tables are text. A derived model names the
word-averaging model it builds on in ``config["vectors"]`` as ``../NAME``, a sibling in the same folder (so that the
300-d vectors are stored once); :func:`sibling_model` refuses any other path (absolute, deeper, or climbing out of
the folder). ``config.json`` is checked against its type's schema, so a missing key or a wrong type is one line
naming the file and the key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import Field

from sentemb.core.atomic import atomic_path, read_json
from sentemb.core.config import Schema, validate
from sentemb.core.errors import SentembError
from sentemb.core.text.config import TextConfig

CONFIG = "config.json"
_NAME = re.compile(r"^[^/\\\0]+$")


class ModelConfig(Schema):
    """What every ``config.json`` has: the model's ``type``, its ``name``, the tokenisation it was trained with and
    a free-form training record (``info``: the trainer, its settings and statistics; never read by a loader)."""

    type: str = Field(description="the saved type, which names the loader (sentemb.core.models.LOADERS)")
    name: str = Field(description="the model's name (its directory's, when the pipeline wrote it)")
    text: TextConfig
    info: dict[str, Any] = Field(description="how the model was trained; for people, not for the loader")


def read_config(directory: str | Path) -> dict:
    """``directory/config.json`` as a dict.

    Raises:
        SentembError: a missing directory or file, malformed JSON, a value that is not an object, or a model saved in
            the old pickled format (refused, not read).
    """
    d = Path(directory)
    if not d.is_dir():
        raise SentembError(f"{d}: {'not a directory' if d.exists() else 'missing model directory'}")
    config = read_json(d / CONFIG, f"missing model config (is {d} a model directory written by `dvc repro`?)")
    if not isinstance(config, dict):
        raise SentembError(f"{d / CONFIG}: expected a JSON object")
    if "loader" in config or (d / "vectors.kv").exists() or (d / "encoder.pt").exists():
        raise SentembError(f"{d}: a model saved by an older sentemb (a pickled vectors.kv or encoder.pt, which can run "
                           "code when loaded); it is not read: rebuild it with `dvc repro`")
    return config


def model_config(schema: type[Schema], directory: str | Path, config: dict):
    """``config`` (read from ``directory``) checked against its type's ``schema``.

    Raises:
        SentembError: ``DIR/config.json: key: what is wrong``.
    """
    return validate(schema, config, str(Path(directory) / CONFIG))


def sibling_model(directory: str | Path, reference: str, key: str = "vectors") -> Path:
    """The model directory that a derived model's ``config[key]`` names: ``../NAME``, a sibling of ``directory``.

    Raises:
        SentembError: any other form (an absolute path, a path below or above the sibling level), or a sibling that
            is a symbolic link out of the folder, naming the config file and the key.
    """
    d = Path(directory)
    parts = reference.split("/") if isinstance(reference, str) else []
    if len(parts) != 2 or parts[0] != ".." or parts[1] in ("", ".", "..") or not _NAME.match(parts[1]):
        raise SentembError(f"{d / CONFIG}: {key}: expected '../NAME', a model directory beside this one (got "
                           f"{reference!r}); a model reads no file outside its folder of models")
    sibling = d.parent / parts[1]
    if sibling.is_symlink() and sibling.resolve().parent != d.parent.resolve():
        raise SentembError(f"{sibling}: a link to {sibling.resolve()}, outside the folder of models {d.parent} "
                           f"({d / CONFIG}: {key}); a model reads no file outside its folder of models")
    return sibling


def sibling_reference(directory: str | Path, other: str | Path) -> str:
    """What a derived model in ``directory`` stores to name ``other``: ``../NAME`` (the inverse of
    :func:`sibling_model`).

    Raises:
        SentembError: ``other`` is not in the same folder as ``directory``.
    """
    d, o = Path(directory).resolve(), Path(other).resolve()
    if o.parent != d.parent or o == d:
        raise SentembError(f"{other}: a derived model builds on a model in its own folder ({d.parent}), "
                           f"not on {o}")
    return f"../{o.name}"


def model_file(directory: str | Path, name: str) -> Path:
    """``directory/name``, which must exist.

    Raises:
        SentembError: a missing file, naming the model directory.
    """
    p = Path(directory) / name
    if not p.is_file():
        raise SentembError(f"{p}: missing file of the model {directory}")
    return p


def write_model(directory: str | Path, config: dict, write_files: Callable[[Path], None]) -> None:
    """Write a model directory atomically: ``write_files(tmp)`` fills a temporary directory, then ``config.json`` is
    written and the directory replaces ``directory`` whole."""
    with atomic_path(directory) as tmp:
        tmp.mkdir(parents=True)
        write_files(tmp)
        (tmp / CONFIG).write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
