"""The claims ledger (verdicts, Holm's adjustment, the intervals) and the harness table's pieces."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sentemb.core.errors import SentembError
from sentemb.reporting.claims import (
    ClaimsBlock,
    claim,
    comparison_claim,
    holm,
    judge,
    not_testable,
    resolve_claims,
)
from sentemb.reporting.significance import (
    correlation_equivalence,
    count_above_chance,
    mean_interval,
    paired_over_datasets,
    rank_biserial,
    seeds_and_pairs_bootstrap,
    williams_table,
    zou_interval,
)


@pytest.mark.parametrize("expects, effect, p, verdict", [
    ("better", 2.1, 0.01, "reproduced"),
    ("better", 2.1, 0.37, "inconclusive"),       # a weak test, not a contradiction
    ("better", -2.1, 0.37, "inconclusive"),      # nor does the other direction without significance contradict
    ("better", -2.1, 0.01, "contradicted"),
    ("better", 0.0, 0.001, "inconclusive"),      # a tie points neither way
    ("positive", 0.27, 1e-70, "reproduced"),
    ("negative", 0.17, 1e-20, "contradicted"),   # the paper's CBOW saliences correlate negatively; ours positively
    ("negative", -0.2, 0.2, "inconclusive"),
])
def test_the_verdict_of_a_claim(expects, effect, p, verdict):
    assert judge(expects, effect, p) == verdict


@pytest.mark.parametrize("effect, p, p_equivalence, verdict", [
    (0.2, 0.6, 0.001, "reproduced"),      # within the margin, shown
    (2.1, 0.01, 0.9, "contradicted"),     # the paper has A and B level; A significantly better
    (-2.1, 0.01, 0.9, "contradicted"),    # ... or significantly worse: no longer "reproduced"
    (0.3, 0.6, 0.4, "inconclusive"),      # neither a difference nor equivalence: a weak test is no evidence
    (0.4, 0.01, 0.01, "reproduced"),      # a significant difference inside the margin is still level
])
def test_a_level_claim_is_judged_by_its_equivalence_test(effect, p, p_equivalence, verdict):
    assert judge("level", effect, p, p_equivalence=p_equivalence) == verdict
    with pytest.raises(ValueError, match="equivalence"):
        judge("level", effect, p)


def test_tost_over_datasets_needs_the_differences_inside_the_margin():
    """Twelve datasets whose differences scatter ±0.3 around 0 are level within ±1 (p < 0.01) and not within ±0.1;
    differences around +2 are not level within ±1; the two-sided test sees no difference in the first case."""
    rng = np.random.default_rng(0)
    a = pd.Series(rng.uniform(40, 70, 12))
    near = paired_over_datasets(a + rng.uniform(-0.3, 0.3, 12), a)
    assert near["p_equivalence"] < 0.01 and near["p"] > 0.05
    assert paired_over_datasets(a + rng.uniform(-0.3, 0.3, 12), a, margin=0.1)["p_equivalence"] > 0.05
    assert paired_over_datasets(a + 2 + rng.uniform(-0.3, 0.3, 12), a)["p_equivalence"] > 0.5


def test_correlation_equivalence_and_the_binomial_count():
    """r = 0.03 over 5,000 words is within ±0.1 of zero (TOST p tiny); r = 0.09 over 100 words is not shown to be;
    14 of 20 against a chance of 1/3 is above chance (binomial p 0.0012), its interval shifted by the chance."""
    assert correlation_equivalence(0.03, 5000, 0.1) < 1e-6
    assert correlation_equivalence(0.09, 100, 0.1) > 0.4
    c = count_above_chance(14, 20, 1 / 3)
    assert c["effect"] == pytest.approx(14 / 20 - 1 / 3) and c["p"] == pytest.approx(
        stats.binomtest(14, 20, 1 / 3).pvalue)
    assert c["ci95"][0] < c["effect"] < c["ci95"][1]


def test_a_claim_says_whether_the_papers_effect_is_inside_our_interval():
    inside = claim("k", "T", "A beats B", "", "", effect=2.0, ci95=(0.5, 3.5), p=0.01, paper_effect=3.0)
    outside = claim("k", "T", "A beats B", "", "", effect=2.0, ci95=(0.5, 3.5), p=0.01, paper_effect=-0.37)
    unknown = claim("k", "T", "A beats B", "", "", effect=2.0, ci95=(0.5, 3.5), p=0.01)
    assert [c["paper_effect_in_ci95"] for c in (inside, outside, unknown)] == [True, False, None]
    with pytest.raises(ValueError, match="level claim needs its equivalence test"):
        claim("k", "T", "A and B level", "", "", expects="level", effect=0.1, ci95=(-1, 1), p=0.5)


def test_alpha_is_the_threshold():
    assert judge("better", 2.0, 0.03) == "reproduced"
    assert judge("better", 2.0, 0.03, alpha=0.01) == "inconclusive"


def test_holm_is_statsmodels_step_down_and_monotone():
    """Holm 1979 by hand: sorted p (0.01, 0.02, 0.04) → (3·0.01, max(0.03, 2·0.02), max(0.04, 1·0.04)), back in the
    original order."""
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([]) == []


def test_resolve_claims_judges_the_paper_as_one_family_and_renders_in_place():
    """Three claims in two blocks of one report: each p is adjusted over all three; a claim significant alone (p 0.02)
    is inconclusive after the adjustment; the not-testable claim has no p and no code; the ledger keeps the report's
    order and is JSON."""
    first = ClaimsBlock([claim("a-beats-b", "Table 1", "A beats B", "60 vs 50", "A 61 vs B 55", effect=6.0,
                               ci95=(2.0, 9.0), p=0.001)])
    second = ClaimsBlock([claim("c-beats-d", "Table 2", "C beats D", "70 vs 65", "C 66 vs D 64", effect=2.0,
                                ci95=(0.1, 3.9), p=0.02),
                          not_testable("e-beats-f", "§4", "E beats F", "40 vs 30", "no E here")])
    parts, ledger = resolve_claims(["# Report\n", first, "middle\n", second])
    assert [c["key"] for c in ledger] == ["a-beats-b", "c-beats-d", "e-beats-f"]
    assert ledger[0]["p_holm"] == pytest.approx(0.002) and ledger[1]["p_holm"] == pytest.approx(0.02)
    assert [c["verdict"] for c in ledger] == ["reproduced", "reproduced", "not testable"]
    assert [c["verdict_code"] for c in ledger] == [1, 1, None]
    _, ledger = resolve_claims([ClaimsBlock([claim(k, "T", k, "", "", effect=1.0, p=p) for k, p in
                                             (("x", 0.02), ("y", 0.03), ("z", 0.04))])])
    assert [c["verdict"] for c in ledger] == ["inconclusive"] * 3  # 0.02 · 3 = 0.06 ≥ 0.05
    assert parts[0] == "# Report\n" and parts[2] == "middle\n"
    assert parts[1].startswith("- **reproduced**: A beats B (Table 1, paper: 60 vs 50): A 61 vs B 55; effect +6.00 "
                               "[+2.00, +9.00]; p = 0.001, Holm 0.002")
    assert "- **not testable**: E beats F (§4, paper: 40 vs 30): no E here" in parts[3]
    json.dumps(ledger)
    with pytest.raises(ValueError, match="claim keys repeat"):
        resolve_claims([ClaimsBlock([not_testable("k", "", "", "", ""), not_testable("k", "", "", "", "")])])


def test_a_model_with_seeds_is_tested_on_its_runs_mean_and_every_seed_pair_must_agree():
    """Three runs of A against one of B over 12 datasets: the Wilcoxon test takes each dataset's mean over A's runs,
    seed_effects holds each run's mean difference, and the claim names its runs. When one run points the other way
    the verdict cannot be reproduced (the seeds disagree: inconclusive), though the mean is significant; a level claim
    needs every run within the margin."""
    rng = np.random.default_rng(3)
    sets = [f"S.{i}" for i in range(12)]
    b = pd.Series(rng.normal(60, 5, 12), index=sets)
    runs = {"a": b + 4, "a-seed2": b + 3, "a-seed3": b + 2 + rng.normal(0, 0.1, 12)}
    c = paired_over_datasets(runs, {"b": b})
    assert c["mean_a"] == pytest.approx(pd.concat(runs.values(), axis=1).mean(axis=1).mean())
    assert c["runs_a"] == ["a", "a-seed2", "a-seed3"] and c["runs_b"] == ["b"]
    assert c["seed_effects"] == pytest.approx([4.0, 3.0, 2.0], abs=0.1) and c["p"] < 0.001
    agree = comparison_claim("a-beats-b", "T1", "A beats B", "", "A", "B", c)
    assert agree["seeds"] == {"A": ["a", "a-seed2", "a-seed3"], "B": ["b"]}
    runs["a-seed3"] = b - 1.5  # one seed the other way: the mean still 1.83 points up on every set
    c = paired_over_datasets(runs, {"b": b})
    disagree = comparison_claim("a-beats-b-2", "T1", "A beats B", "", "A", "B", c)
    parts, ledger = resolve_claims([ClaimsBlock([agree, disagree])])
    assert [x["verdict"] for x in ledger] == ["reproduced", "inconclusive"]
    assert [x["seeds_agree"] for x in ledger] == [True, False] and ledger[1]["p_holm"] < 0.05
    assert "seeds A 3, B 1, which disagree" in parts[0]
    level = {"a": b + 0.2, "a-seed2": b - 0.3, "a-seed3": b + 1.4}  # TOST passes on the mean, one run beyond ±1
    c = paired_over_datasets(level, {"b": b})
    _, ledger = resolve_claims([ClaimsBlock([comparison_claim("lv", "T", "level", "", "A", "B", c, expects="level")])])
    assert c["p_equivalence"] < 0.01 and ledger[0]["verdict"] == "inconclusive"
    with pytest.raises(SentembError, match="a-seed2: scored on other datasets"):
        paired_over_datasets({"a": b, "a-seed2": b.iloc[:10]}, b)


def test_the_seeds_and_pairs_bootstrap_counts_both_sources_of_variance():
    """One run each: the bootstrap over pairs agrees with Williams' test (both significant, the same r); five runs of
    A whose spread between seeds is larger than the gap widen the interval to hold zero, where the pairs alone would
    not; resamples are seeded."""
    rng = np.random.default_rng(0)
    n = 1500
    gold = rng.normal(size=n)
    a1, b1 = gold + rng.normal(size=n) * 0.9, gold + rng.normal(size=n) * 1.1
    one = seeds_and_pairs_bootstrap(gold, a1, b1, resamples=1000)

    def frame(x: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame({"group": "g", "dataset": "d", "pair": range(n), "gold": gold, "score": x})

    w = williams_table(frame(a1), frame(b1)).iloc[0]
    assert one["r_a"] == pytest.approx(w["r_a"]) and one["r_b"] == pytest.approx(w["r_b"])
    assert one["p"] < 0.01 and w["p"] < 0.01 and one["ci95"][0] > 0
    assert one == seeds_and_pairs_bootstrap(gold, a1, b1, resamples=1000)
    noise = [0.6, 0.9, 1.4, 0.7, 1.6]  # seeds far apart: r from 0.53 to 0.86
    a = np.stack([gold + rng.normal(size=n) * s for s in noise])
    b = np.stack([gold + rng.normal(size=n) * 1.05 for _ in range(5)])
    many = seeds_and_pairs_bootstrap(gold, a, b, resamples=1000)
    assert many["r_a"] > many["r_b"] and many["ci95"][0] < 0 < many["ci95"][1] and many["p"] > 0.05
    assert len(many["seed_effects"]) == 25 and min(many["seed_effects"]) < 0 < max(many["seed_effects"])
    with pytest.raises(SentembError, match="predictions for 10 and 1500 pairs"):
        seeds_and_pairs_bootstrap(gold, a[:, :10], b)


def test_zou_interval_covers_the_true_difference_of_dependent_correlations():
    """Zou (2007): over 1,000 samples of 150 triples with known correlations (gold–A 0.6, gold–B 0.4, A–B 0.5), the
    95% interval of r_A − r_B holds the true 0.2 in 93-97% of them (±2.9 standard errors of a 95% coverage)."""
    cov = np.array([[1.0, 0.6, 0.4], [0.6, 1.0, 0.5], [0.4, 0.5, 1.0]])
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(1000):
        x = rng.multivariate_normal(np.zeros(3), cov, size=150)
        r = np.corrcoef(x.T)
        low, high = zou_interval(r[0, 1], r[0, 2], r[1, 2], 150)
        assert -2 < low < r[0, 1] - r[0, 2] < high < 2
        hits += low <= 0.2 <= high
    assert 0.93 <= hits / 1000 <= 0.97, hits


def test_the_bootstrap_interval_of_a_mean_difference_is_seeded_and_holds_the_mean():
    diff = np.array([2.1, -0.3, 1.7, 3.2, 0.4, 2.8, 1.1, -0.9, 2.2, 1.5, 0.7, 1.9, 2.6, 0.2, 1.3, 2.0, 0.8, 1.6])
    low, high = mean_interval(diff)
    assert low < diff.mean() < high and low > 0 and high < 3
    assert mean_interval(diff) == (low, high)  # the same bytes on a rerun
    assert mean_interval(np.array([1.0, 1.0, 1.0])) == (1.0, 1.0)


def test_rank_biserial_is_scipys_u_and_its_interval_brackets_it():
    rng = np.random.default_rng(3)
    others = rng.normal(size=5000)
    low_words = np.array([-2.5, -2.2, -1.9, -2.8, -1.5, -2.0, 0.3, -2.4, -1.7, -2.1])
    res = rank_biserial(low_words, others)
    u = stats.mannwhitneyu(low_words, others).statistic
    assert res["r"] == pytest.approx(2 * u / (len(low_words) * len(others)) - 1)
    assert res["r"] < -0.8 and res["p"] < 1e-4
    assert res["ci95"][0] <= res["r"] <= res["ci95"][1] < 0
    assert rank_biserial(-low_words, -others)["r"] == pytest.approx(-res["r"])  # the mirror image
    tie = rank_biserial(np.array([0.0]), np.array([-1.0, 0.0, 1.0]))  # a tie counts half
    assert tie["quantiles"][0] == pytest.approx(0.5) and tie["r"] == pytest.approx(0.0)


def test_senteval_text_is_moses_unescaped_and_lower_cased():
    """SentEval's get_transfer_data.bash: ``tokenizer.perl -l en -no-escape`` then lower case (clitics split off,
    quotes and the title's full stop kept as Moses keeps them)."""
    from sentemb.reporting.harness import senteval_text

    assert senteval_text("Isn't it \"great\", Mr. Smith's dog?") == "isn 't it \" great \" , mr. smith 's dog ?"


