"""The layout: foundations below, families above, each family importing no other; every DVC stage depending on the
code it runs by folder (at most six code dependencies), and no more than it runs; stage scripts thin; one short
pipeline file."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "sentemb"
FAMILIES = ("siamese_cbow", "salience", "paraphrastic", "supervised")
# what each layer may import, besides itself and the layers below it (in this order)
LAYERS = ["core", "papers", "wordvectors", "adjacent_sentences", "distillation", *FAMILIES, "reporting", "inference",
          "interop"]

# what a stage imports only once it has read the model's config (core.models.load_model's lazy dispatch, by type) or
# runs (the LSTM's CPU backward kernel)
LAZY = {"evaluate-salience": ["sentemb.salience.model"], "evaluate-nws": ["sentemb.salience.model"],
        "evaluate-paraphrastic": ["sentemb.paraphrastic.model"],
        "supervise": ["sentemb.paraphrastic.peephole_cpu"], "harness-weighted_average": ["sentemb.salience.model"],
        "harness-paraphrastic": ["sentemb.paraphrastic.model"], "student": ["sentemb.paraphrastic.model"]}

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


def test_each_layer_imports_only_itself_and_the_layers_below():
    """Foundations below, families above, stages and the CLI on top: a family never imports another family, and no
    package imports a layer above it (core.models names its derived types' loaders by string only)."""
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        own = rel.parts[0] if len(rel.parts) > 1 else None
        if own not in LAYERS:
            continue  # the interfaces: cli.py, senteval.py
        allowed = set(LAYERS[: LAYERS.index(own) + 1])
        if own in FAMILIES:
            allowed = (allowed - set(FAMILIES)) | {own}
        if own == "reporting":
            allowed = (allowed - set(FAMILIES)) | {"supervised"}  # the supervised section's schema
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "sentemb" and len(parts) > 1:
                assert parts[1] in allowed, f"src/sentemb/{rel} imports {name}, above or beside its layer"


def test_the_package_root_holds_no_code():
    """No stage lists src/sentemb/__init__.py among its dependencies, so it may hold nothing that runs: a docstring and
    the version string."""
    tree = ast.parse((SRC / "__init__.py").read_text(encoding="utf-8"))
    assert len(tree.body) == 2 and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant)
    version = tree.body[1]
    assert isinstance(version, ast.Assign) and [t.id for t in version.targets] == ["__version__"]
    assert isinstance(version.value, ast.Constant) and isinstance(version.value.value, str)


def _stages() -> dict[str, tuple[str, list[str]]]:
    """stage address → (its script, its dependencies under src/ and stages/), from DVC's own resolution."""
    from dvc.repo import Repo

    out = {}
    with Repo(str(ROOT)) as repo:
        for stage in repo.index.stages:
            script = stage.cmd.split()[1]
            code = [d.def_path for d in stage.deps if d.def_path.startswith(("src/", "stages/"))]
            out[stage.addressing] = (script, code)
    return out


def _covered(path: str, deps: list[str]) -> bool:
    return any(path == d or path.startswith(d.rstrip("/") + "/") for d in deps)


@pytest.mark.slow
def test_each_stage_depends_on_the_code_it_runs_by_folder():
    stages = _stages()
    specs = {name: [Path(script).stem, *LAZY.get(name.split("@")[0], [])] for name, (script, _) in stages.items()}
    unique = sorted({tuple(s) for s in specs.values()})
    res = subprocess.run([sys.executable, "-c", _CLOSURES, json.dumps(unique)], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    closures = json.loads(res.stdout)
    for name, (_, deps) in stages.items():
        assert len(deps) <= 6, f"{name}: {len(deps)} code dependencies: {deps}"
        imported = set(closures["|".join(specs[name])]) - {"src/sentemb/__init__.py"}  # no code: the test above
        missing = sorted(f for f in imported if not _covered(f, deps))
        assert not missing, f"{name}: imports {missing} but does not depend on them"
        unused = [d for d in deps if not any(_covered(f, [d]) for f in imported)]
        assert not unused, f"{name}: depends on {unused} but never imports them"


def _code_lines(path: Path) -> int:
    """Lines of code of a script: not blank, not a comment, not its module docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = tree.body[0] if tree.body and isinstance(tree.body[0], ast.Expr) else None
    skip = set(range(doc.lineno, doc.end_lineno + 1)) if doc else set()
    return sum(1 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
               if n not in skip and line.strip() and not line.strip().startswith("#"))


def test_stage_scripts_are_thin_and_the_pipeline_file_short():
    """A stage is an adapter: read its params through the package's schema, call the library, write its outputs."""
    for script in sorted((ROOT / "stages").glob("*.py")):
        if not script.name.startswith("_"):
            assert _code_lines(script) <= 40, f"{script.name}: {_code_lines(script)} lines of code"
    yaml_files = [ROOT / "dvc.yaml", *ROOT.glob("pipelines/**/dvc.yaml")]
    assert sum(len(f.read_text(encoding="utf-8").splitlines()) for f in yaml_files) <= 300


def test_the_tree_passes_ruff():
    """The lint configured in pyproject.toml ([tool.ruff]) holds for every Python file of the repository."""
    res = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT, capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stdout[-3000:]
