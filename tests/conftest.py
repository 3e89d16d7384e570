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


# --- the pipeline, every stage run once for the whole suite on the smoke profile ----------------------------------

GIT_IDENTITY = {"GIT_AUTHOR_NAME": "sentemb tests", "GIT_AUTHOR_EMAIL": "tests@sentemb.invalid",
                "GIT_COMMITTER_NAME": "sentemb tests", "GIT_COMMITTER_EMAIL": "tests@sentemb.invalid"}
PROJECT_ITEMS = ("dvc.yaml", "stages", "src", "reference", "profiles", ".gitignore", ".dvcignore")


def make_project(tmp_path: Path, shared: Path, smoke: bool = True, **overrides) -> Path:
    """A fresh git+DVC project with this repository's pipeline, reading the shared mirror; its params.yaml is the
    repository's with the smoke profile (profiles/smoke.yaml) applied, unless ``smoke`` is false."""
    import shutil
    import subprocess
    import sys

    import yaml

    proj = tmp_path / "proj"
    proj.mkdir()
    for item in PROJECT_ITEMS:
        src = ROOT / item
        if src.is_dir():  # as a fresh clone has them: without Python's or numba's caches
            shutil.copytree(src, proj / item, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.is_file():
            shutil.copy(src, proj / item)
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["download"].update(mirror=str(shared), use_network=False)
    if smoke:
        params = apply_profile(params, "smoke")
    for section, values in overrides.items():
        params[section].update(values)
    (proj / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    for cmd in (["git", "init", "-q"], [sys.executable, "-m", "dvc", "init", "-q"]):
        subprocess.run(cmd, cwd=proj, check=True)
    return proj


def apply_profile(params: dict, name: str) -> dict:
    """params.yaml's content with profiles/NAME.yaml applied (profiles/profile.py, a script of the repository)."""
    from helpers import script_module

    module = script_module("profiles/profile.py")
    return module.apply_profile(params, module.read_profile(name))


def dvc(proj: Path, *args: str, check: bool = True):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "dvc", *args], cwd=proj, capture_output=True, text=True,
                          check=check, env=os.environ | GIT_IDENTITY)


def pytest_collection_modifyitems(config, items) -> None:
    """One test of the smoke run first and the others last: under pytest-xdist (``-n 2``) the first worker starts
    making the run at once while the other takes the tests that do not need it."""
    uses = [i for i in items if {"smoke", "smoke_copy"} & set(getattr(i, "fixturenames", ()))]
    if uses:
        rest = [i for i in items if i not in uses]
        items[:] = [uses[0], *rest, *uses[1:]]


@pytest.fixture(scope="session")
def smoke(tmp_path_factory, shared) -> Path:
    """Every stage, `dvc exp run $(python profiles/profile.py smoke)`, on a fresh project, made once for the whole run:
    under pytest-xdist the first worker to ask makes it, holding a lock in the folder all workers of the run share,
    and the others wait for it. Tests read it; a test that changes a project takes its own copy (``smoke_copy``)."""
    import fcntl
    import shlex
    import subprocess
    import sys

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    folder, failed = base / "smoke", base / "smoke.failed"
    with open(base / "smoke.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if this process dies
        if not (folder / "done").exists():
            if folder.exists():  # an earlier attempt, in another worker, stopped short: its report says why
                why = f":\n{failed.read_text()}" if failed.exists() else ""
                pytest.fail(f"the smoke run failed in another worker{why}")
            folder.mkdir()
            proj = make_project(folder, shared, smoke=False)
            subprocess.run(["git", "add", "-A"], cwd=proj, check=True)
            subprocess.run(["git", "commit", "-qm", "a fresh project"], cwd=proj, check=True,
                           env=os.environ | GIT_IDENTITY)
            py = shlex.quote(sys.executable)
            res = subprocess.run(["bash", "-c", f"{py} -m dvc exp run $({py} profiles/profile.py smoke)"], cwd=proj,
                                 capture_output=True, text=True, env=os.environ | GIT_IDENTITY)
            if res.returncode != 0:
                failed.write_text(res.stdout[-3000:] + res.stderr[-3000:])
                pytest.fail(failed.read_text())
            (folder / "done").touch()
    return folder / "proj"


@pytest.fixture
def smoke_copy(smoke, tmp_path) -> Path:
    """A copy of the smoke run's project (git, DVC cache and all; DVC's own state in .dvc/tmp left for it to rebuild),
    for a test that changes the project, so that tests never change what another reads."""
    import shutil

    def ignore(folder: str, names: list[str]) -> list[str]:
        return ["tmp"] if Path(folder) == smoke / ".dvc" else []

    shutil.copytree(smoke, tmp_path / "proj", symlinks=True, ignore=ignore)
    return tmp_path / "proj"
