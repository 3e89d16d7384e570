"""NLTK's Treebank word tokens (``NLTKWordTokenizer``), the same tokens 4-5× as fast: NLTK runs only where a
sentence holds punctuation, and what it gave is remembered.

NLTK's tokenizer applies some thirty regular expressions to the whole sentence, one pass each. Every pass is local:
a pattern reaches at most one character across a space (a quote after a space, a colon before one, ``\\b`` at a
word's edge), except three anchored ones (``^"``, a final period that only closing quotes, brackets and spaces
follow, ``[:,]$``). So a sentence, normalised to single spaces, is cut at its spaces into chunks:

- a word, letters and digits with single hyphens inside (``kind-hearted``) that no contraction pattern of NLTK's
  matches (``cannot``, ``gonna``, …), is one token, as NLTK leaves it;
- marks around a word (``(word),``, ``“word?”``) take the tokens of their shape around a stand-in word of the same
  kind (a letter or a digit first: ``[:,]`` before a digit is no split), remembered per shape, the word put back
  (not after an opening ``'``, whose pattern looks at the word itself);
- any other chunk goes through NLTK alone, in the context that gives every pattern the characters it sees in the
  sentence: a leading space unless it starts the sentence, a trailing ``" a"`` (a word, then dropped) unless it ends
  it;
- the sentence's end, the last chunk with the chunks before it that only closing marks follow, goes through NLTK as
  one run (the final-period patterns look across those spaces), and so does a chunk that opens with a quote after
  a chunk that ends with a mark (one pass's match may take the space between them).

Inside chunks' tokens are kept in a plain dict (emptied at 2^20 entries), runs and shapes in bounded LRU caches.
``tests/test_text.py`` checks the tokens against NLTK's on every benchmark sentence, the paraphrase pairs' sentences
and crafted edge cases; ``benchmarks/tokenizer_speed.py`` checked the whole corpus, 5.57M sentences, and gives both
speeds (docs/speed.md).
"""

from __future__ import annotations

import sys
from functools import lru_cache

_CLOSING = frozenset("])}>\"'»”’")
"""What may stand between a final period and the end for NLTK's final-period patterns (besides spaces)."""
_QUOTES = frozenset("'\"`")
_PLACEHOLDER = "a"
"""The word after a run that does not end the sentence: letters only, so that no pattern reaches past it."""


@lru_cache(maxsize=1)
def nltk_treebank():
    """NLTK's ``NLTKWordTokenizer`` (loaded by :func:`sentemb.core.text.nltk_modules.nltk_tokenizers`, without NLTK's
    package initialisers and with its regular-expression timer off)."""
    from sentemb.core.text.nltk_modules import nltk_tokenizers

    nltk_tokenizers()
    return sys.modules["nltk.tokenize.destructive"].NLTKWordTokenizer()


@lru_cache(maxsize=1)
def _contractions() -> tuple:
    """NLTK's contraction patterns that can match a chunk of letters alone (``cannot``, ``gimme``, ``gonna``,
    ``gotta``, ``lemme``, ``wanna``; the others hold a quote)."""
    tokenizer = nltk_treebank()
    return tuple(tokenizer.CONTRACTIONS2) + tuple(tokenizer.CONTRACTIONS3)


@lru_cache(maxsize=2**18)
def _is_word(chunk: str) -> bool:
    """Whether NLTK leaves ``chunk`` whole wherever it stands: letters and digits, with single hyphens inside
    (``kind-hearted``), and no contraction pattern matching."""
    return (chunk.replace("-", "").isalnum() and chunk[0] != "-" and chunk[-1] != "-" and "--" not in chunk
            and not any(p.search(f" {chunk} ") for p in _contractions()))  # between spaces: wanna's (?=\s)


@lru_cache(maxsize=2**18)
def _run_tokens(run: str, first: bool, last: bool) -> tuple[str, ...]:
    """NLTK's tokens of a run of chunks (joined by single spaces), in the context of its place in the sentence."""
    text = (run if first else " " + run) + ("" if last else " " + _PLACEHOLDER)
    tokens = [t for tok in nltk_treebank().tokenize(text) for t in tok.split()]
    if not last:
        if not tokens or tokens[-1] != _PLACEHOLDER:  # cannot happen by the module's argument: say so if it does
            raise AssertionError(f"treebank: the run {run!r} did not end before its placeholder word: {tokens}")
        tokens.pop()
    return tuple(tokens)


