"""The weighted averages without training that NWS is compared with (Bollegala et al. §4.1; Arora et al. 2017): the
weights of each word from corpus statistics (:mod:`sentemb.salience.weighting`) and, for SIF + PC fitted on the
corpus, the common component, saved as a weighted-average model over a word-averaging model's vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError
from sentemb.core.models.word_averaging import load_word_vectors
from sentemb.core.text.config import TextConfig
from sentemb.salience.config import BaselinesConfig
from sentemb.salience.model import WeightedAverageModel, save_weighted_average_model
from sentemb.salience.weighting import (
    WEIGHTINGS,
    first_principal_component,
    isf_weights,
    log_isf_weights,
    sif_weights,
    usif_weights,
)


def check_weighting(weighting: str) -> None:
    """Raises SentembError: ``weighting`` is not one of :data:`WEIGHTINGS`."""
    if weighting not in WEIGHTINGS:
        raise SentembError(f"unknown weighting {weighting!r} (expected one of {', '.join(WEIGHTINGS)})")


def build_baseline(directory: str | Path, vectors_model: str | Path, weighting: str, vocab: Vocabulary,
                   corpus: TokenCorpus, config: BaselinesConfig, text: TextConfig) -> dict:
    """Save the weighted-average model ``weighting`` over the vectors of ``vectors_model`` into ``directory``.

    ``weighting``: ``isf`` (1/sf(w), NWS paper Eq. 13), ``isf-log`` (log N/sf(w)), ``sif`` (a/(a + p(w)), the NWS
    paper's SMOOTH), ``sif-pc`` (SIF with the first principal component removed, fitted on each evaluation set as the
    SIF authors' code does), ``sif-pc-corpus`` (the same component fitted once, on ``config.component_sentences``
    training sentences drawn with ``config.seed``: what a deployed model can do, and the control for the per-set
    fit's use of the test sentences) or ``usif`` (Ethayarajh 2018: a/(a/2 + p(w)), each dimension of a sentence's
    word vectors normalised over the sentence when ``config.usif_normalisation`` is ``per_dimension`` (the authors'
    code), the first ``config.usif_components`` components removed per evaluation set, each weighted by its singular
    value's share).

    Returns:
        What the model records (``info``): the weighting and its statistics.

    Raises:
        SentembError: an unknown weighting, or word vectors that cannot be read.
    """
    check_weighting(weighting)
    vectors = load_word_vectors(vectors_model)
    info: dict = {"weighting": weighting}
    if weighting.startswith("isf"):
        sf = corpus.sentence_frequencies(len(vocab))
        n = corpus.n_sentences
        weights = isf_weights(sf) if weighting == "isf" else log_isf_weights(sf, n)
        info |= {"sentences": n}
    elif weighting == "usif":
        mean_length = float(corpus.lengths.mean())
        weights, a = usif_weights(vocab.counts, mean_length)
        info |= {"a": a, "mean_length": round(mean_length, 4), "components": config.usif_components,
                 "normalisation": config.usif_normalisation}
    else:
        weights = sif_weights(vocab.counts, config.sif_a)
        info |= {"a": config.sif_a}
    fit = {"sif-pc": "per_set", "sif-pc-corpus": "corpus", "usif": "per_set"}.get(weighting, "none")
    component, m = None, config.usif_components if weighting == "usif" else 1
    if fit != "none":
        info |= {"component_fit": fit}
    if fit == "corpus":
        rng = np.random.default_rng(config.seed)
        sample = rng.choice(corpus.n_sentences, size=min(config.component_sentences, corpus.n_sentences),
                            replace=False)
        order = np.array([vectors.index[w] for w in vocab.words])  # vocabulary id → row of the vectors
        q = np.zeros(len(vectors), dtype=np.float32)
        q[order] = weights
        model = WeightedAverageModel(Path(directory).name, vectors, q, text)
        component = first_principal_component(
            model.weighted_average_ids([order[corpus.sentence(s)] for s in np.sort(sample)]))
        info |= {"component_sentences": len(sample)}
    save_weighted_average_model(directory, Path(directory).name, vectors_model, vocab.words, weights, text,
                                weighting, fit, info, component=component, components=m,
                                component_weighting="singular_values" if weighting == "usif" else "unit",
                                normalisation=config.usif_normalisation if weighting == "usif" else "none")
    return info
