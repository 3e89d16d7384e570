"""The vocab stage's one reading of the sentence file: every token an id into the file's own word types, then the
vocabulary (``min_count`` applied once for every model) and the token-id corpus of its words (:func:`build_vocabulary`).

Both passes stream: the tokens go to disk a chunk at a time (:data:`CHUNK_TOKENS`), so memory holds the word types,
the sentences' offsets and one chunk, never the corpus (the in-memory version took 25.6 bytes a token: 3.3 GiB on
126M tokens).
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
from tqdm import tqdm

from sentemb.core.atomic import atomic_path, read_json, scratch_folder
from sentemb.core.data.config import VocabConfig
from sentemb.core.data.corpus import TokenCorpus
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError

CHUNK_TOKENS = 1 << 22
"""Tokens held in memory at a time while the sentence file is read and while the corpus is remapped (16 MiB of ids)."""


def encode_sentence_file(path: str | Path, folder: str | Path,
                         progress: Callable[[Iterable[str]], Iterable[str]] = iter,
                         chunk_tokens: int = CHUNK_TOKENS) -> tuple[dict[str, int], np.ndarray, TokenCorpus]:
    """Every token of a split-stage sentence file as an id into the file's own word types, in one reading, streamed
    to disk a chunk at a time: memory holds the word types, the sentences' offsets and one chunk, not the tokens.

    The vocab stage counts the words from this one pass and encodes the corpus with its vocabulary
    (:func:`remap_corpus`), where counting with a ``Counter`` and then encoding
    (:func:`~sentemb.core.data.corpus.read_sentence_file`, :func:`~sentemb.core.data.corpus.build_token_corpus`) read
    and split the file twice and took twice as long. The documents are ``read_sentence_file``'s: the groups of sentences
    between blank lines.

    Args:
        path: one tokenised sentence per line, a blank line after each document.
        folder: an existing folder for the corpus of every token (raw arrays, memory-mapped when returned).
        progress: wraps the file's lines, e.g. in a progress bar.
        chunk_tokens: about how many token ids are held before they are written out.

    Returns:
        ``(types, counts, corpus)``: each word type → its id, the types in order of first appearance (ids 0, 1, …);
        int64 (len(types),) how often each occurs; the corpus of every token (int32 ids into ``types``, int64
        offsets, int32 document ids), memory-mapped from ``folder``.

    Raises:
        SentembError: a missing file, or one without a sentence (an empty corpus).
    """
    p, out = Path(path), Path(folder)
    if not p.is_file():
        raise SentembError(f"{p}: missing sentence file (written by the split stage)")
    ids: defaultdict[str, int] = defaultdict()
    ids.default_factory = ids.__len__  # a new word gets the next id
    lookup = ids.__getitem__
    counts = np.zeros(0, dtype=np.int64)
    token_ids, ends, document_ids = array("i"), array("q"), array("i")
    n_tokens = n_sentences = document = 0
    in_document = False  # the current document has a sentence
    with (open(p, encoding="utf-8") as fh, open(out / "token_ids.bin", "wb") as tok,
          open(out / "ends.bin", "wb") as end, open(out / "document_ids.bin", "wb") as doc):

        def flush() -> None:
            nonlocal counts, token_ids, ends, document_ids
            chunk = np.frombuffer(token_ids, dtype=np.int32)
            if len(ids) > len(counts):
                counts = np.concatenate([counts, np.zeros(len(ids) - len(counts), dtype=np.int64)])
            counts += np.bincount(chunk, minlength=len(counts))
            for array_, fh_ in ((token_ids, tok), (ends, end), (document_ids, doc)):
                array_.tofile(fh_)
            token_ids, ends, document_ids = array("i"), array("q"), array("i")

        for line in progress(fh):
            tokens = line.split()
            if tokens:
                token_ids.extend(map(lookup, tokens))
                n_tokens += len(tokens)
                n_sentences += 1
                ends.append(n_tokens)
                document_ids.append(document)
                in_document = True
                if len(token_ids) >= chunk_tokens:
                    flush()
            elif in_document:  # a blank line ends a document that has sentences
                document += 1
                in_document = False
        flush()
    if not n_sentences:
        raise SentembError(f"{p}: empty corpus: no sentence to encode")
    ids.default_factory = None  # the caller's lookups of unseen words raise KeyError, not add them
    offsets = np.zeros(n_sentences + 1, dtype=np.int64)
    offsets[1:] = np.fromfile(out / "ends.bin", dtype=np.int64)
    corpus = TokenCorpus(np.memmap(out / "token_ids.bin", dtype=np.int32, mode="r", shape=(n_tokens,)), offsets,
                         np.memmap(out / "document_ids.bin", dtype=np.int32, mode="r", shape=(n_sentences,)))
    return dict(ids), counts, corpus


def remap_corpus(corpus: TokenCorpus, new_ids: np.ndarray, kept_tokens: int, directory: str | Path,
                 chunk_tokens: int = CHUNK_TOKENS) -> None:
    """:meth:`TokenCorpus.remap` written to ``directory`` (the files of :meth:`TokenCorpus.save`, the same bytes) a
    chunk of tokens at a time, in memory that grows with the sentences (their offsets) but not with the tokens.

    Args:
        kept_tokens: how many tokens ``new_ids`` keeps (the sum of the kept words' counts): the output's length.

    Raises:
        SentembError: ``kept_tokens`` is not what the mapping keeps.
    """
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    new_ids = np.asarray(new_ids, dtype=np.int32)
    offsets = np.asarray(corpus.offsets)
    n = int(offsets[-1])
    kept = np.zeros(len(offsets), dtype=np.int64)  # the new offsets: kept tokens before each sentence start
    out = np.lib.format.open_memmap(d / "token_ids.npy", mode="w+", dtype=np.int32, shape=(kept_tokens,))
    total = 0
    for a in range(0, n, chunk_tokens):
        b = min(n, a + chunk_tokens)
        mapped = new_ids[np.asarray(corpus.token_ids[a:b])]
        keep = mapped >= 0
        before = np.zeros(b - a + 1, dtype=np.int64)
        np.cumsum(keep, out=before[1:])
        lo, hi = np.searchsorted(offsets, a, side="left"), np.searchsorted(offsets, b, side="right")
        kept[lo:hi] = total + before[offsets[lo:hi] - a]
        if total + int(before[-1]) > kept_tokens:
            raise SentembError(f"remap: the mapping keeps more than the {kept_tokens:,} tokens announced")
        out[total : total + int(before[-1])] = mapped[keep]
        total += int(before[-1])
    if total != kept_tokens:
        raise SentembError(f"remap: the mapping keeps {total:,} tokens, not the {kept_tokens:,} announced")
    out.flush()
    del out
    np.save(d / "offsets.npy", kept)
    documents = np.lib.format.open_memmap(d / "document_ids.npy", mode="w+", dtype=np.int32,
                                          shape=(corpus.n_sentences,))
    for a in range(0, corpus.n_sentences, chunk_tokens):
        documents[a : a + chunk_tokens] = corpus.document_ids[a : a + chunk_tokens]
    documents.flush()


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
    with scratch_folder(Path(corpus_dir).parent, "vocab-scratch") as scratch:
        types, type_counts, every_token = encode_sentence_file(
            folder / "sentences.txt", scratch,
            lambda fh: tqdm(fh, desc="read", unit="line", total=lines, mininterval=2.0))
        counts = dict(zip(types, type_counts.tolist(), strict=True))
        vocab = Vocabulary.from_counts(counts, min_count=config.min_count, max_size=config.max_size)
        vocab.save(vocab_path)
        new_ids = np.full(len(types), -1, dtype=np.int32)  # a type's id in the file → its vocabulary id, or −1
        new_ids[[types[w] for w in vocab.words]] = np.arange(len(vocab), dtype=np.int32)
        with atomic_path(corpus_dir) as tmp:
            remap_corpus(every_token, new_ids, int(vocab.counts.sum()), tmp)
        corpus = TokenCorpus.load(corpus_dir)
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
