from typing import ClassVar

import numpy as np
import pytest
from scipy import stats

from sentemb.core.data.benchmarks import load_benchmarks, read_sick, read_sts_pairs, read_stsb
from sentemb.core.errors import SentembError
from sentemb.core.evaluation.correlation import correlations
from sentemb.core.evaluation.cosine import cosine_scores
from sentemb.core.evaluation.sts import Evaluation, aggregate, evaluate
from sentemb.papers import MEANS

# scored pairs per dataset, as published by the organisers (and in the data PROVENANCE)
PUBLISHED = {
    "STS12": {"MSRpar": 750, "MSRvid": 750, "SMTeuroparl": 459, "OnWN": 750, "SMTnews": 399},
    "STS13": {"FNWN": 189, "headlines": 750, "OnWN": 561},
    "STS14": {"deft-forum": 450, "deft-news": 300, "headlines": 750, "images": 750, "OnWN": 750, "tweet-news": 750},
    "STS15": {"answers-forums": 375, "answers-students": 750, "belief": 375, "headlines": 750, "images": 750},
    "STS16": {"answer-answer": 254, "headlines": 249, "plagiarism": 230, "postediting": 244, "question-question": 209},
    "SICK-R": {"test": 4927},
    "STS-B": {"dev": 1500, "test": 1379},
    "PIT-2015": {"test": 972},  # SemEval-2015 Task 1 test, graded labels, debatable pairs kept
}


def test_every_benchmark_has_its_published_pair_count(shared):
    datasets = load_benchmarks(shared)
    got = {}
    for ds in datasets:
        got.setdefault(ds.group, {})[ds.name] = len(ds)
        assert len(ds.sentences1) == len(ds.sentences2) == len(ds)
        assert np.isfinite(ds.gold).all()
    assert got == PUBLISHED  # 2013 SMT (LDC only) is absent: 3 sets in 2013, 19 in 2012-2015



def test_the_benchmark_sets_file_gives_back_every_set_as_read(shared, tmp_path):
    """benchmark-tokens writes the sets as read from the raw files, and evaluation reads them back: the same sets in
    the same order, the same sentences and the same gold scores to the bit; a file that is not such a file is one
    line naming it."""
    from sentemb.core.data.benchmarks import read_benchmark_sets, write_benchmark_sets

    datasets = load_benchmarks(shared)
    write_benchmark_sets(tmp_path / "sets.json", datasets)
    back = read_benchmark_sets(tmp_path / "sets.json")
    assert [d.key for d in back] == [d.key for d in datasets]
    for a, b in zip(datasets, back, strict=True):
        assert (a.sentences1, a.sentences2, a.path) == (b.sentences1, b.sentences2, b.path)
        assert a.gold.dtype == b.gold.dtype and a.gold.tobytes() == b.gold.tobytes()
    (tmp_path / "bad.json").write_text('[{"group": "STS12"}]')
    with pytest.raises(SentembError, match=r"bad\.json: not a file of benchmark sets written by benchmark-tokens"):
        read_benchmark_sets(tmp_path / "bad.json")
    with pytest.raises(SentembError, match=r"missing benchmark sets \(run `dvc repro benchmark-tokens`\)"):
        read_benchmark_sets(tmp_path / "none.json")

def test_quirks_of_the_official_files(shared):
    # 2016: four columns, the source notes are not part of the sentences
    ds = read_sts_pairs(shared / "sts/2016/STS2016.input.headlines.txt", shared / "sts/2016/STS2016.gs.headlines.txt",
                        "STS16", "headlines")
    assert not any("\t" in s for s in ds.sentences1 + ds.sentences2)
    # SICK test: CRLF endings are stripped from the last column and the scores are 1-5
    sick = read_sick(shared / "sick/SICK_test_annotated.txt")
    assert not any(s.endswith("\r") for s in sick.sentences2) and sick.gold.min() >= 1 and sick.gold.max() <= 5
    # STS-B: unbalanced quotes do not merge rows; extra licence columns are ignored
    stsb = read_stsb(shared / "stsbenchmark/sts-test.csv", "test")
    assert len(stsb) == 1379 and stsb.gold.min() >= 0 and stsb.gold.max() <= 5


def test_malformed_sts_lines_name_file_and_line(tmp_path):
    inp, gs = tmp_path / "STS.input.x.txt", tmp_path / "STS.gs.x.txt"
    inp.write_text("a b\tc d\nonly one column\n")
    gs.write_text("3.0\n4.0\n")
    with pytest.raises(SentembError, match=r"STS.input.x.txt:2: expected two tab-separated sentences"):
        read_sts_pairs(inp, gs, "STS12", "x")
    gs.write_text("3.0\nfour\n")
    with pytest.raises(SentembError, match=r"STS.gs.x.txt:2: gold score 'four' is not a number"):
        read_sts_pairs(inp, gs, "STS12", "x")
    gs.write_text("3.0\n")
    with pytest.raises(SentembError, match="1 gold lines"):
        read_sts_pairs(inp, gs, "STS12", "x")
    with pytest.raises(SentembError, match="missing file"):
        read_sts_pairs(tmp_path / "nope.txt", gs, "STS12", "x")
    with pytest.raises(SentembError, match="unknown benchmark 'STS17'"):
        load_benchmarks(tmp_path, ["STS17"])


