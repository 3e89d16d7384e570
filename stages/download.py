"""download: every corpus shard, benchmark and resource named in params ``download`` → data/raw/ (the local mirror
first, then the official URL; sha256-checked)."""

from pathlib import Path

from _common import params, run

from sentemb.core.data.config import DownloadConfig
from sentemb.core.data.sources import fetch_sources, source_files

OUT = Path("data/raw")
FOLDERS = ("corpus", "sts", "sick", "stsbenchmark", "pit2015", "norms", "pairs")  # the stage's outputs


def main() -> None:
    config = params("download", DownloadConfig)
    for name in config.names():  # unknown names fail before anything is written
        source_files(name)
    for folder in FOLDERS:
        (OUT / folder).mkdir(parents=True, exist_ok=True)
    written = fetch_sources(config.names(), config.mirror, OUT, use_network=config.use_network)
    print(f"download: {len(written)} files from {len(config.names())} sources into {OUT}/ (sha256 verified)")


if __name__ == "__main__":
    run(main)