def test_the_senteval_token_cache_answers_with_the_tokenizers_own_tokens(shared, tmp_path):
    """The harness stages' cache of SentEval's text (STS 2016, the real files): loaded, it answers every sentence
    with what the tokenizer gives, so the harness table does not depend on whether the cache is there."""
    from sentemb.core.data.benchmarks import load_benchmarks
    from sentemb.core.text.cache import cached_tokenize, load_token_cache
    from sentemb.core.text.config import TextConfig
    from sentemb.core.text.tokenization import tokenize
    from sentemb.reporting.harness import senteval_text, write_senteval_token_cache

    datasets = load_benchmarks(shared, ["STS16"])
    config = TextConfig(tokenizer="wordpunct", lowercase=False, strip_punctuation=True)  # not the pipeline's own
    sentences = {senteval_text(s) for d in datasets for s in (*d.sentences1, *d.sentences2)}
    assert write_senteval_token_cache(tmp_path / "tokens.json", datasets, config) == len(sentences) > 1500
    assert load_token_cache(tmp_path / "tokens.json") == len(sentences)
    assert all(cached_tokenize(s, config) == tokenize(s, config) for s in sentences)


def test_a_harness_stage_without_models_writes_the_header():
    from sentemb.reporting.harness import CONVENTIONS, harness_tables

    frame = harness_tables([], [], "drop")
    assert list(frame.columns) == ["model", "text", "year", *CONVENTIONS, "no_known_word"] and frame.empty


