import json
import subprocess
import sys
import time
from collections import Counter

from helpers import ROOT, script_module

import numpy as np
import pytest

from sentemb.core.data.corpus import TokenCorpus, build_token_corpus, read_sentence_file
from sentemb.core.data.documents import detect_format, iter_documents, read_gutenberg, read_wikiextractor
from sentemb.core.data.encoding import encode_sentence_file, remap_corpus
from sentemb.core.errors import SentembError


def test_gutenberg_reader_strips_licence_and_rejoins_lines(gutenberg_book):
    name, text = gutenberg_book
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("*** START OF"))
    end = next(i for i, ln in enumerate(lines) if ln.startswith("*** END OF"))
    # a real excerpt: the licence header, 200 lines of the book, the footer
    excerpt = "\n".join(lines[: start + 200] + lines[end : end + 40])
    assert detect_format(excerpt) == "gutenberg"
    doc = read_gutenberg(excerpt, name)
    body = " ".join(doc.paragraphs)
    assert "Project Gutenberg" not in body and "PROJECT GUTENBERG" not in body
    assert doc.title == "An Old-fashioned Girl"
    # hard-wrapped lines are rejoined: the preface's first paragraph spans 4 lines of the file
    assert any(p.startswith("AS a preface is the only place") and p.endswith("readers.") for p in doc.paragraphs)
    assert all("\n" not in p for p in doc.paragraphs)


def test_wikiextractor_reader_keeps_articles_and_order(wiki_file):
    name, text = wiki_file
    lines = text.splitlines()
    ends = [i for i, ln in enumerate(lines) if ln.startswith("</doc>")]
    excerpt = "\n".join(lines[: ends[1] + 1])  # the first two articles
    assert detect_format(excerpt) == "wikiextractor"
    docs = read_wikiextractor(excerpt, name)
    assert [d.title for d in docs] == ["Anarchism", "Autism"]
    assert docs[0].paragraphs[0].startswith("Anarchism is a political philosophy")
    assert "Anarchism" not in docs[0].paragraphs  # the title line is not a paragraph


def test_wikiextractor_reader_names_the_line_of_a_broken_block():
    with pytest.raises(SentembError, match=r"wiki_00:3: malformed or nested <doc>"):
        read_wikiextractor('<doc id="1" url="u" title="A">\nA\n<doc id="2" url="u" title="B">\n', "wiki_00")
    with pytest.raises(SentembError, match="never closed"):
        read_wikiextractor('<doc id="1" url="u" title="A">\nA\ntext\n', "wiki_00")


def test_iter_documents_reads_shards_and_stops_early(shared):
    docs = list(iter_documents(shared / "corpus" / "enwiki" / "enwiki-01.tar.xz", max_documents=3))
    assert len(docs) == 3 and docs[0].title == "Anarchism"
    with pytest.raises(SentembError, match="missing corpus shard"):
        list(iter_documents(shared / "corpus" / "nope.tar.xz"))


def test_token_corpus_gather_and_roundtrip(tmp_path):
    docs = [[["a", "b"], ["zz"], ["c", "a", "b"]], [["b"]]]
    index = {"a": 0, "b": 1, "c": 2}
    corpus = build_token_corpus(docs, index)
    assert corpus.offsets.tolist() == [0, 2, 2, 5, 6]  # "zz" is unknown: an empty sentence, kept in place
    assert corpus.document_ids.tolist() == [0, 0, 0, 1]
    ids, offs = corpus.gather(np.array([2, 0, 1, 3]), max_length=2)
    assert ids.tolist() == [2, 0, 0, 1, 1] and offs.tolist() == [0, 2, 4, 4]
    corpus.save(tmp_path)
    back = TokenCorpus.load(tmp_path)
    assert np.array_equal(back.token_ids, corpus.token_ids) and back.n_sentences == 4


