"""Paraphrastic sentence encoders: Paragram-phrase (Wieting et al., ICLR 2016) and GRAN / LSTMAVG (Wieting & Gimpel,
ACL 2017), trained on paraphrase pairs with a margin loss and in-batch negatives.

- :mod:`~sentemb.paraphrastic.composition`: the encoders (AVG, PROJ, DAN, RNN, LSTM, LSTMAVG, GRAN and variants).
- :mod:`~sentemb.paraphrastic.training`: the margin loss, MAX/MIX/RAND negatives, scrambling, training with
  checkpoint selection; PARAGRAM word vectors are the same training on PPDB word pairs.
- :mod:`~sentemb.paraphrastic.model`: the saved paraphrastic model.
"""
