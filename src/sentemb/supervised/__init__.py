"""Supervised relatedness (Wieting & Gimpel 2017 §4.3, Tables 5, 6 and 8): a sentence encoder and Tai et al. 2015's head
trained on STS 2012-2015 and SICK.

- :mod:`.config`: the ``supervised`` params section.
- :mod:`.data`: the splits (STS per dataset 40/10/50, SICK's own).
- :mod:`.similarity`: the head, the sparse target distribution and the KL loss (Tai et al. Eq. 6).
- :mod:`.training`: training on one task with dev selection; :mod:`.tasks`: both tasks for one encoder.
"""
