"""pairs: paraphrase training pairs → data/pairs/train.tsv (source, sentence1, sentence2; tokenised), the PPDB XL
lexical word pairs → data/pairs/ppdb-lexical.tsv, the model-selection sets tokenised → data/pairs/selection.tsv, and
the counts per source → metrics/pairs.json (sentemb.core.data.pairs.prepare_pairs; the selection sets: Wieting &
Gimpel's, sentemb.papers.wieting2017)."""

from _common import corpus_text, params, run

from sentemb.core.atomic import write_json
from sentemb.core.data.config import PairsConfig
from sentemb.core.data.pairs import prepare_pairs
from sentemb.papers import wieting2017


def main() -> None:
    counts = prepare_pairs("data/raw", params("pairs", PairsConfig), corpus_text(), "data/pairs",
                           wieting2017.SELECTION_GROUPS)
    write_json("metrics/pairs.json", counts)
    for name, c in counts["sources"].items():
        print(f"pairs {name}: {c['positives']} positives, {c['identical']} identical, {c['duplicates']} duplicates, "
              f"{c['evaluation_overlap']} in evaluation sets, {c['kept']} kept")
    print(f"pairs: {counts['total']['kept']} training pairs, {counts['ppdb_lexical_pairs']} PPDB lexical word pairs")


if __name__ == "__main__":
    run(main)
