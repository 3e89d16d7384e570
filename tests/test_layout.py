"""The layout rule: a family imports only foundations, and each DVC stage depends on exactly the code it runs."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "sentemb"
FAMILIES = ("siamese_cbow", "salience", "paraphrastic", "supervised")

# what an evaluate stage imports only once it has read the model's config (models.load_model's lazy dispatch, and
# the word-similarity scores of models that own their vectors)
LAZY = {"evaluate": ["sentemb.evaluation.word_similarity"], "evaluate-salience": ["sentemb.salience.model"],
        "evaluate-paraphrastic": ["sentemb.paraphrastic.model"],
        "supervise": ["sentemb.paraphrastic.peephole_cpu"]}  # the LSTM's CPU backward kernel, imported when it runs

# run in a fresh interpreter: third-party libraries preloaded once, then each stage script imported in a forked child
# so that every closure starts from no sentemb module
_CLOSURES = r"""
import importlib, json, os, sys
from pathlib import Path
import gensim, numpy, pandas, pydantic, scipy.stats, torch, tqdm, yaml  # noqa: F401  (shared, not measured)
root = Path.cwd().resolve()
sys.path.insert(0, str(root / "stages"))
out = {}
for spec in json.loads(sys.argv[1]):
    r, w = os.pipe()
    if os.fork() == 0:
        os.close(r)
        for name in spec:
            importlib.import_module(name)
        files = set()
        for m in list(sys.modules.values()):
            f = getattr(m, "__file__", None)
            if f:
                p = Path(f).resolve()
                if p.is_relative_to(root / "src") or p.is_relative_to(root / "stages"):
                    files.add(p.relative_to(root).as_posix())
        os.write(w, json.dumps(sorted(files)).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.wait()
    out["|".join(spec)] = json.loads(data)
print(json.dumps(out))
"""


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth of its code (lazy imports included)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_a_family_imports_only_foundations():
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        own = rel.parts[0] if len(rel.parts) > 1 else None
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "sentemb" and len(parts) > 1 and parts[1] in FAMILIES:
                assert parts[1] == own, f"src/sentemb/{rel} imports {name}: a family is imported only by itself"


def _stage_deps() -> dict[str, tuple[str, list[str]]]:
    """stage address → (its script, its dependencies under src/ and stages/), from DVC's own resolution."""
    from dvc.repo import Repo

    out = {}
    with Repo(str(ROOT)) as repo:
        for stage in repo.index.stages:
            script = stage.cmd.split()[1]
            code = [d.def_path for d in stage.deps if d.def_path.startswith(("src/", "stages/"))]
            out[stage.addressing] = (script, code)  # pipelines/weighting/dvc.yaml:nws@glove outside the root
    return out


@pytest.mark.slow
def test_each_stage_depends_on_exactly_the_code_it_imports():
    stages = _stage_deps()
    specs = {}
    for name, (script, _) in stages.items():
        group = name.rsplit(":", 1)[-1].split("@")[0]
        specs[name] = [Path(script).stem, *LAZY.get(group, [])]
    unique = sorted({tuple(s) for s in specs.values()})
    res = subprocess.run([sys.executable, "-c", _CLOSURES, json.dumps(unique)], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    closures = json.loads(res.stdout)
    for name, (_, deps) in stages.items():
        imported = set(closures["|".join(specs[name])])
        covered = {f for f in imported if any(f == d or f.startswith(d.rstrip("/") + "/") for d in deps)}
        assert imported == covered, f"{name}: imports {sorted(imported - covered)} but does not depend on them"
        unused = [d for d in deps if d != "src/sentemb/data/sources.tsv"  # read by data/sources.py
                  and not any(f == d or f.startswith(d.rstrip("/") + "/") for f in imported)]
        assert not unused, f"{name}: depends on {unused} but never imports them"
