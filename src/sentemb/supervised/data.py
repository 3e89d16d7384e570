"""The supervised relatedness datasets as Wieting & Gimpel (2017) §4.3 build them.

- **SICK**: its standard splits, train 4,500 / trial (dev) 500 / test 4,927 pairs, scores in [1, 5].
- **STS**: every STS 2012-2015 dataset split 40 / 10 / 50 per dataset (the paper: 4,481 / 1,207 / 6,060 pairs
  over 20 sets; 2013 SMT is distributed by LDC only, so 19 sets here), scores in [0, 5]. The split is a seeded
  permutation of each dataset's pairs, so every model sees the same one.

A split is a table of ``set``, ``sentence1``, ``sentence2``, ``score`` rows (raw sentences, the gold score as
published), written as a TSV so that every training stage reads the same pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sentemb.core.atomic import atomic_open, atomic_path
from sentemb.core.data.benchmarks import STSDataset, load_benchmarks, read_sick
from sentemb.core.data.pairs import PAIRS_HEADER, match_key, read_pairs
from sentemb.core.errors import SentembError
from sentemb.supervised.config import SplitConfig

SPLITS = ("train", "dev", "test")
COLUMNS = ("set", "sentence1", "sentence2", "score")
Row = tuple[str, str, str, float]


def split_datasets(datasets: Sequence[STSDataset], fractions: tuple[float, float], seed: int
                   ) -> dict[str, list[Row]]:
    """Split each dataset's pairs into train / dev / test by a seeded permutation: the first ⌊f_train·n⌋ pairs of the
    permutation train, the next ⌊f_dev·n⌋ dev, the rest test (Wieting & Gimpel: 40 / 10 / 50).

    Returns:
        split name → rows ``(set key, sentence1, sentence2, gold)``, datasets in the given order, pairs in file order.

    Raises:
        SentembError: fractions outside (0, 1) or summing to 1 or more (no test pairs).
    """
    f_train, f_dev = fractions
    if not (0 < f_train < 1 and 0 < f_dev < 1 and f_train + f_dev < 1):
        raise SentembError(f"supervised split: fractions {fractions} must be in (0, 1) and leave a test share")
    out: dict[str, list[Row]] = {s: [] for s in SPLITS}
    for d in datasets:
        n = len(d)
        perm = np.random.default_rng([seed, *d.key.encode("utf-8")]).permutation(n)
        cut1, cut2 = int(f_train * n), int(f_train * n) + int(f_dev * n)
        which = np.empty(n, dtype=np.int64)
        which[perm[:cut1]], which[perm[cut1:cut2]], which[perm[cut2:]] = 0, 1, 2
        for i in range(n):
            out[SPLITS[which[i]]].append((d.key, d.sentences1[i], d.sentences2[i], float(d.gold[i])))
    return out


def sick_splits(sick_dir: str | Path) -> dict[str, list[Row]]:
    """SICK's own splits from ``SICK_train.txt``, ``SICK_trial.txt`` (dev) and ``SICK_test_annotated.txt``.

    Raises:
        SentembError: a missing or malformed file (named).
    """
    root = Path(sick_dir)
    files = {"train": "SICK_train.txt", "dev": "SICK_trial.txt", "test": "SICK_test_annotated.txt"}
    out = {}
    for split, name in files.items():
        d = read_sick(root / name, split)
        out[split] = [(f"SICK.{split}", a, b, float(g)) for a, b, g in zip(d.sentences1, d.sentences2, d.gold,
                                                                           strict=True)]
    return out


def write_split(path: str | Path, rows: Sequence[Row]) -> None:
    """Write rows as a TSV with a header (``set sentence1 sentence2 score``), atomically; the text is written as is
    (no quoting: a quote is an ordinary character), so a sentence may hold neither a tab nor a line break.

    Raises:
        SentembError: a sentence holding a tab or a line break (its set named).
    """
    with atomic_open(path, newline="") as fh:
        fh.write("\t".join(COLUMNS) + "\n")
        for key, a, b, score in rows:
            if any(c in a + b for c in "\t\n\r"):
                raise SentembError(f"{path}: a sentence of {key} holds a tab or a line break")
            fh.write(f"{key}\t{a}\t{b}\t{float(score)!r}\n")


def read_split(path: str | Path) -> list[Row]:
    """Read a split written by :func:`write_split`.

    Raises:
        SentembError: a missing file, a wrong header, a short line or a non-numeric score (file and line named).
    """
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing split file")
    lines = p.read_text(encoding="utf-8").split("\n")
    if lines[0].split("\t") != list(COLUMNS):
        raise SentembError(f"{p}:1: expected the header {'<TAB>'.join(COLUMNS)}")
    rows = []
    for n, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        cols = line.split("\t")
        if len(cols) != 4:
            raise SentembError(f"{p}:{n}: expected 4 tab-separated columns, found {len(cols)}")
        try:
            score = float(cols[3])
        except ValueError:
            raise SentembError(f"{p}:{n}: score {cols[3]!r} is not a number") from None
        rows.append((cols[0], cols[1], cols[2], score))
    if not rows:
        raise SentembError(f"{p}: no pairs")
    return rows


DATASETS = {"sts": "STS", "sick": "SICK"}
"""The supervised tasks: their folder under data/supervised and their name in the paper."""


def build_supervised_data(raw: str | Path, config: SplitConfig, training_pairs: str | Path, out_dir: str | Path,
                          sts_groups: Sequence[str]) -> dict:
    """The splits of both tasks, written atomically as ``OUT/{sts,sick}/{train,dev,test}.tsv``: STS 2012-2015 split
    per dataset (:func:`split_datasets`), SICK's own (:func:`sick_splits`).

    Args:
        raw: the download stage's folder.
        sts_groups: the groups of the STS task (Wieting & Gimpel's STS 2012-2015,
            :data:`sentemb.papers.wieting2017.STS_GROUPS`).
        training_pairs: the paraphrastic training pairs (``data/pairs/train.tsv``); no test sentence may occur in them,
            compared as the pairs stage compares sentences (:func:`~sentemb.core.data.pairs.match_key`: case and
            punctuation ignored).

    Returns:
        The counts: for each task and split, its pairs and sets, and ``test_sentences_in_training_pairs`` (0).

    Raises:
        SentembError: a missing or malformed input, or a test sentence found in the training pairs.
    """
    data = {"sts": split_datasets(load_benchmarks(raw, list(sts_groups)), (config.train, config.dev), config.seed),
            "sick": sick_splits(Path(raw) / "sick")}
    trained = {match_key(s) for _, a, b in read_pairs(training_pairs, PAIRS_HEADER) for s in (a, b)}
    for name, splits in data.items():
        leaked = [s for _, a, b, _ in splits["test"] for s in (a, b) if match_key(s) in trained]
        if leaked:
            raise SentembError(f"{training_pairs}: {len(leaked)} {name} test sentences occur in the training pairs, "
                               f"e.g. {leaked[0]!r}")
    with atomic_path(out_dir) as tmp:
        for name, splits in data.items():
            (tmp / name).mkdir(parents=True)
            for split, rows in splits.items():
                write_split(tmp / name / f"{split}.tsv", rows)
    counts = {name: {split: {"pairs": len(rows), "sets": len({r[0] for r in rows})} for split, rows in splits.items()}
              for name, splits in data.items()}
    return counts | {"test_sentences_in_training_pairs": 0}
