"""The vocab stage's one reading of the sentence file: every token an id into the file's own word types, then the
vocabulary (``min_count`` applied once for every model) and the token-id corpus of its words (:func:`build_vocabulary`).
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
from pydantic import Field, PositiveInt
from tqdm import tqdm

from sentemb.core.atomic import atomic_path, read_json
from sentemb.core.config import Schema
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError


def encode_sentence_file(path: str | Path, progress: Callable[[Iterable[str]], Iterable[str]] = iter
                         ) -> tuple[dict[str, int], TokenCorpus]:
    """Every token of a split-stage sentence file as an id into the file's own word types, in one reading.

    The vocab stage counts the words (``np.bincount`` of the ids) and encodes the corpus with its vocabulary
    (:meth:`TokenCorpus.remap`) from this one pass, where counting with a ``Counter`` and then encoding
    (:func:`~sentemb.core.data.corpus.read_sentence_file`, :func:`~sentemb.core.data.corpus.build_token_corpus`) read
    and split the file twice and took twice as long. The documents are ``read_sentence_file``'s: the groups of sentences
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


class VocabConfig(Schema):
    """``vocab``: the one vocabulary every model shares."""

    min_count: PositiveInt = Field(description="keep the words seen at least this often (Kenter et al. §3.1: 5)")
    max_size: PositiveInt | None = Field(description="at most this many of them, the most frequent; null: all")


def build_vocabulary(sentences_dir: str | Path, config: VocabConfig, vocab_path: str | Path,
                     corpus_dir: str | Path) -> dict:
    """The vocabulary of the split stage's sentences (``vocab_path``, ``word<TAB>count``) and the token-id corpus of
    its words (``corpus_dir``, memory-mappable arrays: :class:`TokenCorpus`), both written atomically.

    Args:
        sentences_dir: the split stage's folder (``sentences.txt``, ``stats.json``).

    Returns:
        The corpus statistics (documents, sentences, tokens, word types, vocabulary, in-vocabulary tokens, token
        coverage, sentences without a known word, and the ``text`` settings).

    Raises:
        SentembError: a missing or malformed input, or no word kept.
    """
    folder = Path(sentences_dir)
    split_stats = read_json(folder / "stats.json", "missing (run `dvc repro split` first)")
    lines = split_stats["sentences"] + split_stats["documents"]  # a blank line after each document
    types, every_token = encode_sentence_file(
        folder / "sentences.txt", lambda fh: tqdm(fh, desc="read", unit="line", total=lines, mininterval=2.0))
    counts = dict(zip(types, np.bincount(every_token.token_ids, minlength=len(types)).tolist(), strict=True))
    vocab = Vocabulary.from_counts(counts, min_count=config.min_count, max_size=config.max_size)
    vocab.save(vocab_path)
    new_ids = np.full(len(types), -1, dtype=np.int32)  # a type's id in the file → its vocabulary id, or −1
    new_ids[[types[w] for w in vocab.words]] = np.arange(len(vocab), dtype=np.int32)
    corpus = every_token.remap(new_ids)
    with atomic_path(corpus_dir) as tmp:
        corpus.save(tmp)
    total = len(every_token.token_ids)
    return {
        "documents": int(corpus.document_ids[-1]) + 1,
        "sentences": int(corpus.n_sentences),
        "tokens": int(total),
        "word_types": len(counts),
        "vocabulary": len(vocab),
        "in_vocabulary_tokens": len(corpus.token_ids),
        "token_coverage": round(len(corpus.token_ids) / total, 4),
        "sentences_without_known_word": int((corpus.lengths == 0).sum()),
        "text": split_stats["text"],
    }
