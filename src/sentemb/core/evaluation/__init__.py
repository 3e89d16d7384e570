"""The STS evaluation protocol every model is scored with (:mod:`.sts`: cosine, Pearson/Spearman per dataset, the
papers' aggregates), the two correlations (:mod:`.correlation`), word similarity (:mod:`.word_similarity`), and the
``evaluate`` params section (:mod:`.config`). Training uses it too, for model selection."""
