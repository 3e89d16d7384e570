from collections import Counter

import pytest

from sentemb.core.data.vocab import Vocabulary
from sentemb.core.errors import SentembError


def test_min_count_and_order(tmp_path):
    v = Vocabulary.from_counts(Counter({"b": 5, "a": 5, "c": 9, "d": 4}), min_count=5, max_size=None)
    assert v.words == ["c", "a", "b"] and v.counts.tolist() == [9, 5, 5]
    assert v.encode(["a", "d", "c"]) == [1, 0]
    v.save(tmp_path / "v.tsv")
    assert (tmp_path / "v.tsv").read_text() == "c\t9\na\t5\nb\t5\n"
    loaded = Vocabulary.load(tmp_path / "v.tsv")
    assert loaded.words == v.words and loaded.counts.tolist() == [9, 5, 5] and loaded.index == {"c": 0, "a": 1, "b": 2}


def test_bad_vocabularies_are_clear_errors(tmp_path):
    with pytest.raises(SentembError, match="empty vocabulary"):
        Vocabulary.from_counts(Counter({"a": 1}), min_count=5, max_size=None)
    for text, line in (("a\t3\nb three\n", 2), ("a\t3\nb\t1\t2\n", 2), ("a\t²\n", 1), ("a\t3\n\tb\n", 2),
                       ("a\t3\nb\t\n", 2), ("a\t1\t2\n3\n", 1), ("a\t1\n\n", 2), ("a\t1\nb\t2\n\tc\t3\n", 3)):
        (tmp_path / "v.tsv").write_text(text, encoding="utf-8")
        with pytest.raises(SentembError, match=rf"v.tsv:{line}: malformed vocabulary line"):
            Vocabulary.load(tmp_path / "v.tsv")
    (tmp_path / "v.tsv").write_text("")
    with pytest.raises(SentembError, match=r"v\.tsv: empty vocabulary file"):
        Vocabulary.load(tmp_path / "v.tsv")
    with pytest.raises(SentembError, match="missing vocabulary file"):
        Vocabulary.load(tmp_path / "none.tsv")
