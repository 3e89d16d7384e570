"""The foundations every stage runs on, below the paper families (one DVC dependency, ``src/sentemb/core``).

- :mod:`.errors`: the one exception type, and one line for errors and signals at every entry point.
- :mod:`.atomic`: atomic writes that leave nothing behind.
- :mod:`.config`: the schema base class; the rule that params.yaml holds every value.
- :mod:`.text`: one tokenisation for training and evaluation, and the token cache.
- :mod:`.training`: the one training skeleton every trainer runs (epochs, batches, steps, rows, divergence check).
- :mod:`.runtime`: device, data-parallel processes, threads and compiled-loop helpers.
- :mod:`.optim`: the optimisers, one registry.
- :mod:`.data`: sources, documents, vocabulary, token-id corpus, paraphrase pairs, benchmark readers.
- :mod:`.models`: the saved-model format and :func:`~.models.load_model` (no pickle, no path outside the models'
  folder).
- :mod:`.evaluation`: the STS evaluation protocol and word similarity, used for evaluation and model selection.
"""