def test_one_reading_counts_and_encodes_as_two_do(tmp_path):
    """encode_sentence_file + np.bincount + TokenCorpus.remap (the vocab stage) give the counts of a Counter over
    read_sentence_file and the corpus of build_token_corpus: the same documents (blank lines at the start, in a row,
    none at the end), a sentence of unknown words kept empty."""
    path = tmp_path / "sentences.txt"
    path.write_text("\n\nthe cat sat\nzz qq\n\n\n\nthe dog\n\nа dog sat  the\ncat\n", encoding="utf-8")
    (tmp_path / "all").mkdir()
    types, type_counts, every_token = encode_sentence_file(path, tmp_path / "all", chunk_tokens=2)  # 2: many flushes
    counts = Counter(w for doc in read_sentence_file(path) for sentence in doc for w in sentence)
    assert dict(zip(types, type_counts.tolist(), strict=True)) == counts
    assert list(types) == list(counts) and list(types.values()) == list(range(len(types)))  # first appearance
    index = {"the": 0, "sat": 1, "cat": 2, "dog": 3}
    new_ids = np.array([index.get(w, -1) for w in types], dtype=np.int32)
    corpus, expected = every_token.remap(new_ids), build_token_corpus(read_sentence_file(path), index)
    for got, want in zip((corpus.token_ids, corpus.offsets, corpus.document_ids),
                         (expected.token_ids, expected.offsets, expected.document_ids), strict=True):
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
    assert corpus.offsets.tolist() == [0, 3, 3, 5, 8, 9]  # "zz qq": an empty sentence in place; Cyrillic "а" unknown
    assert corpus.document_ids.tolist() == [0, 0, 1, 2, 2]
    for chunk in (1, 3, 100):  # the streamed remap writes TokenCorpus.remap's arrays, byte for byte
        remap_corpus(every_token, new_ids, len(corpus.token_ids), tmp_path / f"remapped-{chunk}", chunk_tokens=chunk)
        corpus.save(tmp_path / "in-memory")
        for name in TokenCorpus.FILES:
            assert (tmp_path / f"remapped-{chunk}" / name).read_bytes() == (tmp_path / "in-memory" / name).read_bytes()
    with pytest.raises(SentembError, match="keeps 9 tokens, not the 10 announced"):
        remap_corpus(every_token, new_ids, 10, tmp_path / "wrong")
    (tmp_path / "blank.txt").write_text("\n\n")
    with pytest.raises(SentembError, match=r"blank\.txt: empty corpus"):
        encode_sentence_file(tmp_path / "blank.txt", tmp_path)
    with pytest.raises(SentembError, match=r"none\.txt: missing sentence file"):
        encode_sentence_file(tmp_path / "none.txt", tmp_path)


def test_empty_corpus_is_a_clear_error(tmp_path):
    with pytest.raises(SentembError, match="empty corpus"):
        build_token_corpus([], {"a": 0})
    (tmp_path / "s.txt").write_text("\n\n")
    assert list(read_sentence_file(tmp_path / "s.txt")) == []
    with pytest.raises(SentembError, match="missing sentence file"):
        list(read_sentence_file(tmp_path / "none.txt"))
    with pytest.raises(SentembError, match=r"token_ids\.npy: missing file"):
        TokenCorpus.load(tmp_path)


def test_the_current_gutenberg_end_marker_is_cut(gutenberg_book):
    """Books released since 2021 end with "*** END OF THE PROJECT GUTENBERG EBOOK TITLE ***", which gutenbergpy's
    marker list misses: the licence after it must not become sentences."""
    from sentemb.core.data.documents import read_gutenberg

    header = ("The Project Gutenberg eBook of A Tale\n\nTitle: A Tale\n\n"
              "*** START OF THE PROJECT GUTENBERG EBOOK A TALE ***\n\n")
    body = "It was a dark night.\n\nThe end.\n\n"
    footer = ("*** END OF THE PROJECT GUTENBERG EBOOK A TALE ***\n\n"
              "Updated editions will replace the previous one. Section 1. General Terms of Use and Redistributing "
              "Project Gutenberg electronic works\n")
    doc = read_gutenberg(header + body + footer, "tale.txt")
    assert doc.paragraphs == ["It was a dark night.", "The end."] and doc.title == "A Tale"
    from gutenbergpy.textget import strip_headers

    from sentemb.core.data.documents import paragraphs_from_wrapped

    name, text = gutenberg_book  # a book of the default shards reads exactly as gutenbergpy alone strips it
    assert read_gutenberg(text, name).paragraphs == paragraphs_from_wrapped(
        strip_headers(text.encode("utf-8")).decode("utf-8"))


