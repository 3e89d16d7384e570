"""What each paper evaluates on: the benchmark sets it reports a mean over, one module a paper, importable by every
layer above the foundations (the evaluation's metrics, a family's model selection and data, the reports).

- :mod:`.kenter2016`: Kenter et al. 2016 (Siamese CBOW), Table 1's STS 2012-2015 sets.
- :mod:`.bollegala2018`: Bollegala et al. (Neural Word Salience), the 18 sets of Tables 1-2.
- :mod:`.wieting2017`: Wieting & Gimpel 2017 (GRAN), the 22 sets of Tables 1-3 and the STS task of §4.3.

Each paper's tables and claims live in its report module (:mod:`sentemb.reporting`); its algorithms in its family.
"""

from sentemb.papers import bollegala2018, kenter2016, wieting2017

MEANS = (kenter2016.MEAN, bollegala2018.MEAN, wieting2017.MEAN)
"""The means every evaluation records (``metrics/models/MODEL.json``), in this order."""
