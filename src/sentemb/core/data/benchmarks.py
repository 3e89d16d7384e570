"""The evaluation benchmarks in their official file formats (the sets each paper averages over: :mod:`sentemb.papers`).

Datasets and their quirks (see the data PROVENANCE): STS 2012-2015 inputs ``s1<TAB>s2``, gold one score a line;
2015/2016 gold files have an empty line for every unscored pair (dropped, never scored as 0); 2016 inputs have four
columns (two source notes, unused); STS Benchmark is tab-separated with extra columns on some rows and unbalanced
quotes (split on tabs, no CSV quoting); the SICK test file has CRLF line endings; PIT-2015 (SemEval-2015 Task 1)
test pairs are scored against the graded expert label of ``test.label`` (0-1), debatable pairs kept, as the task's
semantic-similarity evaluation does. STS 2013 SMT is distributed by LDC only and is absent: 2013 has three sets
here, the papers' "20 sets" are 19.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sentemb.core.atomic import read_json, write_json
from sentemb.core.errors import SentembError

STS_YEARS = {"STS12": "2012", "STS13": "2013", "STS14": "2014", "STS15": "2015", "STS16": "2016"}


@dataclass
class STSDataset:
    """Sentence pairs with gold similarity scores.

    Attributes:
        group: ``STS12`` … ``STS16``, ``SICK-R`` or ``STS-B``.
        name: dataset name as the papers print it (``MSRpar``, ``OnWN`` for 2012 ``surprise.OnWN``, ``test``…).
        sentences1, sentences2: the raw sentences.
        gold: float64, shape (n,): gold scores (0-5 for STS, 1-5 for SICK).
        path: the input file.
    """

    group: str
    name: str
    sentences1: list[str]
    sentences2: list[str]
    gold: np.ndarray
    path: str

    @property
    def key(self) -> str:
        return f"{self.group}.{self.name}"

    def __len__(self) -> int:
        return len(self.gold)


# The scale of each benchmark's gold scores (inclusive): a score outside it, or NaN, is a corrupt file.
GOLD_RANGE = {"STS": (0.0, 5.0), "SICK-R": (1.0, 5.0), "STS-B": (0.0, 5.0), "PIT-2015": (0.0, 1.0)}


def _lines(path: Path) -> list[str]:
    if not path.is_file():
        raise SentembError(f"{path}: missing file")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise SentembError(f"{path}:{line}: not UTF-8 (byte {data[e.start]:#04x} at offset {e.start})") from None
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")  # a byte-order mark is no text
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _check_score(score: float, scale: str, path: Path, line: int) -> None:
    low, high = GOLD_RANGE[scale]
    if not low <= score <= high:  # NaN fails both comparisons
        raise SentembError(f"{path}:{line}: gold score {score!r} outside the {scale} scale [{low:g}, {high:g}]")


def _dataset(group: str, name: str, s1: list[str], s2: list[str], gold: list[float], *paths: Path) -> STSDataset:
    if not gold:
        raise SentembError(f"{' + '.join(map(str, paths))}: no scored sentence pair ({group} {name})")
    return STSDataset(group, name, s1, s2, np.asarray(gold, dtype=np.float64), str(paths[0]))


def read_sts_pairs(input_path: str | Path, gold_path: str | Path, group: str, name: str) -> STSDataset:
    """One SemEval STS dataset (2012-2016 layout): pairs whose gold line is empty are dropped.

    Raises:
        SentembError: a missing file, an input line with fewer than two tab-separated columns, a gold line that
            is not a number, or files of different lengths (each named with file and line).
            Invalid UTF-8 (file and line), a gold score outside :data:`GOLD_RANGE` or NaN, and a file with no scored
            pair are refused too.
    """
    inp, gs = Path(input_path), Path(gold_path)
    scale = "STS-B" if group == "STS-B" else "STS"
    in_lines, gold_lines = _lines(inp), _lines(gs)
    if len(in_lines) != len(gold_lines):
        raise SentembError(f"{inp}: {len(in_lines)} pairs but {gs} has {len(gold_lines)} gold lines")
    s1, s2, gold = [], [], []
    for n, (line, g) in enumerate(zip(in_lines, gold_lines, strict=True), start=1):
        g = g.strip()
        if not g:
            continue
        try:
            score = float(g)
        except ValueError:
            raise SentembError(f"{gs}:{n}: gold score {g!r} is not a number") from None
        _check_score(score, scale, gs, n)
        cols = line.split("\t")
        if len(cols) < 2:
            raise SentembError(f"{inp}:{n}: expected two tab-separated sentences, found {len(cols)} column")
        s1.append(cols[0])
        s2.append(cols[1])
        gold.append(score)
    return _dataset(group, name, s1, s2, gold, inp, gs)


def read_sick(path: str | Path, name: str = "test") -> STSDataset:
    """SICK (SemEval-2014 Task 1) relatedness: header, then ``pair_ID sentence_A sentence_B relatedness_score
    entailment_judgment`` tab-separated (CRLF in the test file).

    Raises:
        SentembError: a missing file, a wrong header, a short line or a non-numeric score (file and line named).
            Invalid UTF-8 (file and line), a gold score outside :data:`GOLD_RANGE` or NaN, and a file with no scored
            pair are refused too.
    """
    p = Path(path)
    lines = _lines(p)
    if not lines or not lines[0].startswith("pair_ID\tsentence_A\tsentence_B\trelatedness_score"):
        raise SentembError(
            f"{p}:1: expected the SICK header 'pair_ID<TAB>sentence_A<TAB>sentence_B<TAB>relatedness_score'"
        )
    s1, s2, gold = [], [], []
    for n, line in enumerate(lines[1:], start=2):
        cols = line.split("\t")
        if len(cols) < 4:
            raise SentembError(f"{p}:{n}: expected at least 4 tab-separated columns, found {len(cols)}")
        try:
            gold.append(float(cols[3]))
        except ValueError:
            raise SentembError(f"{p}:{n}: relatedness score {cols[3]!r} is not a number") from None
        _check_score(gold[-1], "SICK-R", p, n)
        s1.append(cols[1])
        s2.append(cols[2])
    return _dataset("SICK-R", name, s1, s2, gold, p)


def read_stsb(path: str | Path, name: str) -> STSDataset:
    """STS Benchmark: ``genre file year id score s1 s2 [source1 source2]``, split on tabs only.

    Raises:
        SentembError: a missing file, a line with fewer than 7 columns or a non-numeric score.
            Invalid UTF-8 (file and line), a gold score outside :data:`GOLD_RANGE` or NaN, and a file with no scored
            pair are refused too.
    """
    p = Path(path)
    s1, s2, gold = [], [], []
    for n, line in enumerate(_lines(p), start=1):
        cols = line.split("\t")
        if len(cols) < 7:
            raise SentembError(f"{p}:{n}: expected at least 7 tab-separated columns, found {len(cols)}")
        try:
            gold.append(float(cols[4]))
        except ValueError:
            raise SentembError(f"{p}:{n}: score {cols[4]!r} is not a number") from None
        _check_score(gold[-1], "STS-B", p, n)
        s1.append(cols[5])
        s2.append(cols[6])
    return _dataset("STS-B", name, s1, s2, gold, p)


def read_pit2015(data_path: str | Path, label_path: str | Path, name: str = "test") -> STSDataset:
    """PIT-2015 (SemEval-2015 Task 1, Xu et al. 2015) test pairs with the graded similarity of ``test.label``.

    ``test.data`` lines are ``Topic_Id Topic_Name Sent_1 Sent_2 Label Sent_1_tag Sent_2_tag``; ``test.label`` lines
    are ``true|false|----<TAB>score`` with score = expert label / 5 in [0, 1]. Every pair is kept (the task's
    semantic-similarity evaluation keeps the debatable ones).

    Raises:
        SentembError: a missing file, files of different lengths, a short line or a non-numeric score.
            Invalid UTF-8 (file and line), a gold score outside :data:`GOLD_RANGE` or NaN, and a file with no scored
            pair are refused too.
    """
    dp, lp = Path(data_path), Path(label_path)
    data, labels = _lines(dp), _lines(lp)
    if len(data) != len(labels):
        raise SentembError(f"{dp}: {len(data)} pairs but {lp} has {len(labels)} labels")
    s1, s2, gold = [], [], []
    for n, (line, label) in enumerate(zip(data, labels, strict=True), start=1):
        cols, lab = line.split("\t"), label.split("\t")
        if len(cols) < 4:
            raise SentembError(f"{dp}:{n}: expected at least 4 tab-separated columns, found {len(cols)}")
        try:
            gold.append(float(lab[1]))
        except (IndexError, ValueError):
            raise SentembError(f"{lp}:{n}: expected 'true|false|----<TAB>score', got {label!r}") from None
        _check_score(gold[-1], "PIT-2015", lp, n)
        s1.append(cols[2])
        s2.append(cols[3])
    return _dataset("PIT-2015", name, s1, s2, gold, dp, lp)


_STS_INPUT = re.compile(r"^STS(?:2016)?\.input\.(?P<name>.+)\.txt$")


def sts_year(directory: str | Path, group: str) -> list[STSDataset]:
    """Every dataset of one STS year directory: each ``STS.input.X.txt`` (or ``STS2016.input.X.txt``) with its
    gold file; a gold file without input (2013 SMT) is skipped.

    Raises:
        SentembError: a missing directory, no dataset in it, or an input without its gold file.
    """
    d = Path(directory)
    if not d.is_dir():
        raise SentembError(f"{d}: missing STS directory for {group}")
    out = []
    for f in sorted(d.iterdir(), key=lambda x: x.name.lower()):
        m = _STS_INPUT.match(f.name)
        if not m:
            continue
        raw = m.group("name")
        gold = f.with_name(f.name.replace(".input.", ".gs."))
        if not gold.is_file():
            raise SentembError(f"{f}: gold file {gold.name} is missing")
        out.append(read_sts_pairs(f, gold, group, raw.removeprefix("surprise.")))
    if not out:
        raise SentembError(f"{d}: no STS.input.*.txt files for {group}")
    return out


BENCHMARKS = (*STS_YEARS, "SICK-R", "STS-B", "PIT-2015")


def read_pairs_tsv(path: str | Path, scale: tuple[float, float] | None = None) -> STSDataset:
    """A researcher's own scored pairs: UTF-8 lines ``sentence1<TAB>sentence2<TAB>gold``, the first line a header when
    its third field is not a number; evaluated as one dataset (group ``pairs``, named after the file).

    Args:
        scale: the gold scale (low, high), inclusive; every score is checked against it. ``None``: the scale is the
            range of the scores found, which must not be a single value.

    Raises:
        SentembError: a missing or non-UTF-8 file, a line without three tab-separated fields, a gold score that is
            not a number or lies outside ``scale``, a scale with low ≥ high, fewer than two pairs, or constant gold
            scores (each naming the file and line).
    """
    p = Path(path)
    if scale is not None and not scale[0] < scale[1]:
        raise SentembError(f"--scale: expected LOW < HIGH, got {scale[0]:g} {scale[1]:g}")
    lines = _lines(p)
    s1, s2, gold = [], [], []
    for n, line in enumerate(lines, start=1):
        cols = line.split("\t")
        if len(cols) != 3:
            raise SentembError(f"{p}:{n}: expected sentence1<TAB>sentence2<TAB>gold, found {len(cols)} tab-separated "
                               "fields")
        try:
            score = float(cols[2])
        except ValueError:
            if n == 1:
                continue  # a header
            raise SentembError(f"{p}:{n}: gold score {cols[2]!r} is not a number") from None
        if not math.isfinite(score):
            raise SentembError(f"{p}:{n}: gold score {cols[2].strip()!r} is not a finite number")
        if scale is not None and not scale[0] <= score <= scale[1]:
            raise SentembError(f"{p}:{n}: gold score {score:g} outside the scale [{scale[0]:g}, {scale[1]:g}]")
        s1.append(cols[0])
        s2.append(cols[1])
        gold.append(score)
    if len(gold) < 2:
        raise SentembError(f"{p}: {len(gold)} scored pair(s); a correlation needs at least 2")
    if min(gold) == max(gold):
        raise SentembError(f"{p}: every gold score is {gold[0]:g}; a correlation needs scores that differ")
    return _dataset("pairs", p.stem, s1, s2, gold, p)


def load_benchmarks(raw_dir: str | Path, groups: list[str] | tuple[str, ...] = BENCHMARKS) -> list[STSDataset]:
    """Load benchmark groups from the download stage's layout (``sts/2012`` … ``sick/`` ``stsbenchmark/``).

    SICK-R is the SICK test set (4,927 pairs); STS-B is its dev (1,500) and test (1,379) sets; PIT-2015 is the
    PIT-2015 test set (972 pairs).

    Raises:
        SentembError: an unknown group name or a missing/malformed file.
    """
    root = Path(raw_dir)
    out: list[STSDataset] = []
    for g in groups:
        if g in STS_YEARS:
            out += sts_year(root / "sts" / STS_YEARS[g], g)
        elif g == "SICK-R":
            out.append(read_sick(root / "sick" / "SICK_test_annotated.txt"))
        elif g == "STS-B":
            out += [read_stsb(root / "stsbenchmark" / f"sts-{s}.csv", s) for s in ("dev", "test")]
        elif g == "PIT-2015":
            out.append(read_pit2015(root / "pit2015" / "test.data", root / "pit2015" / "test.label"))
        else:
            raise SentembError(f"evaluate.benchmarks: unknown benchmark {g!r} (expected one of {BENCHMARKS})")
    return out


def write_benchmark_sets(path: str | Path, datasets: list[STSDataset]) -> None:
    """The datasets as read (sentences, gold scores, where each came from), in order, as one JSON file written
    atomically: what every evaluation reads, so that it depends on one prepared input rather than on the raw files
    (the benchmark-tokens stage writes it beside the token cache). Gold scores round-trip exactly (JSON floats)."""
    write_json(path, [{"group": d.group, "name": d.name, "path": d.path, "sentences1": d.sentences1,
                       "sentences2": d.sentences2, "gold": [float(g) for g in d.gold]} for d in datasets])


def read_benchmark_sets(path: str | Path) -> list[STSDataset]:
    """The datasets of :func:`write_benchmark_sets`, in its order.

    Raises:
        SentembError: a missing file (naming the stage that writes it) or one that is not such a file.
    """
    data = read_json(path, "missing benchmark sets (run `dvc repro benchmark-tokens`)")
    try:
        return [STSDataset(d["group"], d["name"], list(d["sentences1"]), list(d["sentences2"]),
                           np.asarray(d["gold"], dtype=np.float64), d["path"]) for d in data]
    except (KeyError, TypeError, ValueError) as e:
        raise SentembError(f"{path}: not a file of benchmark sets written by benchmark-tokens ({e})") from None


def evaluation_sentences(raw_dir: str | Path) -> Iterator[str]:
    """Every sentence of every evaluation file in the download stage's layout, scored or not: STS 2012-2016 (and
    the 2012 train sets when present), SICK train/trial/test, STS Benchmark train/dev/test, PIT-2015 dev/test.
    Used to keep evaluation sentences out of training data.

    Raises:
        SentembError: a missing or malformed file.
    """
    root = Path(raw_dir)
    for d in sorted((root / "sts").iterdir()):
        for f in sorted(d.glob("STS*.input.*.txt")):
            for line in _lines(f):
                yield from line.split("\t")[:2]
    for f in ("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt"):
        ds = read_sick(root / "sick" / f)
        yield from ds.sentences1 + ds.sentences2
    for s in ("train", "dev", "test"):
        ds = read_stsb(root / "stsbenchmark" / f"sts-{s}.csv", s)
        yield from ds.sentences1 + ds.sentences2
    for f in ("dev.data", "test.data"):
        for n, line in enumerate(_lines(root / "pit2015" / f), start=1):
            cols = line.split("\t")
            if len(cols) < 4:
                raise SentembError(f"{root / 'pit2015' / f}:{n}: expected at least 4 tab-separated columns")
            yield from cols[2:4]

