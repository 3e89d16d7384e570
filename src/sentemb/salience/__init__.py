"""Neural Word Salience (Bollegala et al.) and the weighting baselines it is compared with.

- :mod:`~sentemb.salience.config`: the ``nws`` and ``baselines`` params sections.
- :mod:`~sentemb.salience.encoder`: fixed word vectors weighted by one learnt salience per word (Eq. 1).
- :mod:`~sentemb.salience.train`: learning the saliences with the adjacent-sentence softmax over inner products
  (Eq. 2-3) and the loop of :mod:`sentemb.adjacent_sentences`; :mod:`~sentemb.salience.fused`: its AdaGrad step
  compiled.
- :mod:`~sentemb.salience.weighting`: ISF (Eq. 13), log ISF, SIF/SMOOTH and common-component removal (Arora et
  al. 2017); :mod:`~sentemb.salience.baselines`: the models built from them without training.
- :mod:`~sentemb.salience.model`: the saved weighted-average model shared by NWS and the baselines.
- :mod:`~sentemb.salience.norms`: psycholinguistic norms and their correlation with the saliences (§4.2).
"""
