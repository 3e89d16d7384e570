"""supervised-data: the supervised relatedness datasets of Wieting & Gimpel 2017 §4.3 (params ``supervised.split``).

- STS: every STS 2012-2015 dataset split train / dev / test by a seeded permutation (the paper: 40 / 10 / 50);
- SICK: its own train / trial / test files;

→ data/supervised/{sts,sick}/{train,dev,test}.tsv (set, sentence1, sentence2, score: raw text, published gold), the
counts → metrics/supervised-data.json. Fails if a test sentence occurs in the paraphrastic training pairs
(data/pairs/train.tsv), compared as the pairs stage compares them (``match_key``: case and punctuation ignored).
"""

from pathlib import Path

from pydantic import Field

from sentemb.atomic import atomic_path, write_json
from sentemb.data.benchmarks import KENTER_GROUPS, load_benchmarks
from sentemb.data.pairs import match_key, read_pairs
from sentemb.errors import SentembError
from sentemb.supervised.data import sick_splits, split_datasets, write_split

from _common import Section, Seed, params, run

RAW = Path("data/raw")
OUT = Path("data/supervised")


class Split(Section):
    seed: Seed = 1
    train: float = Field(0.4, gt=0, lt=1)
    dev: float = Field(0.1, gt=0, lt=1)


def main() -> None:
    p = params("supervised.split", Split)
    if p.train + p.dev >= 1:
        raise SentembError(f"params.yaml: supervised.split.train + supervised.split.dev must leave a test share "
                           f"(got {p.train} + {p.dev})")
    data = {"sts": split_datasets(load_benchmarks(RAW, KENTER_GROUPS), (p.train, p.dev), p.seed),
            "sick": sick_splits(RAW / "sick")}
    trained = {match_key(s) for _, a, b in read_pairs("data/pairs/train.tsv", ("source", "sentence1", "sentence2"))
               for s in (a, b)}
    for name, splits in data.items():
        leaked = [s for _, a, b, _ in splits["test"] for s in (a, b) if match_key(s) in trained]
        if leaked:
            raise SentembError(f"supervised-data: {len(leaked)} {name} test sentences occur in data/pairs/train.tsv, "
                               f"e.g. {leaked[0]!r}")
    with atomic_path(OUT) as tmp:
        for name, splits in data.items():
            (tmp / name).mkdir(parents=True)
            for split, rows in splits.items():
                write_split(tmp / name / f"{split}.tsv", rows)
    counts = {name: {split: {"pairs": len(rows), "sets": len({r[0] for r in rows})} for split, rows in splits.items()}
              for name, splits in data.items()}
    write_json("metrics/supervised-data.json", counts | {"test_sentences_in_training_pairs": 0})
    for name, c in counts.items():
        print(f"supervised-data {name}: " + ", ".join(f"{s} {v['pairs']:,} pairs ({v['sets']} sets)"
                                                      for s, v in c.items()))


if __name__ == "__main__":
    run(main)
