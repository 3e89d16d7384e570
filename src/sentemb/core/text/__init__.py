"""One tokenisation for training and evaluation, by idea:

- :mod:`.config`: the ``text`` settings (:class:`~.config.TextConfig`) every saved model stores.
- :mod:`.tokenization`: normalisation, sentence splitting (BlingFire) and tokenisation (NLTK).
- :mod:`.nltk_modules`: NLTK's two tokenizers loaded without its package initialisers, their regex timer off.
- :mod:`.treebank`: NLTK's Treebank tokens, the same tokens 4-5× as fast.
- :mod:`.cache`: sentences tokenised ahead of time (the benchmark-tokens stage) and held as ids into their types.
- :mod:`.rows`: a vocabulary's row of each token type, looked up once.
"""
