"""baseline@VECTORS-WEIGHTING: a weighted average over the fixed vectors of models/VECTORS, weights from corpus
statistics, no training → models/VECTORS-WEIGHTING/ (NWS paper §4.1; Arora et al. 2017).

WEIGHTING is one of isf (1/sf), isf-log (log N/sf), sif (a/(a+p(w)), the NWS paper's SMOOTH) and sif-pc (SIF with the
first principal component removed, fitted per evaluation set or once on training sentences: `baselines`).
"""

from pathlib import Path

import numpy as np

from sentemb.corpus import TokenCorpus
from sentemb.errors import SentembError
from sentemb.models import load_model, save_weighted_average_model
from sentemb.vocab import Vocabulary
from sentemb.weighting import (
    WEIGHTINGS,
    first_principal_component,
    isf_weights,
    log_isf_weights,
    sentence_frequencies,
    sif_weights,
)

from _common import params, run


def main(vectors_name: str, weighting: str) -> None:
    if weighting not in WEIGHTINGS:
        raise SentembError(f"unknown weighting {weighting!r} (expected one of {', '.join(WEIGHTINGS)})")
    p = params("baselines")
    name = f"{vectors_name}-{weighting}"
    vocab = Vocabulary.load("data/vocab.tsv")
    base = load_model(Path("models") / vectors_name)
    info: dict = {"weighting": weighting}
    if weighting.startswith("isf"):
        corpus = TokenCorpus.load("data/corpus")
        sf = sentence_frequencies(corpus, len(vocab))
        n = corpus.n_sentences
        weights = isf_weights(sf) if weighting == "isf" else log_isf_weights(sf, n)
        info |= {"sentences": n}
    else:
        weights = sif_weights(vocab.counts, p.sif_a)
        info |= {"a": p.sif_a}
    fit, component = "none", None
    if weighting == "sif-pc":
        fit = p.component_fit
        info |= {"component_fit": fit}
        if fit == "corpus":
            corpus = TokenCorpus.load("data/corpus")
            rng = np.random.default_rng(p.seed)
            sample = rng.choice(corpus.n_sentences, size=min(p.component_sentences, corpus.n_sentences), replace=False)
            kv = base.vectors
            q = np.zeros(len(kv), dtype=np.float32)  # the weights in the vectors' order, as the model applies them
            order = np.array([kv.key_to_index[w] for w in vocab.words])
            q[order] = weights
            emb = np.zeros((len(sample), kv.vector_size), dtype=np.float32)
            for row, s in enumerate(np.sort(sample)):
                ids = order[corpus.sentence(s)]
                if len(ids):
                    emb[row] = q[ids] @ kv.vectors[ids] / len(ids)  # Eq. 1, as WeightedAverageModel.encode
            component = first_principal_component(emb)
            info |= {"component_sentences": len(sample)}
    save_weighted_average_model(f"models/{name}", name, Path("models") / vectors_name, vocab.words, weights,
                                vocab.counts, base.text, weighting=weighting, component_fit=fit, component=component,
                                info=info)
    print(f"baseline {name}: {info}")


if __name__ == "__main__":
    run(main)
