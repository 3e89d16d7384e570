from helpers import TEXT

import pytest

from sentemb.core.errors import SentembError
from sentemb.core.text.config import text_config
from sentemb.core.text.tokenization import normalize, split_sentences, tokenize


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
    """Without NLTK's wall-clock cap on its regular expressions (sentemb.core.text.nltk_modules.untimed_nltk_regexes)
    the tokens are those of the capped engine, both tokenizers, on Wikipedia and Gutenberg sentences."""
    import sys

    from sentemb.core.data.documents import iter_documents

    sentences = []
    for shard in ("enwiki/enwiki-01.tar.xz", "gutenberg/gutenberg-01.tar.xz"):
        for doc in iter_documents(shared / "corpus" / shard, max_documents=3):
            sentences += [s for p in doc.paragraphs[:150] for s in split_sentences(p)]
    assert len(sentences) > 1000
    configs = [TEXT, TEXT.model_copy(update={"tokenizer": "wordpunct", "lowercase": False})]
    untimed = [[tokenize(s, c) for s in sentences] for c in configs]
    redos = sys.modules["nltk.redos"]  # loaded by the tokenizers (sentemb.core.text.nltk_modules.nltk_tokenizers)
    assert redos.DEFAULT_TIMEOUT is None
    monkeypatch.setattr(redos, "DEFAULT_TIMEOUT", 5.0)  # NLTK's own default
    assert untimed == [[tokenize(s, c) for s in sentences] for c in configs]


_TOKENS_OF_STS16 = r"""
import json, sys
if sys.argv[2] == "nltk-first":
    import nltk  # noqa: F401  (NLTK's own package import first: the tokenizer modules as NLTK loads them)
from helpers import TEXT
from sentemb.core.data.benchmarks import load_benchmarks
from sentemb.core.text.tokenization import tokenize
sentences = sorted({s for d in load_benchmarks(sys.argv[1], ["STS16"]) for s in (*d.sentences1, *d.sentences2)})
configs = [TEXT, TEXT.model_copy(update={"tokenizer": "wordpunct", "lowercase": False})]
tokens = [[tokenize(s, c) for s in sentences] for c in configs]
heavy = sorted(m for m in ("nltk", "scipy", "sklearn", "nltk.metrics") if m in sys.modules)
import nltk  # a later import of NLTK itself still works, and takes the modules already loaded
from nltk.tokenize import NLTKWordTokenizer, wordpunct_tokenize
same = [NLTKWordTokenizer().tokenize("isn't it") == ["is", "n't", "it"],
        wordpunct_tokenize("isn't") == ["isn", "'", "t"]]
print(json.dumps({"tokens": tokens, "heavy": heavy, "same": same}))
"""


def test_the_tokenizers_load_without_nltks_package_import_and_tokenise_alike(shared):
    """Tokenising loads NLTK's tokenizer modules, not its package (which brings scipy and scikit-learn): STS 2016
    tokenised so in one process and after a plain ``import nltk`` in another gives the same tokens, both
    tokenizers; NLTK imported afterwards works as usual."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).parent

    def run(mode: str) -> dict:
        res = subprocess.run([sys.executable, "-c", _TOKENS_OF_STS16, str(shared), mode], cwd=tests,
                             capture_output=True, text=True, check=True)
        return json.loads(res.stdout)

    light, plain = run("light"), run("nltk-first")
    assert light["heavy"] == [] and "nltk" in plain["heavy"]
    assert light["tokens"] == plain["tokens"] and sum(map(len, light["tokens"][0])) > 10_000
    assert light["same"] == plain["same"] == [True, True]


_EDGE_CASES = [
    '"Hello," she said. "It\'s fine."', "''Quoted'' and then: this cannot be, gonna wanna.", "'' at the start",
    "He said 'no' ... and -- left (quietly) [x].", "Mr. Smith went to Washington. Then home .",
    "'tis the season, 'twas", 'It ends with a period ." )', "It ends. ' \"", "dogs' bones' are here'", "dogs' ' x",
    "A: b, c:d 3,000 : 4", "end.'", '"', "a", ".", "_little ones_", "“Why?” ‘no’ «oui» — and – then",
    "(see p. 3), [1]; {2} <3>", "$5 & 10% @home #1", "whaddya gimme lemme gotta d'ye more'n GONNA Cannot",
    "it's I'm he'd they'll we're you've isn't CAN'T", "well--i mean--yes", "x.. y... z....",
    "co-operate kind-hearted -dash dash- a-b-c", "½ ² ⅻ 3rd 2½,", "'s 'sam 't 'tis'", "word:1 word,2 ,3 :4",
    "'hello' 'hello,' ' hello", "“a”?' b", "ﬁne ﬁ", "Ǆ ǅ ǆ", "end?!", "end!?\"", "x .'\" )", "i wanna. wanna",
]


def test_treebank_tokens_are_nltks_token_for_token(shared):
    """sentemb.core.text.treebank gives NLTK's Treebank tokens exactly: crafted edge cases, every benchmark sentence
    (STS 2012-2016, SICK, STS-B, PIT-2015) and the paraphrase pairs' sentences, lower-cased as the pipeline does and as
    written (the full corpus: benchmarks/tokenizer_speed.py, docs/speed.md)."""
    import itertools

    from sentemb.core.data.benchmarks import load_benchmarks
    from sentemb.core.data.pairs import read_msrp, read_turkcorpus, read_twitter_url
    from sentemb.core.text.tokenization import normalize
    from sentemb.core.text.treebank import nltk_treebank, treebank_tokens

    sentences = {s for d in load_benchmarks(shared) for s in (*d.sentences1, *d.sentences2)}
    pairs = itertools.chain(read_twitter_url(shared), read_msrp(shared),
                            read_turkcorpus(shared))
    sentences |= {s for pair in pairs for s in pair}
    texts = {normalize(s) for s in (*_EDGE_CASES, *sentences)}
    texts |= {t.lower() for t in texts}
    texts.discard("")
    assert len(texts) > 50_000
    nltk = nltk_treebank()
    differ = [t for t in sorted(texts) if treebank_tokens(t) != [x for tok in nltk.tokenize(t) for x in tok.split()]]
    assert differ == [], differ[:5]
