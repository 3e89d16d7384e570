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
put a wall-clock timer on every regular expression; with it off (:func:`_untimed_nltk_regexes`) the Treebank tokenizer
does 296k tokens/s against 190k with it (28,889 corpus sentences). :mod:`sentemb.core.treebank` gives its tokens,
identical, 4-5× faster still, running NLTK only where a sentence holds punctuation.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Literal

import numpy as np
from pydantic import Field

from sentemb.core.atomic import read_json, write_json
from sentemb.core.config import Schema, validate
from sentemb.core.errors import SentembError
from sentemb.core.treebank import treebank_tokens


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


def _nltk_tokenizers() -> ModuleType:
    """NLTK's ``nltk.tokenize.destructive`` (the Treebank tokenizer) and ``nltk.tokenize.regexp``
    (``wordpunct_tokenize``) loaded from the installed NLTK without running its package initialisers, with the
    regular-expression timer off (:func:`_untimed_nltk_regexes`). Returns ``nltk.tokenize.regexp``; the Treebank
    tokenizer is ``sys.modules["nltk.tokenize.destructive"]``.

    ``import nltk`` (and so ``from nltk.tokenize import …``) runs ``nltk/__init__.py``, which imports most of NLTK:
    ``nltk.metrics`` brings scipy.stats, ``nltk.classify`` scikit-learn when installed, 2-3 s here, where the two
    tokenizers need four small modules of their own (``nltk.redos``, ``nltk.internals``, ``nltk.tokenize.api``,
    ``nltk.tokenize.util``: 0.1 s). So the two packages are entered as empty placeholders holding only their folder
    (``__path__``) while the tokenizer modules load, then removed: the modules are NLTK's own files, unchanged, and a
    later ``import nltk`` runs NLTK's initialisers as usual and reuses the modules already loaded
    (``tests/test_text.py`` checks both, and the tokens against a plain ``from nltk.tokenize import …``). Where NLTK
    is already imported, its modules are used as they are.
    """
    if "nltk" not in sys.modules:
        spec = importlib.util.find_spec("nltk")
        if spec is None or not spec.submodule_search_locations:
            raise SentembError("the tokenizer needs NLTK: pip install 'nltk>=3.10,<3.11'")
        folder = Path(next(iter(spec.submodule_search_locations)))
        placeholders = {"nltk": ModuleType("nltk"), "nltk.tokenize": ModuleType("nltk.tokenize")}
        placeholders["nltk"].__path__ = [str(folder)]
        placeholders["nltk.tokenize"].__path__ = [str(folder / "tokenize")]
        sys.modules.update(placeholders)
        try:
            for name in ("nltk.tokenize.destructive", "nltk.tokenize.regexp"):
                importlib.import_module(name)
        finally:
            for name, package in placeholders.items():
                if sys.modules.get(name) is package:
                    del sys.modules[name]
    for name in ("nltk.tokenize.destructive", "nltk.tokenize.regexp"):  # loaded above, or NLTK's own import's
        importlib.import_module(name)
    _untimed_nltk_regexes(sys.modules["nltk.redos"])
    return sys.modules["nltk.tokenize.regexp"]


def _untimed_nltk_regexes(redos: ModuleType) -> None:
    """Let NLTK's own regular expressions run without its wall-clock cap.

    NLTK ≥ 3.10 runs every pattern through ``nltk.redos``: the ``regex`` engine, each match under a timeout
    (``nltk.redos.DEFAULT_TIMEOUT``, 5 s), a backstop against catastrophically backtracking *caller-supplied*
    patterns. The tokenizers here apply NLTK's fixed patterns only; the timer is a third of their time. Setting the
    module's documented default to ``None`` keeps the engine and the tokens (the same tokens on 28,889 corpus
    sentences; ``tests/test_text.py`` checks both tokenizers) and tokenises about 1.5× faster.
    """
    redos.DEFAULT_TIMEOUT = None


