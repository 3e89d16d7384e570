"""The verdict a report gives a paper's claim, from the means and the p-value of the paired test."""

import pytest

from sentemb.reporting.claims import claim_verdict


@pytest.mark.parametrize("mean_a, mean_b, p, verdict", [
    (65.9, 63.8, 0.01, "reproduced"),
    (65.9, 63.8, 0.37, "inconclusive (the paper's direction, not significant)"),  # a weak test, not a contradiction
    (63.8, 65.9, 0.37, "not reproduced (no significant difference)"),
    (63.8, 65.9, 0.01, "not reproduced (significantly the other way)"),
    (65.9, 65.9, 0.99, "not reproduced (no significant difference)"),  # a tie does not point the paper's way
])
def test_a_claim_that_a_beats_b(mean_a, mean_b, p, verdict):
    assert claim_verdict(True, {"mean_a": mean_a, "mean_b": mean_b, "p": p}) == verdict


@pytest.mark.parametrize("mean_a, mean_b, p, verdict", [
    (65.9, 63.8, 0.01, "not reproduced (significantly the other way)"),
    (65.9, 63.8, 0.37, "reproduced (no significant difference)"),
    (63.8, 65.9, 0.01, "reproduced"),
])
def test_a_claim_that_a_does_not_beat_b(mean_a, mean_b, p, verdict):
    assert claim_verdict(False, {"mean_a": mean_a, "mean_b": mean_b, "p": p}) == verdict


def test_alpha_is_the_threshold():
    c = {"mean_a": 66.0, "mean_b": 64.0, "p": 0.03}
    assert claim_verdict(True, c) == "reproduced"
    assert claim_verdict(True, c, alpha=0.01).startswith("inconclusive")


def test_senteval_text_is_moses_unescaped_and_lower_cased():
    """SentEval's get_transfer_data.bash: ``tokenizer.perl -l en -no-escape`` then lower case (clitics split off,
    quotes and the title's full stop kept as Moses keeps them)."""
    from sentemb.reporting.harness import senteval_text

    assert senteval_text("Isn't it \"great\", Mr. Smith's dog?") == "isn 't it \" great \" , mr. smith 's dog ?"


def test_the_senteval_token_cache_answers_with_the_tokenizers_own_tokens(shared, tmp_path):
    """The harness stages' cache of SentEval's text (STS 2016, the real files): loaded, it answers every sentence
    with what the tokenizer gives, so the harness table does not depend on whether the cache is there."""
    from sentemb.core.data.benchmarks import load_benchmarks
    from sentemb.core.text import TextConfig, cached_tokenize, load_token_cache, tokenize
    from sentemb.reporting.harness import senteval_text, write_senteval_token_cache

    datasets = load_benchmarks(shared, ["STS16"])
    config = TextConfig(tokenizer="wordpunct", lowercase=False, strip_punctuation=True)  # not the pipeline's own
    sentences = {senteval_text(s) for d in datasets for s in (*d.sentences1, *d.sentences2)}
    assert write_senteval_token_cache(tmp_path / "tokens.json", datasets, config) == len(sentences) > 1500
    assert load_token_cache(tmp_path / "tokens.json") == len(sentences)
    assert all(cached_tokenize(s, config) == tokenize(s, config) for s in sentences)


def test_a_harness_stage_without_models_writes_the_header():
    from sentemb.reporting.harness import CONVENTIONS, harness_scores

    frame = harness_scores([], [])
    assert list(frame.columns) == ["model", "text", "year", *CONVENTIONS, "no_known_word"] and frame.empty