def test_a_scores_file_without_its_record_is_another_runs_and_left_out_and_seeds_make_one_row(tmp_path):
    """A quick look runs in a copy of the repository, whose committed metrics/ holds the full run's scores of models
    its profile does not build: the headline (and the harness and cards stages) take only the models and supervised
    runs whose record this workspace's run wrote to reports/inputs/. A model's -seedS runs are its seeds: one headline
    row with each figure's mean, sd and the number of seeds."""
    from sentemb.reporting.headline import headline
    from sentemb.reporting.workspace import Workspace

    def write(relative: str, text: str) -> None:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")

    for name, score in (("built", 50.0), ("full-run-only", 60.0), ("built-seed2", 54.0), ("built-seed10", 52.0)):
        write(f"metrics/models/{name}.json", json.dumps({"STS12-15": {"pearson": score}, "all": {"pearson": 40.0}}))
        write(f"metrics/models/{name}.datasets.csv", "group,dataset,set,pairs,pearson,spearman\n")
    for name in ("built", "built-seed2", "built-seed10"):
        write(f"reports/inputs/models/{name}.json", json.dumps({"type": "word_average"}))
    for name, r in (("avg-random", 70.0), ("gran-random", 75.0), ("avg-random-seed3", 72.0)):
        write(f"metrics/supervised/{name}.json", json.dumps({"sts": {"test": r}, "sick": {"test": 80.0}}))
    for name in ("avg-random", "avg-random-seed3"):
        write(f"reports/inputs/supervised/{name}-sts.txt", "1.0\n")
    ws = Workspace(tmp_path)
    assert ws.evaluated_models() == ["built", "built-seed10", "built-seed2"] and not ws.evaluated("full-run-only")
    assert ws.seeds("built") == ["built", "built-seed2", "built-seed10"] and ws.seeds("built-seed2") == ["built-seed2"]
    assert ws.supervised_seeds("avg-random") == ["avg-random", "avg-random-seed3"]
    assert ws.evaluated_models("word_average") == ws.evaluated_models() and ws.evaluated_models("paraphrastic") == []
    assert ws.means("STS12-15")["built"] == 50.0 and ws.means("STS16") == {}
    assert headline(tmp_path) == {
        "built": {"STS12-15": 52.0, "STS12-15 sd": 2.0, "all": 40.0, "all sd": 0.0, "seeds": 3},
        "supervised/avg-random": {"sts": 71.0, "sts sd": round(2 ** 0.5, 4), "sick": 80.0, "sick sd": 0.0,
                                  "seeds": 2}}