def test_empty_gold_lines_are_dropped_not_scored(tmp_path):
    inp, gs = tmp_path / "i.txt", tmp_path / "g.txt"
    inp.write_text("a\tb\nc\td\ne\tf\n")
    gs.write_text("1.5\n\n4\n")
    ds = read_sts_pairs(inp, gs, "STS15", "x")
    assert ds.sentences1 == ["a", "e"] and ds.gold.tolist() == [1.5, 4.0]


def test_correlations_match_scipy():
    """pandas' Pearson and Spearman (average ranks for ties, as STS gold scores have) are scipy's to 1e-12."""
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=50), rng.normal(size=50)
    for pred, gold in ((x, y), (x, np.round(y * 2) / 2), (np.round(x, 1), rng.integers(0, 6, size=50) * 1.0)):
        r, rho = correlations(pred, gold)
        assert r == pytest.approx(stats.pearsonr(pred, gold)[0] * 100, rel=1e-12, abs=1e-12)
        assert rho == pytest.approx(stats.spearmanr(pred, gold)[0] * 100, rel=1e-12, abs=1e-12)
    assert correlations(np.zeros(5), y[:5]) == (0.0, 0.0)  # constant prediction: 0, not NaN


def test_cosine_of_a_sentence_without_known_word_is_zero_not_nan():
    e1 = np.array([[1.0, 0.0], [0.0, 0.0], [3.0, 4.0]])
    e2 = np.array([[1.0, 1.0], [1.0, 0.0], [-3.0, -4.0]])
    scores, undefined = cosine_scores(e1, e2)
    assert scores == pytest.approx([1 / np.sqrt(2), 0.0, -1.0])
    assert undefined.tolist() == [False, True, False]


def test_year_aggregates_unweighted_weighted_pooled():
    import pandas as pd

    datasets = pd.DataFrame({"group": ["STS12", "STS12"], "dataset": ["MSRpar", "MSRvid"],
                             "set": ["STS12.MSRpar", "STS12.MSRvid"], "pairs": [3, 4],
                             "pearson": [50.0, 80.0], "spearman": [40.0, 60.0], "no_known_word": [1, 0]})
    pairs = pd.DataFrame({"group": "STS12", "dataset": ["MSRpar"] * 3 + ["MSRvid"] * 4, "pair": range(7),
                          "gold": [1, 2, 3, 1, 2, 3, 4], "score": [0.1, 0.3, 0.2, 0.5, 0.6, 0.8, 0.7]})
    m = aggregate(Evaluation(datasets, pairs), MEANS)
    assert m["STS12"]["pearson"] == 65.0 and m["STS12"]["spearman"] == 50.0
    assert m["STS12"]["pearson_wmean"] == pytest.approx((3 * 50 + 4 * 80) / 7, abs=0.005)
    pooled = stats.pearsonr(pairs["score"], pairs["gold"])[0] * 100
    assert m["STS12"]["pearson_pooled"] == pytest.approx(pooled, abs=0.005)
    assert m["STS12-15"] == {"pearson": 65.0, "spearman": 50.0, "datasets": 2}
    assert m["NWS-18"] == {"pearson": 50.0, "spearman": 40.0, "datasets": 1}  # Bollegala et al. leave MSRvid out
    assert m["all"] == {"pearson": 65.0, "spearman": 50.0, "datasets": 2}
    assert m["pairs_without_known_word"] == 1
    assert "GRAN-22" not in m  # only when every group of Wieting & Gimpel's 22 sets was evaluated


def test_gran_22_mean_over_sts12_15_sick_and_pit():
    import pandas as pd

    groups = ["STS12", "STS13", "STS14", "STS15", "SICK-R", "PIT-2015", "STS16"]
    r = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 99.0]
    datasets = pd.DataFrame({"group": groups, "dataset": "x", "set": [f"{g}.x" for g in groups], "pairs": 3,
                             "pearson": r, "spearman": r, "no_known_word": 0})
    pairs = pd.DataFrame({"group": [g for g in groups for _ in range(3)], "dataset": "x", "pair": 0,
                          "gold": [1, 2, 3] * 7, "score": [0.1, 0.2, 0.4] * 7})
    m = aggregate(Evaluation(datasets, pairs), MEANS)
    assert m["GRAN-22"] == {"pearson": 35.0, "spearman": 35.0, "datasets": 6}  # STS16 (selection) left out
    assert m["PIT-2015"] == {"pearson": 60.0, "spearman": 60.0, "pairs": 3}


