"""supervised-data: the supervised relatedness datasets of Wieting & Gimpel 2017 §4.3 (params ``supervised.split``):
every STS 2012-2015 dataset split train / dev / test by a seeded permutation (the paper: 40 / 10 / 50), SICK's own
splits → data/supervised/{sts,sick}/{train,dev,test}.tsv, the counts → metrics/supervised-data.json. Fails if a test
sentence occurs in the paraphrastic training pairs (sentemb.supervised.data.build_supervised_data)."""

from _common import params, run

from sentemb.core.atomic import write_json
from sentemb.papers import wieting2017
from sentemb.supervised.config import SplitConfig
from sentemb.supervised.data import build_supervised_data


def main() -> None:
    counts = build_supervised_data("data/raw", params("supervised.split", SplitConfig), "data/pairs/train.tsv",
                                   "data/supervised", wieting2017.STS_GROUPS)
    write_json("metrics/supervised-data.json", counts)
    for name, c in counts.items():
        if isinstance(c, dict):
            print(f"supervised-data {name}: " + ", ".join(f"{s} {v['pairs']:,} pairs ({v['sets']} sets)"
                                                          for s, v in c.items()))


if __name__ == "__main__":
    run(main)
