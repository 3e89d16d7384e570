"""The data every model is trained and scored on: sources (:mod:`.sources`: mirror or official URL, sha256),
document readers and sentence splitting (:mod:`.documents`), the vocabulary (:mod:`.vocab`, :mod:`.encoding`), the
token-id corpus (:mod:`.corpus`), paraphrase pairs (:mod:`.pairs`) and the benchmark readers (:mod:`.benchmarks`)."""
