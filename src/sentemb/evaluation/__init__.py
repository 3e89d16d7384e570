"""Evaluation: STS scoring and aggregates (:mod:`~sentemb.evaluation.sts`), word similarity
(:mod:`~sentemb.evaluation.word_similarity`), significance tests (:mod:`~sentemb.evaluation.significance`) and the
report tables beside the papers' (:mod:`~sentemb.evaluation.report`)."""
