"""What every stage script shares: params.yaml sections validated with pydantic, and clean errors.

``src/sentemb`` knows nothing of DVC or params.yaml; this module is the only place that reads params.yaml.
"""

from __future__ import annotations

import inspect
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, PositiveInt, ValidationError

from sentemb.errors import SentembError
from sentemb.text import TextConfig

PARAMS = Path("params.yaml")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Download(_Section):
    mirror: str | None = "../shared/data"
    use_network: bool = True
    corpus: list[str] = Field(min_length=1)
    benchmarks: list[str] = Field(min_length=1)
    resources: list[str] = Field(default_factory=list)


class Text(_Section):
    tokenizer: Literal["treebank", "wordpunct"] = "treebank"
    lowercase: bool = True


class Split(_Section):
    max_documents: PositiveInt | None = None
    jobs: PositiveInt = 2


class Vocab(_Section):
    min_count: PositiveInt = 5
    max_size: PositiveInt | None = None


class Word2VecParams(_Section):
    method: Literal["word2vec"] = "word2vec"
    sg: Literal[0, 1]
    vector_size: PositiveInt = 300
    window: PositiveInt = 5
    sample: float = Field(1e-5, ge=0)
    negative: PositiveInt = 5
    epochs: PositiveInt = 5
    alpha: PositiveFloat | None = None
    workers: PositiveInt = 2
    seed: int = 1


class GloveParams(_Section):
    method: Literal["glove"]
    vector_size: PositiveInt = 300
    window: PositiveInt = 10
    x_max: PositiveFloat = 100.0
    alpha: PositiveFloat = 0.75
    lr: PositiveFloat = 0.05
    epochs: PositiveInt = 5
    batch_size: PositiveInt = 5000
    seed: int = 1
    device: str = "auto"


class _AdjacentSentence(_Section):
    """What sentemb.training.AdjacentSentenceConfig takes, shared by Siamese CBOW and NWS."""

    neg: PositiveInt = 2
    batch_size: PositiveInt = 100
    epochs: PositiveInt = 1
    optimizer: Literal["sgd", "adadelta", "adagrad", "sparse_adam"] = "sgd"
    lr: PositiveFloat = 1e-4
    lr_floor: float = Field(1e-4, gt=0, le=1)
    max_length: PositiveInt | None = None
    seed: int = 1
    device: str = "auto"
    log_every: PositiveInt = 500


class Model(_AdjacentSentence):
    dim: PositiveInt = 300
    init_std: PositiveFloat = 0.01


class NWS(_AdjacentSentence):
    init_low: float = 0.0
    init_high: float = 1.0
    optimizer: Literal["sgd", "adadelta", "adagrad", "sparse_adam"] = "adagrad"
    lr: PositiveFloat = 0.05
    lr_floor: float = Field(1.0, gt=0, le=1)


class Paraphrastic(_Section):
    """One model of the ``paraphrastic`` section: train@NAME (stages/train_paraphrastic.py)."""

    vectors: str = "paragram"
    pairs: Literal["sentences", "ppdb-lexical"] = "sentences"
    select: Literal["STS16", "SimLex-999"] = "STS16"
    encoder: Literal["avg", "proj", "dan", "rnn", "lstm", "lstmavg", "gran"]
    layers: PositiveInt = 1
    activation: Literal["tanh", "identity"] = "tanh"
    output_gate: bool = True
    bidirectional: bool = False
    combine: Literal["sum", "tanh"] = "sum"
    variant: int = Field(1, ge=1, le=5)
    dropout: float = Field(0.0, ge=0, lt=1)
    word_dropout: float = Field(0.0, ge=0, lt=1)
    scramble: float = Field(0.0, ge=0, le=1)
    margin: PositiveFloat = 0.4
    negatives: Literal["max", "mix", "rand"] = "max"
    batch_size: PositiveInt = 100
    epochs: PositiveInt = 10
    optimizer: Literal["adam", "adagrad"] = "adam"
    lr: PositiveFloat = 0.001
    lambda_w: float = Field(0.0, ge=0)
    lambda_c: float = Field(0.0, ge=0)
    grad_clip: PositiveFloat | None = None
    sparse_embeddings: bool = True
    evals_per_epoch: PositiveInt = 4
    seed: int = 1
    device: str = "auto"


# the arguments each encoder takes (sentemb.composition), besides dropout and word_dropout
ENCODER_ARGS = {"avg": (), "proj": (), "dan": ("layers",), "rnn": ("activation",),
                "lstm": ("output_gate", "bidirectional", "combine"),
                "lstmavg": ("output_gate", "bidirectional", "combine"),
                "gran": ("output_gate", "bidirectional", "combine", "variant")}


class Baselines(_Section):
    sif_a: PositiveFloat = 1e-3
    component_fit: Literal["per_set", "corpus"] = "per_set"
    component_sentences: PositiveInt = 100_000
    seed: int = 1


