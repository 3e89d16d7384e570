"""Supervised semantic relatedness on top of any sentence encoder (Tai et al. 2015; Wieting & Gimpel 2017 §4.3).

- :mod:`~sentemb.supervised.similarity`: the relatedness head, the sparse score distribution and the KL loss.
- :mod:`~sentemb.supervised.data`: SICK's splits and the 40 / 10 / 50 split of every STS 2012-2015 dataset.
- :mod:`~sentemb.supervised.training`: training encoder and head with dev selection, in the three settings of
  Wieting & Gimpel's Table 8 (random, initialised from the transfer model, and initialised + regularised to it).
"""
