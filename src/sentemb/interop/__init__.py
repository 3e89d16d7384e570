"""sentemb models in the field's libraries: a sentence-transformers model directory for every saved model
(:mod:`.sentence_transformers`), an MTEB encoder and an MTEB STS task over the local benchmark files (:mod:`.mteb`),
and the model card written beside an export (:mod:`.model_card`). sentence-transformers and mteb are the optional
extra ``st`` (``pip install -e ".[st]"``); nothing else in sentemb imports this package."""