@lru_cache(maxsize=1)
def _wordpunct():
    """NLTK's ``wordpunct_tokenize``, loaded on first use (:func:`_nltk_tokenizers`)."""
    return _nltk_tokenizers().wordpunct_tokenize


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


class TokenTable:
    """Tokenised sentences held as ids into their distinct tokens (types): the sentences of a token cache
    (:func:`load_token_cache`), or of one batch (:func:`tokenize_batch`), so that a model looks each type up in its
    vocabulary once (:class:`TypeRows`) instead of each token of each sentence.

    Attributes:
        types: the distinct tokens, in order of first appearance; only ever appended to.
        ids: int64, shape (tokens,): every held sentence's tokens as indices into ``types``, one after another.
        starts, lengths: int64, shape (sentences,): where each held sentence's ids start, and how many.
        position: sentence → its index in ``starts``.
    """

    def __init__(self) -> None:
        self.types: list[str] = []
        self._type_ids: dict[str, int] = {}
        self.ids = np.zeros(0, dtype=np.int64)
        self.starts = np.zeros(0, dtype=np.int64)
        self.lengths = np.zeros(0, dtype=np.int64)
        self.position: dict[str, int] = {}

    def add(self, sentences: dict[str, list[str]]) -> None:
        """Hold the tokens of ``sentences`` (sentence → tokens); a sentence held already keeps its tokens."""
        new = {s: t for s, t in sentences.items() if s not in self.position}
        lengths = np.fromiter(map(len, new.values()), dtype=np.int64, count=len(new))
        tokens = [t for sentence in new.values() for t in sentence]
        index, types = self._type_ids, self.types
        for t in dict.fromkeys(tokens):  # the new types, in order of first appearance
            if t not in index:
                index[t] = len(types)
                types.append(t)
        ids = np.fromiter(map(index.__getitem__, tokens), dtype=np.int64, count=len(tokens))
        first = len(self.starts)
        self.position.update(zip(new, range(first, first + len(new)), strict=True))
        self.starts = np.concatenate([self.starts, len(self.ids) + np.cumsum(lengths) - lengths])
        self.lengths = np.concatenate([self.lengths, lengths])
        self.ids = np.concatenate([self.ids, ids])

    def batch(self, sentences: list[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
        """The tokens of held sentences as ids into :attr:`types`: ``(types, type_ids, lengths)``, as
        :func:`tokenize_batch` returns them.

        Raises:
            KeyError: a sentence not held.
        """
        where = np.fromiter(map(self.position.__getitem__, sentences), dtype=np.int64, count=len(sentences))
        lengths = self.lengths[where]
        return self.types, self.ids[concatenated_ranges(self.starts[where], lengths)], lengths

    def tokens(self, sentence: str) -> list[str] | None:
        """The held tokens of ``sentence``, or None."""
        i = self.position.get(sentence)
        if i is None:
            return None
        start = int(self.starts[i])
        return [self.types[t] for t in self.ids[start : start + int(self.lengths[i])]]


def concatenated_ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """int64, shape (Σ lengths,): ``starts[0], …, starts[0] + lengths[0] − 1``, then the same for each next range."""
    starts, lengths = np.asarray(starts, dtype=np.int64), np.asarray(lengths, dtype=np.int64)
    ends = np.cumsum(lengths)
    return np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64) + np.repeat(starts - (ends - lengths), lengths)


# The sentences tokenised ahead of time (the benchmark-tokens stage), per tokenisation: evaluation looks its sentences
# up here instead of running NLTK on each of them once per model.
_TOKEN_CACHE: dict[TextConfig, TokenTable] = {}


def write_token_cache(path: str | Path, sentences: Iterable[str], config: TextConfig) -> int:
    """Tokenise each distinct sentence once and write ``{"text": config, "tokens": {sentence: "tok tok"}}`` as JSON,
    atomically. Returns the number of distinct sentences."""
    tokens = {s: " ".join(tokenize(s, config)) for s in dict.fromkeys(sentences)}
    write_json(path, {"text": config.to_dict(), "tokens": tokens})
    return len(tokens)


def load_token_cache(path: str | Path) -> int:
    """Make :func:`cached_tokenize` and :func:`tokenize_batch` answer from a file of :func:`write_token_cache` (for
    its tokenisation).

    Returns:
        The number of sentences loaded.

    Raises:
        SentembError: a missing file (naming the stage that writes it) or one that is not such a file.
    """
    data = read_json(path, "missing token cache (run `dvc repro benchmark-tokens`)")
    config = text_config(data.get("text") if isinstance(data, dict) else None, str(path))
    try:
        table = {s: t.split() for s, t in data["tokens"].items()}
    except (KeyError, TypeError, AttributeError) as e:
        raise SentembError(f"{path}: not a token cache written by benchmark-tokens ({e})") from None
    _TOKEN_CACHE.setdefault(config, TokenTable()).add(table)
    return len(table)


def cached_tokenize(sentence: str, config: TextConfig) -> list[str]:
    """:func:`tokenize`, answered from a loaded token cache when it holds the sentence for this tokenisation (the
    same tokens: the cache was written by :func:`tokenize`)."""
    table = _TOKEN_CACHE.get(config)
    tokens = table.tokens(sentence) if table is not None else None
    return tokens if tokens is not None else tokenize(sentence, config)


def tokenize_batch(sentences: list[str], config: TextConfig) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The tokens of ``sentences`` as :func:`cached_tokenize` gives them, as ids into the types of a
    :class:`TokenTable`: the loaded token cache's when it holds every sentence (evaluation), else a table of this
    call's own, so that a process encoding a stream of sentences keeps nothing of them.

    Returns:
        ``(types, type_ids, lengths)``: the table's types (shared: do not modify), int64 (Σ lengths,) the tokens of
        every sentence one after another, int64 (len(sentences),) tokens per sentence.
    """
    table = _TOKEN_CACHE.get(config)
    if table is None or not all(s in table.position for s in sentences):
        table = TokenTable()
        table.add({s: cached_tokenize(s, config) for s in dict.fromkeys(sentences)})
    return table.batch(sentences)


class TypeRows:
    """A vocabulary's row of each type of a :class:`TokenTable`, looked up once per type and kept.

    Args:
        index: word → row of the vocabulary.
    """

    def __init__(self, index: dict[str, int]) -> None:
        self.index = index
        self._types: list[str] | None = None  # the types list looked up last (a table's: appended to only)
        self._rows = np.zeros(0, dtype=np.int64)

    def __call__(self, types: list[str]) -> np.ndarray:
        """int64, shape (len(types),): the row of each type, −1 for a type the vocabulary lacks."""
        if self._types is not types:
            self._types, self._rows = types, np.zeros(0, dtype=np.int64)
        done = len(self._rows)
        if done < len(types):
            get = self.index.get
            new = np.fromiter((get(t, -1) for t in types[done:]), dtype=np.int64, count=len(types) - done)
            self._rows = np.concatenate([self._rows, new])
        return self._rows

    def rows(self, sentences: list[str], config: TextConfig) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """Every token of the sentences with its row.

        Returns:
            ``(types, type_ids, rows, lengths)``: as :func:`tokenize_batch`'s, and int64 (Σ lengths,) each token's
            row, −1 for a token the vocabulary lacks.
        """
        types, type_ids, lengths = tokenize_batch(sentences, config)
        return types, type_ids, self(types)[type_ids], lengths

    def known_rows(self, sentences: list[str], config: TextConfig) -> tuple[np.ndarray, np.ndarray]:
        """The rows of the sentences' known words, one sentence after another, and the number per sentence.

        Returns:
            ``(rows, lengths)``: int64 (Σ lengths,), int64 (len(sentences),).
        """
        _, _, rows, lengths = self.rows(sentences, config)
        known = rows >= 0
        if known.all():
            return rows, lengths
        sentence = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        return rows[known], np.bincount(sentence[known], minlength=len(lengths)).astype(np.int64)