def _is_edge(ch: str) -> bool:
    """A letter or a decimal digit: a word character for both of NLTK's regular-expression engines."""
    return ch.isalpha() or ch.isdecimal()


def _chunk_tokens(chunk: str, first: bool, last: bool) -> tuple[str, ...]:
    """NLTK's tokens of one chunk in its place: a word as it is; marks around a word (``(word),``, ``“word?”``) by
    the tokens of their shape around a stand-in word of the same kind (a letter or a digit first), remembered per
    shape, with the word put back; anything else through NLTK (:func:`_run_tokens`)."""
    if _is_word(chunk):
        return (chunk,)
    i, j = 0, len(chunk)
    while i < j and not chunk[i].isalnum():
        i += 1
    while j > i and not chunk[j - 1].isalnum():
        j -= 1
    prefix, word, suffix = chunk[:i], chunk[i:j], chunk[j:]
    if word and "'" not in prefix and _is_edge(word[0]) and _is_edge(word[-1]) and _is_word(word):
        shape = _shape_tokens(prefix, "0" if word[0].isdecimal() else "a", suffix, first, last)
        if shape is not None:
            at, before, after = shape
            return (*before, word.join(at), *after)
    return _run_tokens(chunk, first, last)


@lru_cache(maxsize=2**16)
def _shape_tokens(prefix: str, stand_in: str, suffix: str, first: bool, last: bool
                  ) -> tuple[tuple[str, str], tuple[str, ...], tuple[str, ...]] | None:
    """The tokens of ``prefix + stand_in + suffix`` split around the stand-in: ``((left, right), before, after)``,
    the token holding it being ``left + stand_in + right``; None where the stand-in is not there once."""
    tokens = _run_tokens(prefix + stand_in + suffix, first, last)
    holding = [k for k, t in enumerate(tokens) if stand_in in t]
    if len(holding) != 1 or tokens[holding[0]].count(stand_in) != 1:
        return None
    k = holding[0]
    return tuple(tokens[k].split(stand_in)), tokens[:k], tokens[k + 1 :]


_INSIDE_SIZE = 2**20
_inside: dict[str, tuple[str, ...]] = {}
"""The tokens of chunks met inside sentences (neither first nor last), a plain dict for the hot loop, emptied when it
reaches :data:`_INSIDE_SIZE` entries (about 0.2 GB at most: a process's memory stays bounded on any corpus)."""


def treebank_tokens(text: str) -> list[str]:
    """NLTK's Treebank tokens of one sentence, each split at whitespace, as
    ``[t for tok in NLTKWordTokenizer().tokenize(text) for t in tok.split()]`` gives them.

    Args:
        text: one sentence, normalised: no whitespace but single spaces, none at either end
            (:func:`sentemb.core.text.normalize`).

    Returns:
        The tokens, none empty.
    """
    chunks = text.split(" ")
    tail = len(chunks) - 1  # the last chunk, with those before it that only closing marks follow
    while tail > 0 and _CLOSING.issuperset(chunks[tail]):
        tail -= 1
    tokens: list[str] = []
    k = 0
    while k < tail:
        end = k + 1  # a quote that opens the next chunk goes with a chunk that ends in a mark: the same pass may
        while end < tail and chunks[end][:1] in _QUOTES and not chunks[end - 1][-1:].isalnum():  # match both
            end += 1
        if end == k + 1:
            chunk = chunks[k]
            got = _inside.get(chunk) if k else None
            if got is None:
                got = _chunk_tokens(chunk, k == 0, False)
                if k:
                    if len(_inside) >= _INSIDE_SIZE:
                        _inside.clear()
                    _inside[chunk] = got
            tokens.extend(got)
        else:
            tokens.extend(_run_tokens(" ".join(chunks[k:end]), k == 0, False))
        k = end
    if tail == len(chunks) - 1:
        tokens.extend(_chunk_tokens(chunks[tail], tail == 0, True))
    else:
        tokens.extend(_run_tokens(" ".join(chunks[tail:]), tail == 0, True))
    return tokens
