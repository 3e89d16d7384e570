"""Pre-trained word vectors on the shared corpus and vocabulary: word2vec through gensim
(:mod:`~sentemb.wordvectors.word2vec`) and GloVe (:mod:`~sentemb.wordvectors.glove`)."""
