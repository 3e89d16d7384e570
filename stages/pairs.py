"""pairs: paraphrase training pairs → data/pairs/train.tsv (source, sentence1, sentence2; tokenised), the PPDB XL
lexical word pairs → data/pairs/ppdb-lexical.tsv, the model-selection sets (STS 2016, and the 22 sets of Wieting &
Gimpel for the "oracle" mode) tokenised → data/pairs/selection.tsv, and the counts per source → metrics/pairs.json."""

from itertools import islice
from pathlib import Path
from typing import Literal

from pydantic import Field, PositiveInt

from sentemb.atomic import atomic_path, write_json
from sentemb.data.benchmarks import GRAN_GROUPS, evaluation_sentences, load_benchmarks
from sentemb.data.pairs import READERS, build_training_pairs, read_ppdb_lexical, read_twitter_url, write_pairs
from sentemb.text import tokenize

from _common import Section, params, run, text_config


class Pairs(Section):
    sources: list[Literal["twitter-url", "msrp", "turkcorpus"]] = Field(min_length=1)
    twitter_min_votes: int = Field(4, ge=0, le=6)
    max_pairs: PositiveInt | None = None

RAW = Path("data/raw")


def main() -> None:
    p = params("pairs", Pairs)
    text = text_config()
    sources = {n: islice(read_twitter_url(RAW, p.twitter_min_votes) if n == "twitter-url" else READERS[n](RAW),
                         p.max_pairs) for n in p.sources}
    sentences = list(evaluation_sentences(RAW))
    pairs, stats = build_training_pairs(sources, sentences, text)
    lexical = read_ppdb_lexical(RAW)[: p.max_pairs]
    selection = [(ds.key, " ".join(tokenize(a, text)), " ".join(tokenize(b, text)), repr(float(g)))
                 for ds in load_benchmarks(RAW, ["STS16", *GRAN_GROUPS]) for a, b, g in
                 zip(ds.sentences1, ds.sentences2, ds.gold, strict=True)]
    with atomic_path("data/pairs") as tmp:
        tmp.mkdir(parents=True)
        write_pairs(tmp / "train.tsv", ("source", "sentence1", "sentence2"), pairs.itertuples(index=False))
        write_pairs(tmp / "ppdb-lexical.tsv", ("word1", "word2"), lexical)
        write_pairs(tmp / "selection.tsv", ("set", "sentence1", "sentence2", "gold"), selection)
    total = {k: sum(s.to_dict()[k] for s in stats.values()) for k in next(iter(stats.values())).to_dict()}
    write_json("metrics/pairs.json", {"sources": {n: s.to_dict() for n, s in stats.items()}, "total": total,
                                      "evaluation_sentences": len(sentences), "ppdb_lexical_pairs": len(lexical),
                                      "tokens_per_sentence": round(
                                          float(pairs[["sentence1", "sentence2"]].stack().str.count(" ").mean() + 1),
                                          2)})
    for n, s in stats.items():
        print(f"pairs {n}: {s.positives} positives, {s.identical} identical, {s.duplicates} duplicates, "
              f"{s.evaluation_overlap} in evaluation sets (e.g. {s.overlap_examples[:1]}), {s.kept} kept")
    print(f"pairs: {len(pairs)} training pairs, {len(lexical)} PPDB lexical word pairs")


if __name__ == "__main__":
    run(main)
