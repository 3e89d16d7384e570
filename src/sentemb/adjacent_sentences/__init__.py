"""The adjacent-sentence objective shared by Siamese CBOW (Kenter et al. 2016) and Neural Word Salience (Bollegala et
al.): predict a sentence's previous and next sentence among random ones from an encoding of each.

- :mod:`.config`: the settings both share (:class:`~.config.AdjacentSentenceConfig`).
- :mod:`.batch`: sentences as concatenated token ids (:class:`~.batch.TokenBatch`).
- :mod:`.sampling`: the training tuples and their negatives, from the corpus or the batch.
- :mod:`.loss`: the softmax over the candidates' similarities and its cross-entropy.
- :mod:`.loop`: the batches, the learning-rate schedule and the steps (torch's autograd, or a family's fused step),
  run by the training skeleton (:mod:`sentemb.core.training`).
- :mod:`.kernels`: the compiled (numba) pieces the families' compiled steps share.
"""
