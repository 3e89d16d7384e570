"""Siamese CBOW (Kenter et al., ACL 2016): word vectors trained so that the average of a sentence's vectors predicts
its adjacent sentences.

- :mod:`~sentemb.siamese_cbow.encoder`: the averaging encoder (§2.2).
- :mod:`~sentemb.siamese_cbow.train`: training on the sentence-ordered corpus with the loss and loop of
  :mod:`sentemb.adjacent` (§2.1, §3.4); the result is a word-averaging model (:mod:`sentemb.models`).
"""
