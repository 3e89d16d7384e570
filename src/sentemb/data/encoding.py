"""The vocab stage's one reading of the sentence file: every token an id into the file's own word types.

A module of its own, imported by the vocab stage alone, so that a change here does not make every stage that reads
the token-id corpus (:mod:`sentemb.data.corpus`) stale.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from sentemb.data.corpus import TokenCorpus
from sentemb.errors import SentembError


def encode_sentence_file(path: str | Path, progress: Callable[[Iterable[str]], Iterable[str]] = iter
                         ) -> tuple[dict[str, int], TokenCorpus]:
    """Every token of a split-stage sentence file as an id into the file's own word types, in one reading.

    The vocab stage counts the words (``np.bincount`` of the ids) and encodes the corpus with its vocabulary
    (:meth:`TokenCorpus.remap`) from this one pass, where counting with a ``Counter`` and then encoding
    (:func:`~sentemb.data.corpus.read_sentence_file`, :func:`~sentemb.data.corpus.build_token_corpus`) read and
    split the file twice and took twice as long. The documents are ``read_sentence_file``'s: the groups of sentences
    between blank lines.

    Args:
        path: one tokenised sentence per line, a blank line after each document.
        progress: wraps the file's lines, e.g. in a progress bar.

    Returns:
        ``(types, corpus)``: each word type → its id, the types in order of first appearance (ids 0, 1, …), and the
        corpus of every token (int32 ids into ``types``, int64 offsets, int32 document ids).

    Raises:
        SentembError: a missing file, or one without a sentence (an empty corpus).
    """
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing sentence file (written by the split stage)")
    ids: defaultdict[str, int] = defaultdict()
    ids.default_factory = ids.__len__  # a new word gets the next id
    lookup = ids.__getitem__
    token_ids, lengths, document_ids = array("i"), array("q"), array("i")
    document = 0
    with open(p, encoding="utf-8") as fh:
        for line in progress(fh):
            tokens = line.split()
            if tokens:
                token_ids.extend(map(lookup, tokens))
                lengths.append(len(tokens))
                document_ids.append(document)
            elif document_ids and document_ids[-1] == document:
                document += 1  # a blank line ends a document that has sentences
    if not lengths:
        raise SentembError(f"{p}: empty corpus: no sentence to encode")
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(np.frombuffer(lengths, dtype=np.int64), out=offsets[1:])
    corpus = TokenCorpus(np.frombuffer(token_ids, dtype=np.int32), offsets, np.frombuffer(document_ids, dtype=np.int32))
    ids.default_factory = None  # the caller's lookups of unseen words raise KeyError, not add them
    return dict(ids), corpus
