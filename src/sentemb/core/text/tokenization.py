"""Text normalisation, sentence splitting and tokenisation: ONE definition shared by training and evaluation.

Sentence splitting uses BlingFire's English sentence model (Microsoft's finite-state splitter); tokenisation uses
NLTK. Both are chosen in ``TextConfig``, which every saved model stores, so evaluation tokenises exactly as the
model's training corpus was tokenised.

Measured on 3 Gutenberg novels + 1 Wikipedia file (2.0 MB, this repository's machine): BlingFire 13.8 MB/s and
2 of 8,604 fiction sentences starting in lower case (a broken dialogue split); NLTK Punkt trained on the same text
4.1 MB/s and 677 of 9,322 (it splits ``"...pillow?" she added``). BlingFire's one systematic miss: no split before
a sentence that starts with a title (``noon. Mr. Smith``), 12 times in the 3 novels; Punkt 0. syntok 1.1 MB/s,
pysbd 0.16 MB/s. Tokenisers: NLTK's Treebank tokenizer
(``NLTKWordTokenizer``, Penn Treebank conventions as in the Toronto Book Corpus: ``isn't`` → ``is n't``)
159k tokens/s; ``wordpunct_tokenize`` (Bollegala et al.'s choice: ``isn't`` → ``isn ' t``) 1.08M tokens/s. NLTK 3.10
put a wall-clock timer on every regular expression; with it off (:func:`~.nltk_modules.untimed_nltk_regexes`) the
Treebank tokenizer does 296k tokens/s against 190k with it (28,889 corpus sentences). :mod:`~.treebank` gives its
tokens, identical, 4-5× faster still, running NLTK only where a sentence holds punctuation.
"""


from __future__ import annotations

import unicodedata
from functools import lru_cache

from sentemb.core.text.config import TextConfig
from sentemb.core.text.nltk_modules import nltk_tokenizers
from sentemb.core.text.treebank import treebank_tokens


@lru_cache(maxsize=1)
def _wordpunct():
    """NLTK's ``wordpunct_tokenize``, loaded on first use (:func:`~.nltk_modules.nltk_tokenizers`)."""
    return nltk_tokenizers().wordpunct_tokenize


def normalize(text: str) -> str:
    """Unicode NFKC normalisation (folds ligatures, full-width forms and non-breaking spaces); whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def tokenize(sentence: str, config: TextConfig) -> list[str]:
    """Tokenise one sentence.

    Args:
        sentence: raw text of one sentence (any whitespace, any Unicode).
        config: tokenizer and case folding.

    Returns:
        The tokens, none empty and none containing whitespace; ``[]`` for a blank sentence.
    """
    text = normalize(sentence)
    if not text:
        return []
    if config.lowercase:
        text = text.lower()
    if config.tokenizer == "treebank":
        tokens = treebank_tokens(text)
    else:
        tokens = [t for tok in _wordpunct()(text) for t in tok.split()]
    if config.strip_punctuation:
        tokens = [s for s in map(_strip_punctuation, tokens) if s]
    return tokens


def _is_punctuation(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"


def _strip_punctuation(token: str) -> str:
    """``token`` without the punctuation and symbol characters at either end."""
    start, end = 0, len(token)
    while start < end and _is_punctuation(token[start]):
        start += 1
    while end > start and _is_punctuation(token[end - 1]):
        end -= 1
    return token[start:end]


def split_sentences(paragraph: str) -> list[str]:
    """Split one paragraph (hard line breaks already joined) into sentences with BlingFire's English model.

    Returns:
        The sentences in order, stripped, none empty; ``[]`` for a blank paragraph.
    """
    text = normalize(paragraph)
    if not text:
        return []
    import blingfire  # on first use, as nltk

    return [s.strip() for s in blingfire.text_to_sentences(text).split("\n") if s.strip()]
