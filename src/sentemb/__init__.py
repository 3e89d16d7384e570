"""sentemb: averaging-based sentence encoders (Siamese CBOW, Neural Word Salience, the paraphrastic encoders of
Wieting et al.) and their STS evaluation.

The foundations (``core``: errors, atomic writes, config schemas, tokenisation, runtime, optimisers, data, the saved-
model format, the STS evaluation) are shared; above them the word vectors (``wordvectors``), the adjacent-sentence
objective (``adjacent_sentences``), one package per paper family (``siamese_cbow``, ``salience``, ``paraphrastic``,
``supervised``), which imports only what lies below it and never another family, then ``reporting`` (a report per
paper), ``inference`` and the interfaces (``cli``, ``senteval``).

This file holds no code but the version (tests/test_layout.py checks it): no pipeline stage depends on it.
"""

__version__ = "0.1.0"
