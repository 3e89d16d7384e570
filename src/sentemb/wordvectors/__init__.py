"""Word vectors trained on the corpus: word2vec through gensim (:mod:`.word2vec`, Kenter et al.'s baselines) and
GloVe (:mod:`.glove`, glove.c's algorithm, the NWS paper's input vectors); their params sections in :mod:`.config`."""