def test_kenter_norm_claims_find_the_short_and_the_long_words(tmp_path):
    """§4.4 on a vocabulary whose function words were given short vectors and pronouns long ones: both claims are
    judged the paper's way; a word the model lacks is left out, and an end none of whose words it has is not
    testable."""
    import pandas as pd

    from sentemb.reporting.claims import resolve_claims
    from sentemb.reporting.inputs import norms_table
    from sentemb.reporting.kenter2016 import norms_evidence, read_norm_lists

    rng = np.random.default_rng(0)
    function, pronouns = ["the", "of", "and", "to", "a"], ["i", "you", "she", "he"]
    others = [f"w{i}" for i in range(400)]
    words = function + pronouns + others
    vectors = rng.normal(size=(len(words), 8)).astype(np.float32)
    vectors[:5] *= 0.1
    vectors[5:9] *= 5.0
    table = norms_table(words, np.arange(len(words), 0, -1), np.linalg.norm(vectors.astype(np.float64), axis=1))
    assert table["norm"].is_monotonic_increasing and list(table["rank"]) == list(range(1, len(words) + 1))
    assert set(table.head(5)["word"]) == set(function) and set(table.tail(4)["word"]) == set(pronouns)

    path = tmp_path / "norms.csv"
    pd.DataFrame({"end": ["lowest"] * 6 + ["highest"] * 4, "position": [*range(1, 7), *range(1, 5)],
                  "word": [*function, "unseen", "I", "You", "She", "He"]}).to_csv(path, index=False)
    parts, claims = norms_evidence(table, read_norm_lists(path, lowercase=True))
    _, ledger = resolve_claims([*parts, ClaimsBlock(claims)])
    low, high = ledger
    assert (low["verdict"], high["verdict"]) == ("reproduced", "reproduced")
    assert low["effect"] == -1.0 and high["effect"] == 1.0
    assert "5 of the paper's 10 among them" in low["evidence"] and "unseen" not in low["evidence"]

    pd.DataFrame({"end": ["lowest", "highest"], "position": [1, 1], "word": ["unseen", "I"]}).to_csv(path, index=False)
    _, claims = norms_evidence(table, read_norm_lists(path, lowercase=False))  # "I" is not "i"
    assert [c["p"] is None for c in claims] == [True, True]


