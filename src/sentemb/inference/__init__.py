"""Using trained models outside the benchmarks, for the ``sentemb`` command (:mod:`sentemb.cli`) and the SentEval
batcher (:mod:`sentemb.senteval`): reading and embedding sentence files (:mod:`.files`), nearest neighbours
(:mod:`.neighbours`) and the word vectors a model owns, exported in the word2vec format (:mod:`.export`)."""