class _BagOfWords:
    """A transparent encoder for the test: counts of three words."""

    vocab: ClassVar[dict[str, int]] = {"cat": 0, "dog": 1, "sat": 2}

    def encode(self, sentences):
        out = np.zeros((len(sentences), 3))
        for i, s in enumerate(sentences):
            for w in s.lower().split():
                if w in self.vocab:
                    out[i, self.vocab[w]] += 1
        return out


def test_evaluate_scores_each_pair_by_cosine(tmp_path):
    (tmp_path / "i.txt").write_text("cat sat\tcat sat\ncat\tdog\ncat sat\tcat\nfish\tcat\n")
    (tmp_path / "g.txt").write_text("5\n1\n2\n0\n")
    ds = read_sts_pairs(tmp_path / "i.txt", tmp_path / "g.txt", "STS12", "toy")
    ev = evaluate(_BagOfWords(), [ds])
    assert ev.pairs["score"].tolist() == pytest.approx([1.0, 0.0, 2**-0.5, 0.0])
    row = ev.datasets.iloc[0]
    assert row["no_known_word"] == 1
    assert row["pearson"] == pytest.approx(stats.pearsonr([1, 0, 2**-0.5, 0], [5, 1, 2, 0])[0] * 100)


def test_wilcoxon_between_models_per_dataset():
    import pandas as pd

    from sentemb.reporting.significance import wilcoxon_table

    rng = np.random.default_rng(1)
    base = pd.DataFrame({"group": "STS12", "dataset": ["x"] * 30 + ["y"] * 30, "pair": list(range(30)) * 2,
                         "gold": 0.0, "score": rng.normal(size=60)})
    shifted = base.assign(score=base["score"] + np.r_[np.full(30, 1.0), np.zeros(30)])
    p = wilcoxon_table(shifted, base).set_index("dataset")["p"]
    assert p["x"] == pytest.approx(stats.wilcoxon(shifted["score"][:30], base["score"][:30]).pvalue)
    assert p["x"] < 1e-4 and p["y"] == 1.0
    with pytest.raises(SentembError, match="different pairs"):
        wilcoxon_table(base, base.iloc[:40])


def test_fisher_interval_and_the_nws_significance_mark():
    import pandas as pd

    from sentemb.papers.bollegala2018 import NWS_SETS
    from sentemb.reporting.bollegala2018 import nws_table1
    from sentemb.reporting.significance import fisher_interval

    low, high = fisher_interval(np.array([0.5]), np.array([103]))
    # atanh(0.5) = 0.5493; ± 1.95996 / 10 → tanh(0.3533), tanh(0.7453)
    np.testing.assert_allclose([low[0], high[0]], [0.33931, 0.63234], atol=1e-4)
    rows = {"group": ["STS12", "STS12", "STS16"], "dataset": ["MSRpar", "OnWN", "headlines"], "pairs": [750, 750, 249]}
    isf = pd.DataFrame(rows | {"pearson": [50.0, 50.0, 50.0]})
    nws = pd.DataFrame(rows | {"pearson": [57.0, 53.0, 60.0]})
    table, significant = nws_table1({"ISF": isf, "NWS": nws}, NWS_SETS)
    # 750 pairs: the interval of r = .50 ends at .5518; 249 pairs: at .5877
    assert significant.tolist() == [True, False, True, False, False]
    assert table["dataset"].tolist()[-2:] == ["the paper's 2 sets", "all 3 datasets"]
    assert table["NWS"].tolist()[-2:] == [55.0, 170 / 3]


def test_williams_test_matches_the_published_example_and_holds_its_level():
    from sentemb.reporting.significance import williams_scores, williams_test

    # Steiger 1980 case A as in R's psych::r.test(n = 103, r12 = .4, r13 = .5, r23 = .1): t = -0.89, p = 0.37 two-sided
    t, p = williams_test(0.4, 0.5, 0.1, 103)
    assert t == pytest.approx(-0.8913, abs=1e-4) and 2 * (1 - p) == pytest.approx(0.3749, abs=1e-4)
    # equal true correlations with gold: the one-sided test rejects at about its nominal 5%
    rng = np.random.default_rng(0)
    rejections = 0
    for _ in range(2000):
        gold = rng.normal(size=60)
        a = 0.5 * gold + rng.normal(size=60)
        b = 0.5 * gold + 0.6 * (a - 0.5 * gold) + 0.8 * rng.normal(size=60)  # as good as A, correlated with it
        rejections += williams_scores(gold, a, b)[1] < 0.05
    assert 0.03 < rejections / 2000 < 0.07
    gold = rng.normal(size=500)
    assert williams_scores(gold, gold + rng.normal(size=500), gold + 3 * rng.normal(size=500))[1] < 1e-6
    with pytest.raises(SentembError, match="at least 4 pairs"):
        williams_test(0.1, 0.2, 0.3, 3)


