"""Paraphrase training pairs for the paraphrastic encoders (Wieting et al. 2016; Wieting & Gimpel 2017 §3).

The papers trained on PPDB XL phrase pairs and on SimpWiki (Coster & Kauchak 2011, 167,689 aligned sentence pairs);
neither could be staged here (see ``../shared/data/PROVENANCE-training.md`` §2). The staged sources, and how each
one's labels become positive pairs (only positives are used: negatives come from the mini-batch):

- ``twitter-url``: the Twitter URL corpus (Lan, Qiu, He & Xu, EMNLP 2017). The raw test file carries the six
  annotators' votes ``(k,6)``; Lan et al. call a pair a paraphrase when k ≥ 4 (``min_votes``), a non-paraphrase
  when k ≤ 2, and discard k = 3. The raw train file could not be staged, so the train pairs come from the
  tokenised release whose binary label already applies that rule (label 1 = paraphrase).
- ``msrp``: the Microsoft Research Paraphrase Corpus (Dolan & Brockett 2005), train and test, label 1 (the
  annotators' majority judgement); lower-cased and tokenised by castorini.
- ``turkcorpus``: the TurkCorpus tune set (Xu et al. 2016, as packaged by GEM 2021): 2,000 complex English
  Wikipedia sentences × 8 crowd-written simplifications, every (complex, simple) pair a positive, as SimpWiki's
  aligned sentences are.
- ``ppdb-xl-lexical``: PPDB 1.0 XL lexical paraphrases (Ganitkevitch et al. 2013) in the retrofitting format
  ``word para1 para2 …``; word pairs for the PARAGRAM word vectors (Wieting et al. 2015), not sentence pairs.

Every sentence is re-tokenised with the project's tokenizer, so training and evaluation text agree. A pair is
dropped when its two sentences are the same, when it repeats an earlier pair (in either order), or when either
sentence appears in any evaluation file (STS 2012-2016, SICK, STS Benchmark, PIT-2015). Sentences are compared by
:func:`match_key`, lower-cased letters and digits only, so that "Dominick's" (STS 2012 MSRpar) and castorini's
"dominick 's" (MSRP) are the same sentence.

Official downloads (the staged copies are xz files of the repositories named in the PROVENANCE file, so their
sha256 holds for the mirror only): :data:`OFFICIAL_URLS`.
"""

from __future__ import annotations

import lzma
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

import pandas as pd

from sentemb.core.atomic import atomic_path
from sentemb.core.data.benchmarks import evaluation_sentences, load_benchmarks
from sentemb.core.data.config import PairsConfig
from sentemb.core.errors import SentembError
from sentemb.core.text.config import TextConfig
from sentemb.core.text.tokenization import tokenize

OFFICIAL_URLS = {
    "twitter-url": "https://github.com/lanwuwei/Twitter-URL-Corpus",
    "msrp": "https://www.microsoft.com/en-us/download/details.aspx?id=52398",
    "turkcorpus": "https://github.com/cocoxu/simplification (TurkCorpus); GEM packaging: "
                  "https://github.com/chaojiang06/wiki-auto/tree/master/wiki-auto/GEM2021",
    "ppdb-xl-lexical": "http://nlpgrid.seas.upenn.edu/PPDB/eng/ppdb-1.0-xl-lexical.gz",
    # the papers' own training data, which could not be staged here
    "ppdb-xl-phrasal": "http://nlpgrid.seas.upenn.edu/PPDB/eng/ppdb-1.0-xl-phrasal.gz",
    "simpwiki": "https://cs.pomona.edu/~dkauchak/simplification/data.v1/data.v1.split.tar.gz",
}
SENTENCE_SOURCES = ("twitter-url", "msrp", "turkcorpus")
_VOTES = re.compile(r"^\((\d+),\s*(\d+)\)$")
_NON_ALNUM = re.compile(r"[\W_]+")


def match_key(sentence: str) -> str:
    """The form under which sentences are compared for duplicates and evaluation overlap: lower-cased, with every
    character that is not a letter or digit removed (tokenisation and punctuation differences vanish)."""
    return _NON_ALNUM.sub("", sentence.lower())


def _xz_lines(path: Path) -> list[str]:
    if not path.is_file():
        raise SentembError(f"{path}: missing file (run the download stage with this source in download.resources)")
    try:
        with lzma.open(path, "rt", encoding="utf-8") as fh:
            return fh.read().split("\n")[:-1] if path.stat().st_size else []
    except (lzma.LZMAError, EOFError, UnicodeDecodeError) as e:
        raise SentembError(f"{path}: not a readable xz text file ({e})") from None


def _aligned(directory: Path, names: tuple[str, ...]) -> list[list[str]]:
    columns = [_xz_lines(directory / n) for n in names]
    if len({len(c) for c in columns}) != 1:
        counts = ", ".join(f"{n} {len(c)}" for n, c in zip(names, columns, strict=True))
        raise SentembError(f"{directory}: files of different lengths ({counts})")
    return columns


