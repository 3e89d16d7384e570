"""Word similarity scored here against gensim's own ``KeyedVectors.evaluate_word_pairs``, on saved models.

Usage (after `dvc repro`, or in the quick look's workspace):
    python benchmarks/word_similarity_agreement.py models/glove models/word2vec-cbow models/paragram

For each word-averaging model and each dataset (SimLex-999, WordSim-353), prints Pearson's r and Spearman's ρ (×100)
from ``sentemb.core.evaluation.word_similarity.word_similarity`` (not rounded) beside gensim's over the whole
vocabulary, their differences, and the share of pairs each skipped; then the largest differences.
"""

import argparse
import warnings
from pathlib import Path

from gensim.test.utils import datapath

from sentemb.core.evaluation.word_similarity import WORD_SIMILARITY, word_similarity
from sentemb.core.models.word_averaging import load_word_vectors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", type=Path, help="word-averaging model directories")
    args = ap.parse_args()
    worst_r = worst_rho = 0.0
    print("| model | dataset | r (ours) | r (gensim) | \\|Δr\\| | \\|Δρ\\| | skipped % (ours / gensim) |")
    print("|---|---|---:|---:|---:|---:|---|")
    for directory in args.models:
        vectors = load_word_vectors(directory)
        ours = word_similarity(vectors, decimals=None)
        keyed = vectors.keyed_vectors()
        for name, file in WORD_SIMILARITY.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pearson, spearman, oov = keyed.evaluate_word_pairs(datapath(file), restrict_vocab=len(keyed))
            d_r = abs(ours[name]["pearson"] - pearson[0] * 100)
            d_rho = abs(ours[name]["spearman"] - spearman[0] * 100)
            worst_r, worst_rho = max(worst_r, d_r), max(worst_rho, d_rho)
            print(f"| {directory.name} | {name} | {ours[name]['pearson']:.6f} | {pearson[0] * 100:.6f} | {d_r:.1e} | "
                  f"{d_rho:.1e} | {ours[name]['oov_percent']:.4f} / {oov:.4f} |")
    print(f"\nlargest |difference| (×100 units): Pearson {worst_r:.1e}, Spearman {worst_rho:.1e}")


if __name__ == "__main__":
    main()
