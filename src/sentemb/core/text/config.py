"""The ``text`` settings: how raw text becomes tokens, stored in every saved model (params ``text``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sentemb.core.config import Schema, validate


class TextConfig(Schema):
    """How raw text becomes tokens: the ``text`` params section, stored in every saved model so that evaluation
    tokenises exactly as the model's training corpus was tokenised."""

    tokenizer: Literal["treebank", "wordpunct"] = Field(
        description="treebank: NLTK's Penn-Treebank-style word tokenizer (isn't → is n't), as the Toronto Book "
                    "Corpus; wordpunct: NLTK wordpunct_tokenize (isn't → isn ' t), Bollegala et al.'s choice")
    lowercase: bool = Field(description="lower-case every token (after Unicode NFKC normalisation)")
    strip_punctuation: bool = Field(
        description="strip punctuation and symbols (Unicode P* and S*) from both ends of every token and drop the "
                    "tokens left empty, as the Siamese CBOW authors' tokenizer (tokenizationutils/tokenizer.py, "
                    "removeNonTokenChars): it drops every token their Toronto scripts drop (. '' `` , : ; ? ! - _) "
                    "and turns 's into s")

    def to_dict(self) -> dict:
        return self.model_dump()


def text_config(value: object, source: str) -> TextConfig:
    """A ``text`` entry read from ``source`` (a stats file, a model's config.json) as a :class:`TextConfig`.

    Raises:
        SentembError: a missing or malformed entry, naming ``source``.
    """
    return validate(TextConfig, value, source, "text")