class Pairs(_Section):
    sources: list[Literal["twitter-url", "msrp", "turkcorpus"]] = Field(min_length=1)
    twitter_min_votes: int = Field(4, ge=0, le=6)
    max_pairs: PositiveInt | None = None


class Evaluate(_Section):
    benchmarks: list[Literal["STS12", "STS13", "STS14", "STS15", "STS16", "SICK-R", "STS-B", "PIT-2015"]] = Field(
        min_length=1)


class Report(_Section):
    models: list[str] = Field(min_length=1)
    nws_vectors: list[str] = Field(default_factory=list)
    paraphrastic: list[str] = Field(default_factory=list)
    paraphrastic_baselines: list[str] = Field(default_factory=list)


SECTIONS: dict[str, type[_Section]] = {
    "download": Download, "text": Text, "split": Split, "vocab": Vocab, "model": Model,
    "nws": NWS, "baselines": Baselines, "pairs": Pairs, "evaluate": Evaluate, "report": Report,
}


def _read() -> dict:
    if not PARAMS.is_file():
        raise SentembError(f"{PARAMS.resolve()}: missing params file (run the stages from the repository root)")
    try:
        data = yaml.safe_load(PARAMS.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise SentembError(f"{PARAMS}: malformed YAML ({e})") from None
    if not isinstance(data, dict):
        raise SentembError(f"{PARAMS}: expected a mapping of sections at the top level")
    return data


def _validate(schema: type[_Section], value, key: str):
    try:
        return schema.model_validate(value if value is not None else {})
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join([key, *map(str, err['loc'])])}: {err['msg']} (got {err.get('input')!r})" for err in e.errors()
        )
        raise SentembError(f"{PARAMS}: {problems}") from None


def params(section: str):
    """The validated ``section`` of params.yaml.

    Raises:
        SentembError: a missing section or a bad key/value, naming ``section.key``.
    """
    data = _read()
    if section not in data:
        raise SentembError(f"{PARAMS}: missing section {section!r}")
    return _validate(SECTIONS[section], data[section], section)


def pretrain_params(name: str) -> Word2VecParams | GloveParams:
    """``pretrain.<name>`` of params.yaml, validated; ``method: glove`` selects GloVe, else word2vec."""
    pre = _read().get("pretrain") or {}
    if name not in pre:
        defined = ", ".join(pre) or "none"
        raise SentembError(f"{PARAMS}: unknown word-vector model {name!r}; pretrain defines: {defined}")
    value = pre[name] or {}
    schema = GloveParams if isinstance(value, dict) and value.get("method") == "glove" else Word2VecParams
    return _validate(schema, value, f"pretrain.{name}")


def word2vec_params(name: str) -> Word2VecParams:
    """``pretrain.<name>``, which must be a word2vec model."""
    p = pretrain_params(name)
    if not isinstance(p, Word2VecParams):
        raise SentembError(f"{PARAMS}: pretrain.{name} is a {p.method} model, not word2vec")
    return p


def glove_params(name: str) -> GloveParams:
    """``pretrain.<name>``, which must be a GloVe model (``method: glove``)."""
    p = pretrain_params(name)
    if not isinstance(p, GloveParams):
        raise SentembError(f"{PARAMS}: pretrain.{name} is not a GloVe model (add 'method: glove')")
    return p


def paraphrastic_params(name: str) -> Paraphrastic:
    """``paraphrastic.<name>`` of params.yaml, validated."""
    section = _read().get("paraphrastic") or {}
    if name not in section:
        raise SentembError(f"{PARAMS}: unknown paraphrastic model {name!r}; paraphrastic defines: "
                           f"{', '.join(section) or 'none'}")
    return _validate(Paraphrastic, section[name], f"paraphrastic.{name}")


def text_config(path: str | Path = "data/sentences/stats.json") -> TextConfig:
    """The tokenisation the split stage used (the ``text`` entry of its stats file).

    Raises:
        SentembError: the file is missing (the split stage has not run) or has no valid ``text`` entry.
    """
    p = Path(path)
    if not p.is_file():
        raise SentembError(f"{p}: missing (run `dvc repro split` first)")
    try:
        return TextConfig(**json.loads(p.read_text(encoding="utf-8"))["text"])
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        raise SentembError(f"{p}: no valid 'text' entry ({e})") from None


def run(main: Callable[..., None]) -> None:
    """Run a stage's ``main(*argv)``; a SentembError becomes one ``error:`` line on stderr and exit status 1."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s", stream=sys.stderr)
    names = list(inspect.signature(main).parameters)
    if len(sys.argv) - 1 != len(names):
        usage = " ".join(n.upper() for n in names)
        print(f"error: usage: python {sys.argv[0]} {usage}".rstrip(), file=sys.stderr)
        sys.exit(2)
    try:
        main(*sys.argv[1:])
    except SentembError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
