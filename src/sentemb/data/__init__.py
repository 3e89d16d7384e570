"""Data: sources (local mirror or official URL, sha256), document readers, the vocabulary, the sentence-ordered
token-id corpus, paraphrase pairs and the evaluation benchmarks in their official formats."""
