"""Shared fixtures: the real data in ../shared/data (a local mirror of the official downloads)."""

import os
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SENTEMB_SHARED_DATA", ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "sts" / "2012").is_dir():
        pytest.fail(f"the staged data is missing: expected it at {SHARED} (set SENTEMB_SHARED_DATA)")
    return SHARED


@pytest.fixture(scope="session")
def gutenberg_book(shared) -> tuple[str, str]:
    """(member name, text) of the first book of the first Gutenberg shard."""
    with tarfile.open(shared / "corpus" / "gutenberg" / "gutenberg-01.tar.xz", "r:xz") as tf:
        for m in tf:
            if m.isfile():
                return m.name, tf.extractfile(m).read().decode("utf-8")
    raise AssertionError("no member")


@pytest.fixture(scope="session")
def wiki_file(shared) -> tuple[str, str]:
    """(member name, text) of the first WikiExtractor file of the first Wikipedia shard."""
    with tarfile.open(shared / "corpus" / "enwiki" / "enwiki-01.tar.xz", "r:xz") as tf:
        for m in tf:
            if m.isfile():
                return m.name, tf.extractfile(m).read().decode("utf-8")
    raise AssertionError("no member")
