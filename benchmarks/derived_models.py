"""Models for the benchmarks to time, derived from one trained word-averaging model (no training: what a benchmark of
loading or encoding measures does not depend on the values of the parameters).

``untrained_paraphrastic`` is shared by ``cli_latency.py`` and ``paraphrastic_inference.py`` (each imports it as a
sibling module: ``python benchmarks/NAME.py`` puts this folder on ``sys.path``).
"""

from pathlib import Path

import numpy as np
import torch
import yaml

from sentemb.core.models.format import read_config
from sentemb.core.models.word_averaging import load_word_vectors
from sentemb.core.models.word_vectors import WordVectors
from sentemb.core.text import TextConfig, text_config
from sentemb.paraphrastic.composition import build_composition
from sentemb.paraphrastic.config import Composition
from sentemb.paraphrastic.model import save_paraphrastic_model


def base_model(base: Path) -> tuple[WordVectors, TextConfig]:
    """The word vectors and the text settings of the word-averaging model directory ``base``."""
    return load_word_vectors(base), text_config(read_config(base)["text"], str(base / "config.json"))


def untrained_paraphrastic(target: Path, name: str, base: Path, vectors: WordVectors, text: TextConfig) -> Path:
    """Save into ``target`` an untrained (seed 0) encoder of params.yaml's ``paraphrastic.para-NAME`` composition over
    ``base``'s vectors, which stay the base model's: the saved model owns three trained rows, laid over them."""
    section = yaml.safe_load(Path("params.yaml").read_text(encoding="utf-8"))["paraphrastic"][f"para-{name}"]
    spec = Composition.model_validate({k: section[k] for k in Composition.model_fields if k in section})
    torch.manual_seed(0)
    encoder = build_composition(spec, np.array(vectors.vectors[:3]), sparse=False)
    save_paraphrastic_model(target, name, encoder, list(vectors.words[:3]), spec, base, text, info={})
    return target
