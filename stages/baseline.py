"""baseline@VECTORS-WEIGHTING: a weighted average over the fixed vectors of models/VECTORS, weights from corpus
statistics, no training → models/VECTORS-WEIGHTING/ (NWS paper §4.1; Arora et al. 2017).

WEIGHTING is one of isf (1/sf), isf-log (log N/sf), sif (a/(a+p(w)), the NWS paper's SMOOTH) and sif-pc (SIF with the
first principal component removed, fitted per evaluation set or once on training sentences: `baselines`).
"""

from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import PositiveFloat, PositiveInt

from sentemb.data.corpus import TokenCorpus
from sentemb.data.vocab import Vocabulary
from sentemb.errors import SentembError
from sentemb.models import load_word_vectors
from sentemb.salience.model import WeightedAverageModel, save_weighted_average_model
from sentemb.salience.weighting import (
    WEIGHTINGS,
    first_principal_component,
    isf_weights,
    log_isf_weights,
    sif_weights,
)

from _common import Section, Seed, params, run, text_config


class Baselines(Section):
    sif_a: PositiveFloat = 1e-3
    component_fit: Literal["per_set", "corpus"] = "per_set"
    component_sentences: PositiveInt = 100_000
    seed: Seed = 1


def main(vectors_name: str, weighting: str) -> None:
    if weighting not in WEIGHTINGS:
        raise SentembError(f"unknown weighting {weighting!r} (expected one of {', '.join(WEIGHTINGS)})")
    p = params("baselines", Baselines)
    name = f"{vectors_name}-{weighting}"
    vocab = Vocabulary.load("data/vocab.tsv")
    kv = load_word_vectors(Path("models") / vectors_name)
    info: dict = {"weighting": weighting}
    if weighting.startswith("isf"):
        corpus = TokenCorpus.load("data/corpus")
        sf = corpus.sentence_frequencies(len(vocab))
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
            order = np.array([kv.key_to_index[w] for w in vocab.words])  # vocabulary id → row of the vectors
            q = np.zeros(len(kv), dtype=np.float32)
            q[order] = weights
            model = WeightedAverageModel(name, kv, q, text_config())
            emb = model.weighted_average_ids([order[corpus.sentence(s)] for s in np.sort(sample)])
            component = first_principal_component(emb)
            info |= {"component_sentences": len(sample)}
    save_weighted_average_model(f"models/{name}", name, Path("models") / vectors_name, vocab.words, weights,
                                vocab.counts, text_config(), weighting=weighting, component_fit=fit,
                                component=component, info=info)
    print(f"baseline {name}: {info}")


if __name__ == "__main__":
    run(main)