def test_word_similarity_is_gensims_evaluate_word_pairs_over_its_rows_alone():
    """SimLex-999 and WordSim-353 scored without gensim give gensim's own ``evaluate_word_pairs`` over the whole
    vocabulary: case forms (gensim takes a word's first, in upper case), unknown words (pairs skipped and counted), a
    zero vector."""
    from gensim.test.utils import datapath

    import sentemb.core.evaluation.word_similarity as word_similarity_module
    from sentemb.core.evaluation.word_similarity import (
        WORD_SIMILARITY,
        word_similarity,
        word_similarity_rows,
        word_similarity_words,
    )
    from sentemb.core.models.word_vectors import WordVectors

    rng = np.random.default_rng(0)
    known = sorted(word_similarity_words())
    for words in (["tıger"] + [f"filler{i}" for i in range(3000)] + known[::2] + ["Tiger", "OLD"] + known[1::2],
                  known[::3] + ["filler"] + [w.upper() for w in known[1::3]]):  # a third of the words unknown
        vectors = rng.standard_normal((len(words), 20)).astype(np.float32)
        vectors[words.index(known[0])] = 0  # a zero vector: cosine 0, as gensim's unitvec leaves it
        counts = np.arange(len(words))[::-1]
        rows = word_similarity_rows(words)
        upper = {w.upper() for w in known}  # "tıger" (a dotless i) is TIGER to gensim, not "tiger" lower-cased
        assert np.all(np.diff(rows) > 0) and len(rows) == sum(w.upper() in upper for w in words)
        every = WordVectors.from_arrays(words, counts, vectors)
        scores = word_similarity(every)  # over the rows alone
        kv = every.keyed_vectors()  # gensim over the whole vocabulary
        for name, file in WORD_SIMILARITY.items():
            assert str(word_similarity_module.datapath(file)) == datapath(file)  # gensim's file, found without gensim
            pearson, spearman, oov = kv.evaluate_word_pairs(datapath(file), restrict_vocab=len(kv))
            assert abs(scores[name]["spearman"] - float(spearman[0]) * 100) < 0.0051
            assert abs(scores[name]["pearson"] - float(pearson[0]) * 100) < 0.0051
            assert scores[name]["oov_percent"] == round(float(oov), 2)
            assert scores[name]["pairs"] == {"SimLex-999": 999, "WordSim-353": 353}[name]
    assert scores["SimLex-999"]["oov_percent"] > 30
    nothing = word_similarity(WordVectors.from_arrays(["filler"], np.ones(1, dtype=np.int64),
                                                      np.ones((1, 20), dtype=np.float32)))
    assert nothing["WordSim-353"] == {"spearman": 0.0, "pearson": 0.0, "oov_percent": 100.0, "pairs": 353}


def test_word_similarity_imports_neither_gensim_nor_scipy():
    """Scoring word vectors loads neither gensim nor scipy (0.7 s of every evaluation stage that scores words)."""
    import subprocess
    import sys

    code = ("import sys, numpy as np\n"
            "from sentemb.core.evaluation.word_similarity import word_similarity\n"
            "from sentemb.core.models.word_vectors import WordVectors\n"
            "v = WordVectors.from_arrays(['old', 'new', 'tiger', 'cat'], np.ones(4, dtype=np.int64),\n"
            "                            np.eye(4, dtype=np.float32))\n"
            "print(word_similarity(v)['WordSim-353']['pairs'])\n"
            "print(sorted(m for m in ('gensim', 'scipy') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == ["353", "[]"]


def test_report_figures_are_the_same_bytes_for_the_same_numbers_and_load_nothing():
    """The reports' SVG: deterministic (DVC sees an unchanged output) and self-contained (opens without a network)."""
    import pandas as pd

    from sentemb.reporting.figures import curves, dataset_bars

    scores = pd.DataFrame({"AVG": [61.2, 70.5, np.nan], "GRAN": [63.0, 71.9, 55.5]}, index=["STS12.MSRpar",
                                                                                          "STS16.headlines", "mean"])
    line = {"STS12-15": pd.Series([49.1, 48.8, 41.0], index=[0.0, 10.0, 67.0])}
    for draw in (lambda: dataset_bars(scores, "per set"), lambda: curves(line, "amount", "Σ lr", "r", log_x=True)):
        first, second = draw(), draw()
        assert first == second and first.lstrip().startswith("<?xml") and "<svg" in first
        assert "<image" not in first and "<script" not in first and "dc:date" not in first
    assert "STS16.headlines" in dataset_bars(scores, "per set")  # text kept as text (svg.fonttype none)
