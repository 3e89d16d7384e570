"""sentemb: averaging-based sentence encoders (Siamese CBOW and its word2vec baselines) and STS evaluation.

Layers, lower never importing higher: ``text`` → ``corpus``, ``vocab``, ``sources`` → ``wordvectors`` →
``encoders`` → ``objectives`` → ``training`` → ``models`` → ``evaluation`` → ``cli``.
"""

__version__ = "0.1.0"

from sentemb.errors import SentembError

__all__ = ["SentembError", "__version__"]
