"""download: every corpus shard, benchmark and resource named in params.yaml → data/raw/
(mirror first, then URL; sha256)."""

from pathlib import Path

from pydantic import Field

from sentemb.data.sources import fetch_sources, source_files

from _common import Section, params, run


class Download(Section):
    mirror: str | None = "../shared/data"
    use_network: bool = True
    corpus: list[str] = Field(default_factory=list)  # empty: a corpus of your own (split.corpus)
    benchmarks: list[str] = Field(min_length=1)
    resources: list[str] = Field(default_factory=list)

OUT = Path("data/raw")
BENCHMARK_DIRS = ("sts", "sick", "stsbenchmark", "pit2015", "norms", "pairs")


def main() -> None:
    p = params("download", Download)
    names = p.corpus + p.benchmarks + p.resources
    for n in names:  # unknown names fail before anything is written
        source_files(n)
    for d in ("corpus", *BENCHMARK_DIRS):
        (OUT / d).mkdir(parents=True, exist_ok=True)
    written = fetch_sources(names, p.mirror, OUT, use_network=p.use_network)
    print(f"download: {len(written)} files from {len(names)} sources into {OUT}/ (sha256 verified)")


if __name__ == "__main__":
    run(main)
