"""sentemb: averaging-based sentence encoders (Siamese CBOW, Neural Word Salience, the paraphrastic encoders of
Wieting et al.) and their STS evaluation.

Foundations (``errors``, ``atomic``, ``text``, ``device``, ``models``, ``adjacent``, ``data``, ``wordvectors``,
``evaluation``) are shared; each paper family (``siamese_cbow``, ``salience``, ``paraphrastic``, ``supervised``)
imports only foundations, never another family (tests/test_layout.py).
"""

__version__ = "0.1.0"

from sentemb.errors import SentembError

__all__ = ["SentembError", "__version__"]