def test_the_frontier_times_every_kind_of_model_on_one_thread(tmp_path):
    """The harness tables score each saved type, each model loaded once; the frontier's timing (the benchmark's) runs
    torch on one thread while it times and leaves it as it was; speed_sentences keeps the first distinct STS
    2012-2015 sentences in file order."""
    from helpers import toy_models

    import torch

    from sentemb.core.data.benchmarks import STSDataset
    from sentemb.core.models import load_model
    from sentemb.reporting.frontier import encoding_speed, speed_sentences
    from sentemb.reporting.harness import harness_tables

    models = toy_models(tmp_path)
    sets = [STSDataset("STS16", "x", ["zz", "a man", "man plays"], ["zz", "guitar", "a guitar"], np.arange(3.0), "x"),
            STSDataset("STS12", "a", ["a man plays", "guitar", "a man"], ["a man plays", "man", "plays guitar"],
                       np.arange(3.0), "a")]  # STS16 is scored, not timed
    sentences = speed_sentences(sets, 4)
    assert sentences == ["a man plays", "guitar", "a man", "man"] and speed_sentences(sets, 2) == sentences[:2]
    scores = harness_tables([models / n for n in ("avg", "nws", "gran")], sets, "drop")
    assert set(scores["model"]) == {"avg", "nws", "gran"} and set(scores["year"]) == {"STS12", "STS16"}
    threads = torch.get_num_threads()
    for name in ("avg", "nws", "gran"):
        assert encoding_speed(load_model(models / name), sentences * 50, 2) > 0
    assert torch.get_num_threads() == threads
    with pytest.raises(ValueError, match="rounds"):
        encoding_speed(None, sentences, 0)