def test_cost_curves_sample_whole_documents_nested_and_fit_power_laws(tmp_path):
    """``benchmarks/cost_curves.py``: a fraction's corpus is whole documents of the split stage's folder, in corpus
    order, each smaller fraction's documents among the larger's, with the statistics the stages read; the fit of
    a · x^b recovers a power law and that of c + k · x a line."""
    bench = script_module("benchmarks/cost_curves.py")
    source = tmp_path / "sentences"
    source.mkdir()
    docs = [[f"d{d} s{s} " + "w " * d for s in range(d % 3 + 1)] for d in range(40)]
    (source / "sentences.txt").write_text("".join("".join(f"{line}\n" for line in doc) + "\n" for doc in docs))
    (source / "documents.tsv").write_text("document\tsource\ttitle\tsentences\ttokens\n" + "".join(
        f"{d}\tshard\tt{d}\t{len(doc)}\t{sum(len(line.split()) for line in doc)}\n" for d, doc in enumerate(docs)))
    (source / "stats.json").write_text(json.dumps({"documents": 40, "text": {"tokenizer": "treebank"}}))
    kept = {}
    for fraction in (0.25, 0.5):
        stats = bench.sample_documents(source, tmp_path / str(fraction), fraction)
        text = (tmp_path / str(fraction) / "sentences.txt").read_text()
        blocks = [b.splitlines() for b in text.split("\n\n") if b]
        ids = [int(b[0].split()[0][1:]) for b in blocks]
        assert blocks == [docs[i] for i in ids] and ids == sorted(ids)
        assert stats["documents"] == len(ids) and stats["sentences"] == sum(len(docs[i]) for i in ids)
        assert stats["tokens"] == sum(len(line.split()) for i in ids for line in docs[i])
        assert stats["text"] == {"tokenizer": "treebank"}
        kept[fraction] = set(ids)
    assert kept[0.25] < kept[0.5] and 0 < len(kept[0.25]) < 40
    a, b = bench.fit([(1e6, 3 * 1e6 ** 0.7), (4e6, 3 * 4e6 ** 0.7), (1.6e7, 3 * 1.6e7 ** 0.7)])
    assert a == pytest.approx(3, rel=1e-9) and b == pytest.approx(0.7, rel=1e-9)
    assert bench.fit([(1e6, 5.0)]) is None
    assert bench.fit_linear([(1e6, 3.0), (2e6, 5.0), (4e6, 9.0)]) == pytest.approx((1.0, 2e-6))


def test_stage_memory_samples_the_stage_process_it_waits_for(tmp_path, monkeypatch):
    """``benchmarks/stage_memory.py``: the process of ``python stages/glove.py glove`` is found by its script and
    argument (not another stage's), and sampled until it exits: its 256 MiB array in the anonymous peak, its sleep in
    the wall time."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))  # its sibling cost_curves.py
    bench = script_module("benchmarks/stage_memory.py")
    (tmp_path / "stages").mkdir()
    (tmp_path / "stages/glove.py").write_text("import time\nimport numpy as np\n\na = np.ones(2**25)\ntime.sleep(1.5)")
    child = subprocess.Popen([sys.executable, "stages/glove.py", "glove"], cwd=tmp_path)
    try:
        while (proc := bench.find(["glove.py", "glove"])) is None:
            time.sleep(0.05)
        assert proc.pid == child.pid and bench.find(["glove.py", "other"]) is None
        figures = bench.sample(proc, 0.1)
    finally:
        child.wait()
    assert 256 <= figures["peak_anonymous_mib"] <= figures["peak_rss_mib"] < 1024
    assert figures["wall_s"] >= 1.0 and figures["cpu_s"] > 0


@pytest.mark.slow
def test_cost_curves_run_a_stage_script_on_fractions_of_the_smoke_corpus(smoke, tmp_path):
    """The benchmark end to end on the smoke run's sentences: the vocab stage's own script at two fractions, each
    point with its tokens and positive times and sizes in the report, and the table extrapolating from them."""
    script = ROOT / "benchmarks" / "cost_curves.py"
    res = subprocess.run([sys.executable, str(script), str(smoke / "data/sentences"), str(tmp_path / "out"),
                          "--fractions", "0.5", "1", "--split-documents", "--stages", "vocab"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    points = json.loads((tmp_path / "out/cost_curves.json").read_text())["vocab"]
    total = json.loads((smoke / "data/sentences/stats.json").read_text())["tokens"]
    assert [p["fraction"] for p in points] == [0.5, 1] and points[1]["tokens"] == total > points[0]["tokens"] > 0
    assert all(p["wall_s"] >= 0 and p["peak_rss_mib"] > 0 and p["output_mib"] > 0 for p in points)
    assert "| vocab | wall_s | a·x^b |" in res.stdout and not (tmp_path / "out/fraction-1").exists()
