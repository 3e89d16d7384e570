"""What several test modules share: the repository's params.yaml, from which the tests build the schemas the pipeline
runs (params.yaml is the one place settings have values: sentemb.core.config), changed where a test says."""

import copy
import importlib.util
from pathlib import Path

import yaml

from sentemb.core.text.config import TextConfig

ROOT = Path(__file__).resolve().parents[1]
PARAMS = yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8"))


def script_module(relative: str):
    """A script of the repository that is not a package module (``benchmarks/NAME.py``, ``profiles/profile.py``),
    imported from its file."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def params_section(key: str) -> dict:
    """A copy of the params.yaml entry at the dotted ``key``."""
    node = PARAMS
    for part in key.split("."):
        node = node[part]
    return copy.deepcopy(node)


def configured(schema, key: str, **overrides):
    """``schema`` built from the params.yaml entry ``key`` with ``overrides``: the pipeline's settings, changed where
    the test says."""
    return schema.model_validate(params_section(key) | overrides)


TEXT = configured(TextConfig, "text")
"""The pipeline's tokenisation."""


# the params.yaml model whose encoder's arguments a test's composition takes (the rnn: the LSTM model's activation)
_ENCODER_MODEL = {"avg": "para-avg", "proj": "para-proj", "dan": "para-dan", "rnn": "para-lstm", "lstm": "para-lstm",
                  "lstmavg": "para-lstmavg", "gran": "para-gran"}


def composition(encoder: str, **overrides):
    """A :class:`~sentemb.paraphrastic.config.Composition` of ``encoder`` with the arguments params.yaml gives it, no
    dropout, and ``overrides``."""
    from sentemb.paraphrastic.config import Composition

    section = params_section(f"paraphrastic.{_ENCODER_MODEL[encoder]}")
    arguments = {k: section[k] for k in Composition.model_fields if k in section}
    return Composition.model_validate(arguments | {"encoder": encoder, "dropout": 0.0, "word_dropout": 0.0}
                                      | overrides)


def from_section(schema, key: str, **overrides):
    """``schema`` built from the fields it has of the params.yaml entry ``key``, with ``overrides`` (e.g. the shared
    adjacent-sentence settings out of the ``model`` section)."""
    section = params_section(key)
    return schema.model_validate({k: v for k, v in section.items() if k in schema.model_fields} | overrides)


TOY_WORDS = ["a", "man", "plays", "guitar", "woman", "sings", "dog", "runs"]
TOY_VECTORS = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 0.2], [0, 0.1, 1], [1, 0, 1], [0.5, 0, 1]]


def toy_models(root: Path) -> Path:
    """One small model of each saved type in ``root``: ``avg`` (word_average, 8 words, 3-d), ``nws`` and ``sif-pc``
    (weighted_average over ``avg``), ``gran`` (paraphrastic over ``avg``, 3 trained rows)."""
    import numpy as np
    import torch

    from sentemb.core.models.word_averaging import save_word_averaging_model
    from sentemb.core.models.word_vectors import WordVectors
    from sentemb.paraphrastic.composition import build_composition
    from sentemb.paraphrastic.model import save_paraphrastic_model
    from sentemb.salience.model import save_weighted_average_model

    vectors = np.array(TOY_VECTORS, dtype=np.float32)
    counts = np.arange(len(TOY_WORDS), 0, -1)
    save_word_averaging_model(root / "avg", "avg", WordVectors.from_arrays(TOY_WORDS, counts, vectors), TEXT, info={})
    weights = np.linspace(0.5, 2.0, len(TOY_WORDS))
    save_weighted_average_model(root / "nws", "nws", root / "avg", TOY_WORDS, weights, TEXT, "nws", "none",
                                info={})
    save_weighted_average_model(root / "sif-pc", "sif-pc", root / "avg", TOY_WORDS, weights, TEXT, "sif",
                                "per_set", info={})
    torch.manual_seed(0)
    gran = composition("gran")
    enc = build_composition(gran, vectors[[1, 2, 3]] + 0.5, sparse=False)
    save_paraphrastic_model(root / "gran", "gran", enc, ["man", "plays", "guitar"], gran, root / "avg", TEXT, info={})
    return root
