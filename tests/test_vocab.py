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
    assert Vocabulary.load(tmp_path / "v.tsv").words == v.words


def test_bad_vocabularies_are_clear_errors(tmp_path):
    with pytest.raises(SentembError, match="empty vocabulary"):
        Vocabulary.from_counts(Counter({"a": 1}), min_count=5, max_size=None)
    (tmp_path / "v.tsv").write_text("a\t3\nb three\n")
    with pytest.raises(SentembError, match=r"v.tsv:2: malformed vocabulary line"):
        Vocabulary.load(tmp_path / "v.tsv")
    with pytest.raises(SentembError, match="missing vocabulary file"):
        Vocabulary.load(tmp_path / "none.tsv")
