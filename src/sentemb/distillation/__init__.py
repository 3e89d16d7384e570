"""Static students: any sentence encoder distilled into a table of word vectors that a plain (weighted) average
reads, as model2vec does for transformers (Tulkens & van Dongen 2024). It needs only the encoder's
``encode(sentences)``, so it sits on the foundations and serves every family's models.

- :mod:`.static_student`: the distillation (each word encoded alone, optional PCA, SIF weights baked in) and its
  schema.
"""
