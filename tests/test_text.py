from helpers import TEXT

import pytest

from sentemb.core.errors import SentembError
from sentemb.core.text import normalize, split_sentences, text_config, tokenize


def test_treebank_tokenizer_splits_clitics_and_punctuation():
    assert tokenize("I can't believe it's $3.50!", TEXT) == ["i", "ca", "n't", "believe", "it", "'s", "$", "3.50", "!"]


def test_lowercase_is_optional():
    assert tokenize("The U.S. Army", TEXT.model_copy(update={"lowercase": False})) == ["The", "U.S.", "Army"]


def test_wordpunct_tokenizer_is_bollegalas():
    assert tokenize("Isn't it?", TEXT.model_copy(update={"tokenizer": "wordpunct"})) == ["isn", "'", "t", "it", "?"]


def test_normalisation_folds_unicode_and_whitespace():
    assert normalize("ﬁne\u00a0 day\n") == "fine day"
    assert tokenize("   \n\t", TEXT) == []


def test_tokens_never_hold_whitespace():
    for tok in tokenize("a\u2003b \u00a0c -- ``quoted''", TEXT):
        assert tok and not any(ch.isspace() for ch in tok)


def test_unknown_tokenizer_is_a_clear_error():
    with pytest.raises(SentembError, match=r"params.yaml: text\.tokenizer: Input should be 'treebank' or 'wordpunct'"):
        text_config({"tokenizer": "spacy", "lowercase": True, "strip_punctuation": False}, "params.yaml")


def test_sentence_splitter_keeps_dialogue_together():
    para = "“Do you want another pillow?” she added, as Tom gave his a thump. He left. Then Dr. Watson came."
    assert split_sentences(para) == [
        "“Do you want another pillow?” she added, as Tom gave his a thump.",
        "He left.",
        "Then Dr. Watson came.",
    ]
    # the splitter's known limitation: no split before a sentence that starts with a title (12 misses in 3 novels)
    assert split_sentences("He left at noon. Mr. Smith stayed.") == ["He left at noon. Mr. Smith stayed."]
    assert split_sentences("  ") == []


def test_strip_punctuation_drops_what_the_siamese_cbow_authors_drop():
    config = TEXT.model_copy(update={"strip_punctuation": True})
    assert tokenize('He said: "It\'s fine -- isn\'t it?" (yes) ...', config) == [
        "he", "said", "it", "s", "fine", "is", "n't", "it", "yes"]
    for token in (".", "''", "``", ",", ":", ";", "?", "!", "-", "_"):  # their Toronto Book Corpus non-tokens
        assert tokenize(f"a {token} b", config) == ["a", "b"]
    assert tokenize("e-mail 3.5 £10", config) == ["e-mail", "3.5", "10"]  # inner punctuation stays
    assert tokenize("a , b", TEXT)[1] == ","  # off by default


def test_nltk_regexes_run_untimed_with_the_same_tokens(shared, monkeypatch):
    """Without NLTK's wall-clock cap on its regular expressions (sentemb.core.text._untimed_nltk_regexes) the tokens are
    those of the capped engine, both tokenizers, on Wikipedia and Gutenberg sentences."""
    from nltk import redos

    from sentemb.core.data.documents import iter_documents

    sentences = []
    for shard in ("enwiki/enwiki-01.tar.xz", "gutenberg/gutenberg-01.tar.xz"):
        for doc in iter_documents(shared / "corpus" / shard, max_documents=3):
            sentences += [s for p in doc.paragraphs[:150] for s in split_sentences(p)]
    assert len(sentences) > 1000
    configs = [TEXT, TEXT.model_copy(update={"tokenizer": "wordpunct", "lowercase": False})]
    untimed = [[tokenize(s, c) for s in sentences] for c in configs]
    assert redos.DEFAULT_TIMEOUT is None
    monkeypatch.setattr(redos, "DEFAULT_TIMEOUT", 5.0)  # NLTK's own default
    assert untimed == [[tokenize(s, c) for s in sentences] for c in configs]
