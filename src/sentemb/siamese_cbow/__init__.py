"""Siamese CBOW (Kenter et al., ACL 2016): word vectors trained so that the average of a sentence's vectors predicts
its adjacent sentences.

- :mod:`~sentemb.siamese_cbow.config`: the ``model`` and ``controls`` params sections.
- :mod:`~sentemb.siamese_cbow.encoder`: the averaging encoder (§2.2).
- :mod:`~sentemb.siamese_cbow.train`: training on the sentence-ordered corpus with the objective of
  :mod:`sentemb.adjacent_sentences` (§2.1, §3.4); the result is a word-averaging model.
- :mod:`~sentemb.siamese_cbow.fused`, :mod:`~sentemb.siamese_cbow.fused_torch`: the SGD step compiled on the CPU, and
  as one CUDA graph on a GPU.
- :mod:`~sentemb.siamese_cbow.controls`: the untrained controls (how much of a score training adds).
"""
