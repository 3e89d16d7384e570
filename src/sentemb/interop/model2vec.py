"""A word-averaging model (a static student, word2vec, GloVe, Siamese CBOW, a weighted average) in model2vec's layout,
which model2vec's ``StaticModel.from_pretrained(DIR)`` and sentence-transformers' ``SentenceTransformer(DIR)``
(``StaticEmbedding``) load with no code of ours and no ``trust_remote_code``.

The layout is what ``model2vec.hf_utils.save_pretrained`` writes: ``model.safetensors`` (``embeddings``, float32
(V + 1, dim)), ``tokenizer.json`` (a Hugging Face ``tokenizers`` tokenizer), ``config.json`` (``model_type:
model2vec``) and ``modules.json`` (one ``StaticEmbedding``), with a model card.

The tokenizer is a ``tokenizers`` word-level one whose normaliser and pre-tokeniser follow NLTK's Treebank rules
(:func:`treebank_tokenizer`) or reproduce ``wordpunct_tokenize`` (``\\w+|[^\\w\\s]+``); the Treebank imitation agrees
with sentemb's tokenisation (:func:`~sentemb.core.text.tokenization.tokenize`) on 99.85% of the 28,140 distinct
sentences of the STS benchmarks and on 99.97% of their tokens (``benchmarks/export_agreement.py --model2vec``). An
unknown word is row 0, ``[UNK]``, a zero vector: sentemb drops unknown words, ``StaticEmbedding`` averages them in,
which scales the mean by known/all words and leaves every cosine as sentemb's. Weighted models have their weights
baked into the rows (Bollegala et al. Eq. 1: the average of q_w·v_w); a common component removed after averaging
(SIF+PC, uSIF) has no place in model2vec's model and is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from sentemb.core.atomic import atomic_path
from sentemb.core.errors import SentembError
from sentemb.core.models import load_model
from sentemb.core.models.word_averaging import WordAveragingModel
from sentemb.core.text.config import TextConfig
from sentemb.inference.export import owned_word_vectors
from sentemb.interop.model_card import write_model_card

UNK = "[UNK]"
MODULE_TYPE = "sentence_transformers.models.StaticEmbedding"  # what model2vec writes; sentence-transformers maps it


def treebank_tokenizer(vocab: list[str], text: TextConfig):
    """A ``tokenizers.Tokenizer`` over ``[UNK]`` + ``vocab`` that splits as sentemb's ``text`` settings do, with
    ``tokenizers``' regular expressions: NFKC, lower case if the model was trained so, then NLTK's Treebank rules
    (opening and closing quotes as `` and '', a sentence's final period, punctuation, the clitics n't 's 'd 'm 'll 're
    've, cannot/gonna/wanna/gotta/gimme/lemme) or ``wordpunct_tokenize``'s one expression.

    Raises:
        SentembError: settings it cannot express (``strip_punctuation``).
    """
    from tokenizers import Regex, Tokenizer
    from tokenizers import normalizers as n
    from tokenizers import pre_tokenizers as p
    from tokenizers.models import WordLevel

    if text.strip_punctuation:
        raise SentembError("model2vec export: a model trained with strip_punctuation cannot be expressed by a "
                           "tokenizers pipeline; use --format sentence-transformers")
    steps = [n.NFKC(), *([n.Lowercase()] if text.lowercase else [])]
    if text.tokenizer == "wordpunct":
        pre = p.Sequence([p.WhitespaceSplit(), p.Split(Regex(r"\w+|[^\w\s]+"), "isolated")])
    else:
        steps += [n.Replace(Regex(r'^"'), "`` "), n.Replace(Regex(r"^''"), "`` "),
                  n.Replace(Regex(r"(?<=[\s(\[{<])''"), " `` "), n.Replace(Regex(r'(?<=[\s(\[{<])"'), " `` "),
                  n.Replace(Regex(r"(?<=[^.])\.(?=[\])}>\"']*\s*$)"), " . "), n.Replace(Regex(r'"'), " '' ")]
        pre = p.Sequence([
            p.WhitespaceSplit(),
            p.Split(Regex(r"[;@#$%&?!\[\](){}<>«“‘„»”’–—…*]|\.\.\.|--|``|''"), "isolated"),
            p.Split(Regex(r"^'(?=\w)(?!(?:s|d|m|ll|re|ve|t)$)"), "isolated"),
            p.Split(Regex(r"[:,](?!\d)"), "isolated"),
            p.Split(Regex(r"(?<=[^'])(?:n't|'s|'d|'m|'ll|'re|'ve)$"), "isolated"),
            p.Split(Regex(r"(?<=[^' ])'$"), "isolated"),
            p.Split(Regex(r"^(?:can(?=not$)|gon(?=na$)|wan(?=na$)|got(?=ta$)|gim(?=me$)|lem(?=me$))"), "isolated"),
        ])
    tokenizer = Tokenizer(WordLevel({UNK: 0} | {w: i + 1 for i, w in enumerate(vocab)}, unk_token=UNK))
    tokenizer.normalizer = n.Sequence(steps)
    tokenizer.pre_tokenizer = pre
    return tokenizer


def _usage() -> list[str]:
    return [
        "```python",
        "from model2vec import StaticModel",
        "",
        'model = StaticModel.from_pretrained("DIR")',
        'model.encode(["A man is playing a guitar.", "Someone plays an instrument."])',
        "",
        "from sentence_transformers import SentenceTransformer   # or: its StaticEmbedding module",
        "",
        'model = SentenceTransformer("DIR")',
        "```", "",
        "No code of sentemb's runs: the tokenizer is a `tokenizers` imitation of sentemb's (NLTK's Treebank rules), "
        "equal to it on 99.85% of the STS benchmarks' sentences. In sentemb itself: "
        "`sentemb.core.models.load_model(\"models/NAME\")`.", ""]


def imitated_tokens(tokenizer, sentence: str) -> list[str]:
    """The tokens ``tokenizer`` (:func:`treebank_tokenizer`) splits ``sentence`` into, before the vocabulary lookup."""
    return [w for w, _ in tokenizer.pre_tokenizer.pre_tokenize_str(tokenizer.normalizer.normalize_str(sentence))]


def export_model2vec(model_dir: str | Path, output: str | Path, metrics: str | Path | None = None) -> str:
    """Write ``model_dir``'s word-averaging model as a model2vec directory ``output`` (atomically), with a card.

    Returns:
        What was written, for the user.

    Raises:
        SentembError: an unreadable model, a model that is not a word average (the paraphrastic encoders: export
            their static students, ``models/NAME-static``), one that removes a common component
            (:func:`~sentemb.inference.export.owned_word_vectors`), or settings the tokenizer cannot express.
    """
    from safetensors.numpy import save_file

    model = load_model(model_dir)
    if not isinstance(model, WordAveragingModel):
        raise SentembError(f"{model_dir}: a {type(model).__name__} is not a word average; model2vec holds static "
                           "word vectors (export the model's static student, models/NAME-static, or use --format "
                           "sentence-transformers)")
    owned, _ = owned_word_vectors(model, model_dir)  # weights baked in; a common component refused
    words = list(owned.words)
    tokenizer = treebank_tokenizer(words, model.text)
    embeddings = np.vstack([np.zeros((1, model.dim), dtype=np.float32), np.asarray(owned.vectors, dtype=np.float32)])
    config = {"model_type": "model2vec", "architectures": ["StaticModel"], "tokenizer_name": None,
              "apply_pca": None, "apply_zipf": False, "hidden_dim": model.dim, "seq_length": 1000000,
              "normalize": False, "sentemb": {"model": model.name, "text": model.text.to_dict()}}
    with atomic_path(output) as tmp:
        tmp.mkdir(parents=True)
        save_file({"embeddings": embeddings}, str(tmp / "model.safetensors"))
        tokenizer.save(str(tmp / "tokenizer.json"))
        (tmp / "config.json").write_text(json.dumps(config, indent=4) + "\n", encoding="utf-8")
        modules = [{"idx": 0, "name": "0", "path": ".", "type": MODULE_TYPE}]
        (tmp / "modules.json").write_text(json.dumps(modules, indent=4) + "\n", encoding="utf-8")
        write_model_card(tmp, model_dir, metrics, usage=_usage(), library="model2vec", location=output)
    return (f"{model.name}: {len(words):,} words × {model.dim} + [UNK], model2vec's layout; load with "
            "StaticModel.from_pretrained(DIR) or SentenceTransformer(DIR)")