def test_the_frontier_pairs_each_teacher_with_its_student_and_draws_them():
    """The table's kinds, the teacher/student pairs (score difference, speed-up) and the figure: SVG with a point per
    model, the same bytes for the same numbers; the report's section shows the pairs by score alone."""
    import pandas as pd

    from sentemb.reporting.frontier import frontier_figure, frontier_table, student_section, teacher_student_pairs

    speed = pd.DataFrame({"model": ["glove", "para-gran", "para-gran-static", "untimed-elsewhere"],
                          "sentences_per_s": [60_000.0, 3_000.0, 66_000.0, 1.0]})
    sts = {"glove": 32.4, "para-gran": 67.9, "para-gran-static": 66.0, "no-speed": 50.0}
    table = frontier_table(speed, sts)
    assert dict(table["kind"]) == {"glove": "other", "para-gran": "teacher", "para-gran-static": "student"}
    pairs = teacher_student_pairs(table)
    assert list(pairs.index) == ["para-gran"]
    assert pairs.loc["para-gran", "student − teacher"] == pytest.approx(-1.9)
    assert pairs.loc["para-gran", "speed-up"] == pytest.approx(22.0)
    section = student_section(sts)
    assert "| para-gran | 67.90 | 66.00 | -1.90 |" in section and "benchmarks/encode_speed.py" in section
    assert "×" not in section.split("\n\n", 2)[2]  # the table: scores alone, no speed-up
    svg = frontier_figure(table)
    assert svg.startswith("<?xml") and svg == frontier_figure(table.copy()) and "para-gran" in svg


