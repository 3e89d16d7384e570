"""README is a short user guide whose results cannot go stale: its results table is checked against the committed
headline metrics (metrics/headline.json, written by the `headline` stage of the run dvc.lock records)."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else None]


def test_readme_is_a_short_guide():
    assert len(README.splitlines()) <= 300
    assert not re.search(r"\b[0-9a-f]{7,40}\b", README.replace("sha256", "")), "a commit hash in README"
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b|\b(January|February|March|April|May|June|July|August|September|"
                         r"October|November|December) \d{1,2}\b", README), "a date in README"
    for link in re.findall(r"\]\(((?:docs|reports|reference)/[^)#]+)", README):
        assert (ROOT / link).exists(), link


def test_readme_results_table_is_the_committed_metrics():
    """Every row `| `MODEL` | … | STS12-15 | all | …` of the results table equals metrics/headline.json to the printed
    decimals; supervised rows (`supervised/NAME`) give the test r on STS and SICK."""
    headline = json.loads((ROOT / "metrics/headline.json").read_text(encoding="utf-8"))
    rows = [line for line in _section("Results").splitlines() if line.startswith("| `")]
    assert len(rows) >= 15
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        model = cells[0].strip("`")
        assert model in headline, f"README's results name {model!r}, which metrics/headline.json lacks"
        keys = ("sts", "sick") if model.startswith("supervised/") else ("STS12-15", "all")
        printed = [float(c.replace("−", "-")) for c in cells[2:4]]
        assert printed == [round(headline[model][k], 2) for k in keys], (model, printed, headline[model])


def test_readme_counts_the_verdicts_of_the_committed_claims_ledger():
    """README's sentence "N claims of the four papers: a reproduced, b inconclusive, c contradicted, d not testable"
    counts metrics/claims/*.json (written by the report stages of the run dvc.lock records)."""
    counts = {}
    for path in sorted((ROOT / "metrics" / "claims").glob("*.json")):
        for claim in json.loads(path.read_text(encoding="utf-8"))["claims"]:
            counts[claim["verdict"]] = counts.get(claim["verdict"], 0) + 1
    found = re.search(r"(\d+) claims of the four papers: (\d+) reproduced, (\d+) inconclusive, (\d+) contradicted, "
                      r"(\d+) not testable", " ".join(_section("Results").split()))
    assert found, "README's Results section does not count the claims' verdicts"
    assert [int(v) for v in found.groups()] == [sum(counts.values()), *(counts.get(v, 0) for v in (
        "reproduced", "inconclusive", "contradicted", "not testable"))]


def test_readme_and_the_pipeline_page_count_the_stages_dvc_resolves():
    """The stage counts README and docs/pipeline.md print are dvc.yaml's, as DVC resolves them with params.yaml."""
    from dvc.repo import Repo

    with Repo(str(ROOT)) as repo:
        stages = [s.addressing for s in repo.index.stages]
    groups = {s.split("@")[0] for s in stages}
    assert f"every stage: {len(stages)}," in README
    assert f"the {len(stages)} stages, grouped by paper" in README
    assert f"{len(stages)} stages in {len(groups)} groups" in (ROOT / "docs/pipeline.md").read_text(encoding="utf-8")