def _labelled_positives(directory: Path) -> Iterator[tuple[str, str]]:
    """``a.toks``/``b.toks``/``sim.txt`` (castorini layout): the pairs labelled 1."""
    a, b, sim = _aligned(directory, ("a.toks.xz", "b.toks.xz", "sim.txt.xz"))
    for n, (s1, s2, label) in enumerate(zip(a, b, sim, strict=True), start=1):
        label = label.strip()
        if label not in ("0", "1"):
            raise SentembError(f"{directory / 'sim.txt.xz'}:{n}: label {label!r} is not 0 or 1")
        if label == "1":
            yield s1, s2


def read_twitter_url(root: str | Path, min_votes: int = 4) -> Iterator[tuple[str, str]]:
    """Twitter URL corpus positives: tokenised train pairs labelled 1, then raw test pairs with at least
    ``min_votes`` of 6 paraphrase votes (Lan et al. 2017: ≥ 4); the raw file's blank separator lines are skipped.

    Raises:
        SentembError: a missing or unreadable file, a bad label, or a malformed raw line (file and line named).
    """
    d = Path(root) / "pairs" / "twitter-url-corpus"
    yield from _labelled_positives(d / "train")
    raw = d / "Twitter_URL_Corpus_testNew.larger.txt.xz"
    for n, line in enumerate(_xz_lines(raw), start=1):
        line = line.rstrip("\r")  # CRLF, with a blank line between URL groups
        if not line.strip():
            continue
        cols = line.split("\t")
        if len(cols) < 3:
            raise SentembError(f"{raw}:{n}: expected 'sentence1<TAB>sentence2<TAB>(votes,6)<TAB>url'")
        m = _VOTES.match(cols[2].strip())
        if not m:
            raise SentembError(f"{raw}:{n}: votes {cols[2]!r} are not of the form (k,6)")
        if int(m.group(1)) >= min_votes:
            yield cols[0], cols[1]


def read_msrp(root: str | Path) -> Iterator[tuple[str, str]]:
    """MSRP train and test pairs labelled 1 (paraphrase).

    Raises:
        SentembError: a missing or unreadable file, files of different lengths or a bad label.
    """
    d = Path(root) / "pairs" / "msrp"
    for split in ("train", "test"):
        yield from _labelled_positives(d / split)


def read_turkcorpus(root: str | Path) -> Iterator[tuple[str, str]]:
    """TurkCorpus (complex, simple) pairs, every one a positive.

    Raises:
        SentembError: a missing or unreadable file, or a line without exactly two tab-separated columns.
    """
    path = Path(root) / "pairs" / "wiki-auto-gem2021-valid_turkcorpus" / "GEM2021-full_no_split-valid.tsv.xz"
    for n, line in enumerate(_xz_lines(path), start=1):
        cols = line.split("\t")
        if len(cols) != 2:
            raise SentembError(f"{path}:{n}: expected 'complex<TAB>simple', found {len(cols)} columns")
        yield cols[0], cols[1]


def read_ppdb_lexical(root: str | Path) -> list[tuple[str, str]]:
    """PPDB XL lexical paraphrases as unordered word pairs, each once, in file order. Words are separated by
    spaces; a token with a non-printable character (the file has a few control-character lines) is ignored.

    Raises:
        SentembError: a missing or unreadable file, or a file without a single word pair.
    """
    path = Path(root) / "pairs" / "ppdb-xl-lexical" / "ppdb-xl.txt.xz"
    seen: set[tuple[str, str]] = set()
    out = []
    for line in _xz_lines(path):
        words = [w for w in line.split(" ") if w and w.isprintable()]
        for para in words[1:]:
            key = (words[0], para) if words[0] <= para else (para, words[0])
            if words[0] != para and key not in seen:
                seen.add(key)
                out.append((words[0], para))
    if not out:
        raise SentembError(f"{path}: no word pairs")
    return out


READERS = {"twitter-url": read_twitter_url, "msrp": read_msrp, "turkcorpus": read_turkcorpus}


@dataclass
class PairStats:
    """Counts per source, in the order the filters apply."""

    positives: int = 0  # positive pairs read
    identical: int = 0  # both sentences the same (or one empty after tokenisation)
    duplicates: int = 0  # a pair already kept (either order, any source)
    evaluation_overlap: int = 0  # a sentence found in an evaluation set
    kept: int = 0
    overlap_examples: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"positives": self.positives, "identical": self.identical, "duplicates": self.duplicates,
                "evaluation_overlap": self.evaluation_overlap, "kept": self.kept}