def test_report_inputs_keep_in_git_what_the_reports_read_of_the_cache(tmp_path):
    """reports/inputs/ from a project's results/ and models/: every record byte for byte, the listed models' per-pair
    scores and every supervised run's predictions back as the frames the reports read (8 significant digits), the
    word norms ranked as from the vectors; a model not evaluated is skipped; runs over other pairs are one error; a
    failed write leaves no folder behind."""
    from helpers import toy_models

    from sentemb.core.models.word_averaging import load_word_vectors
    from sentemb.reporting.inputs import norms_table, write_report_inputs
    from sentemb.reporting.workspace import Workspace

    toy_models(tmp_path / "models")
    rng = np.random.default_rng(0)
    keys = pd.DataFrame({"group": ["STS12"] * 3 + ["STS13"] * 2, "dataset": ["MSRpar"] * 3 + ["OnWN"] * 2,
                         "pair": [0, 1, 2, 0, 1], "gold": [4.4, 0.8, 3.25, 1.0, 5.0]})
    for model in ("avg", "gran"):
        (tmp_path / "results" / model).mkdir(parents=True)
        (tmp_path / "results" / model / "model.json").write_text(f'{{"type": "x", "name": "{model}"}}\n')
        keys.assign(score=rng.uniform(-1, 1, 5)).to_csv(tmp_path / "results" / model / "pair_scores.tsv", sep="\t",
                                                         index=False, float_format="%.6f")
    for run in ("avg-random", "avg-random-seed2"):
        for task, sets in (("sts", ["STS12.MSRpar", "STS13.OnWN"]), ("sick", ["SICK", "SICK"])):
            (tmp_path / "results" / "supervised" / run).mkdir(parents=True, exist_ok=True)
            pd.DataFrame({"set": sets, "gold": [4.4, 0.8], "prediction": rng.uniform(0, 5, 2)}).to_csv(
                tmp_path / "results" / "supervised" / run / f"{task}_test.tsv", sep="\t", index=False)
    out = tmp_path / "reports" / "inputs"
    counts = write_report_inputs(tmp_path, out, ["gran", "avg", "not-run"], ["avg", "not-built"])
    assert counts == {"models": 2, "pair_scores": 2, "supervised": 2, "word_norms": 1}
    assert (out / "models" / "gran.json").read_bytes() == (tmp_path / "results/gran/model.json").read_bytes()
    ws = Workspace(tmp_path)
    for model in ("avg", "gran"):
        want = pd.read_csv(tmp_path / "results" / model / "pair_scores.tsv", sep="\t")
        pd.testing.assert_frame_equal(ws.pair_scores(model), want)
    got = ws.supervised_predictions("avg-random-seed2", "sick")
    want = pd.read_csv(tmp_path / "results/supervised/avg-random-seed2/sick_test.tsv", sep="\t")
    pd.testing.assert_frame_equal(got, want, rtol=1e-7)
    assert ws.inputs.supervised_runs() == ["avg-random", "avg-random-seed2"]
    vectors = load_word_vectors(tmp_path / "models" / "avg")
    want = norms_table(vectors.words, vectors.counts, np.linalg.norm(vectors.vectors.astype(np.float64), axis=1))
    pd.testing.assert_frame_equal(ws.word_norms("avg"), want, rtol=1e-7)
    with pytest.raises(SentembError, match=r"pair_scores/not-run.txt: missing \(add not-run to params report.inputs"):
        ws.pair_scores("not-run")
    keys.iloc[:4].assign(score=0.5).to_csv(tmp_path / "results/gran/pair_scores.tsv", sep="\t", index=False)
    with pytest.raises(SentembError, match=r"results/gran/pair_scores.tsv: scores other pairs than "
                                           r"results/avg/pair_scores.tsv"):
        write_report_inputs(tmp_path, tmp_path / "again", ["avg", "gran"], [])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["models", "reports", "results"]
