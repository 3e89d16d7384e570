"""The paraphrastic encoders of Wieting et al. 2016 (Paragram-phrase: AVG, PROJ, DAN, RNN, LSTM) and Wieting & Gimpel
2017 (LSTMAVG, GRAN and their variants), trained on paraphrase pairs with the margin loss and in-batch negatives.

- :mod:`.config`: the ``paraphrastic.NAME`` params section, and the composition a saved model records.
- :mod:`.composition`: the encoders over padded batches of token ids; :mod:`.peephole`, :mod:`.peephole_cpu`,
  :mod:`.gated_mean`: the LSTM's and GRAN's steps with their backward passes written out (compiled on the CPU).
- :mod:`.training`: negatives, the margin loss, scrambling, the training loop and model selection.
- :mod:`.data`: the pairs and selection data as token ids; :mod:`.model`: the saved model, which encodes with
  :mod:`.inference` (every encoder's forward pass in NumPy: no torch on the load path).
- :mod:`.transfer`: an encoder built from a trained paraphrastic model or afresh, for the supervised task.
"""