def build_training_pairs(
    sources: dict[str, Iterable[tuple[str, str]]], evaluation_sentences: Iterable[str], text: TextConfig
) -> tuple[pd.DataFrame, dict[str, PairStats]]:
    """Tokenise, de-duplicate and filter paraphrase pairs against the evaluation data.

    Args:
        sources: source name → its positive (sentence1, sentence2) pairs, raw text.
        evaluation_sentences: every sentence of every evaluation file.
        text: the tokenisation of the models.

    Returns:
        ``(pairs, stats)``: a DataFrame with columns ``source``, ``sentence1``, ``sentence2`` (tokens joined by
        single spaces), and the counts per source.

    Raises:
        SentembError: no pair survives.
    """
    banned = {k for k in map(match_key, evaluation_sentences) if k}
    seen: set[tuple[str, str]] = set()
    rows, stats = [], {}
    for name, pairs in sources.items():
        st = stats[name] = PairStats()
        for s1, s2 in pairs:
            st.positives += 1
            t1, t2 = " ".join(tokenize(s1, text)), " ".join(tokenize(s2, text))
            k1, k2 = match_key(t1), match_key(t2)
            if not k1 or not k2 or k1 == k2:
                st.identical += 1
                continue
            key = (k1, k2) if k1 < k2 else (k2, k1)
            if key in seen:
                st.duplicates += 1
                continue
            seen.add(key)
            if k1 in banned or k2 in banned:
                st.evaluation_overlap += 1
                if len(st.overlap_examples) < 3:
                    st.overlap_examples.append(t1 if k1 in banned else t2)
                continue
            st.kept += 1
            rows.append((name, t1, t2))
    if not rows:
        raise SentembError(f"no training pairs left from the sources {', '.join(sources)}")
    return pd.DataFrame(rows, columns=["source", "sentence1", "sentence2"]), stats


PAIRS_HEADER = ("source", "sentence1", "sentence2")
LEXICAL_HEADER = ("word1", "word2")
SELECTION_HEADER = ("set", "sentence1", "sentence2", "gold")


def prepare_pairs(raw: str | Path, config: PairsConfig, text: TextConfig, out_dir: str | Path,
                  selection_groups: Sequence[str]) -> dict:
    """The training data of the paraphrastic models, written atomically into ``out_dir``: ``train.tsv`` (source,
    sentence1, sentence2; tokenised: :func:`build_training_pairs`), ``ppdb-lexical.tsv`` (PPDB XL lexical word pairs,
    for PARAGRAM) and ``selection.tsv`` (set, sentence1, sentence2, gold: the model-selection sets, tokenised).

    Args:
        raw: the download stage's folder (``pairs/``, ``sts/``, ``sick/``, ``stsbenchmark/``, ``pit2015/``).
        selection_groups: the benchmark groups of the model-selection sets, in order (Wieting & Gimpel's: STS 2016
            and the 22 sets, :data:`sentemb.papers.wieting2017.SELECTION_GROUPS`).

    Returns:
        The counts: per source (positives, identical, duplicates, evaluation overlap, kept), their total, the
        evaluation sentences, the PPDB word pairs and the mean tokens per sentence.

    Raises:
        SentembError: a missing or malformed source file, or no pair left.
    """
    raw = Path(raw)
    sources = {n: islice(read_twitter_url(raw, config.twitter_min_votes) if n == "twitter-url" else READERS[n](raw),
                         config.max_pairs) for n in config.sources}
    sentences = list(evaluation_sentences(raw))
    pairs, stats = build_training_pairs(sources, sentences, text)
    lexical = read_ppdb_lexical(raw)[: config.max_pairs]
    selection = [(ds.key, " ".join(tokenize(a, text)), " ".join(tokenize(b, text)), repr(float(g)))
                 for ds in load_benchmarks(raw, list(selection_groups))
                 for a, b, g in zip(ds.sentences1, ds.sentences2, ds.gold, strict=True)]
    with atomic_path(out_dir) as tmp:
        tmp.mkdir(parents=True)
        write_pairs(tmp / "train.tsv", PAIRS_HEADER, pairs.itertuples(index=False))
        write_pairs(tmp / "ppdb-lexical.tsv", LEXICAL_HEADER, lexical)
        write_pairs(tmp / "selection.tsv", SELECTION_HEADER, selection)
    total = {k: sum(st.to_dict()[k] for st in stats.values()) for k in next(iter(stats.values())).to_dict()}
    tokens = float(pairs[["sentence1", "sentence2"]].stack().str.count(" ").mean() + 1)
    return {"sources": {n: st.to_dict() for n, st in stats.items()}, "total": total,
            "evaluation_sentences": len(sentences), "ppdb_lexical_pairs": len(lexical),
            "tokens_per_sentence": round(tokens, 2)}


def write_pairs(path: str | Path, header: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> None:
    """A tab-separated file with a header line (no quoting: tokenised text holds no tab or newline)."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write("\t".join(header) + "\n")
        fh.writelines("\t".join(r) + "\n" for r in rows)


def read_pairs(path: str | Path, header: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The rows of a file written by :func:`write_pairs`.

    Raises:
        SentembError: a missing file, a different header, or a line with the wrong number of columns.
    """
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing pairs file (run `dvc repro pairs`)")
    lines = p.read_text(encoding="utf-8").split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines or tuple(lines[0].split("\t")) != header:
        raise SentembError(f"{p}:1: expected the header {chr(9).join(header)!r}")
    rows = []
    for n, line in enumerate(lines[1:], start=2):
        cols = tuple(line.split("\t"))
        if len(cols) != len(header):
            raise SentembError(f"{p}:{n}: expected {len(header)} tab-separated columns, found {len(cols)}")
        rows.append(cols)
    if not rows:
        raise SentembError(f"{p}: no pairs")
    return rows
