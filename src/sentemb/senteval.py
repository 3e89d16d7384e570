"""A SentEval ``prepare``/``batcher`` pair for any saved sentemb model (Conneau & Kiela 2018, SentEval's API).

SentEval calls ``prepare(params, samples)`` once per task with the task's tokenised sentences, then
``batcher(params, batch)`` with lists of tokens and expects a float array of shape (len(batch), dim)::

    import senteval
    from sentemb import senteval as sentemb_senteval

    params = {"task_path": "SentEval/data", "usepytorch": False, "kfold": 10, "sentemb_model": "models/para-gran"}
    se = senteval.engine.SE(params, sentemb_senteval.batcher, sentemb_senteval.prepare)
    se.eval(["STS12", "STS13", "STS14", "STS15", "STS16", "SICKRelatedness", "STSBenchmark"])

The model is loaded once (``params["sentemb_model"]``: a model directory; or ``params["sentemb_encoder"]``: an
object with ``encode(list[str]) -> ndarray`` already loaded). Tokens are joined with spaces and the model
tokenises that string with its own tokeniser.

SentEval tokenises its STS files (Moses-style, in its own data preparation) before the batcher sees them, while the
pipeline's evaluation (:mod:`sentemb.core.evaluation.sts`) gives each model the raw official text: the two token streams
differ (clitics, quotes, hyphens), and scores can differ by several points per dataset. Compare numbers from one
harness only.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from typing import Any

import numpy as np

from sentemb.core.errors import SentembError
from sentemb.core.models import load_model
from sentemb.inference.files import refuse_per_set_component

MODEL_KEY = "sentemb_model"
ENCODER_KEY = "sentemb_encoder"


def _get(params: Any, key: str) -> Any:
    if isinstance(params, MutableMapping):
        return params.get(key)
    return getattr(params, key, None)


def _set(params: Any, key: str, value: Any) -> None:
    if isinstance(params, MutableMapping):
        params[key] = value
    else:
        setattr(params, key, value)


def prepare(params: Any, samples: Sequence[Sequence[str]]) -> None:
    """SentEval's ``prepare``: load the model named by ``params["sentemb_model"]`` once and keep it in
    ``params["sentemb_encoder"]``. ``samples`` (the task's tokenised sentences) are not needed: the models are fixed.

    Args:
        params: SentEval's params (a dict, or its attribute-access ``dotdict``).
        samples: list of token lists.

    Raises:
        SentembError: neither key set, a model that cannot be loaded, or one whose embeddings depend on how the
            sentences are batched (SIF with its common component fitted per call).
    """
    encoder = _get(params, ENCODER_KEY)
    if encoder is None:
        path = _get(params, MODEL_KEY)
        if path is None:
            raise SentembError(f"SentEval params: set {MODEL_KEY!r} to a model directory (or {ENCODER_KEY!r} to a "
                               "loaded model)")
        encoder = load_model(path)
        _set(params, ENCODER_KEY, encoder)
    refuse_per_set_component(encoder, getattr(encoder, "name", "model"), "SentEval calls the batcher per mini-batch")


def batcher(params: Any, batch: Sequence[Sequence[str]]) -> np.ndarray:
    """SentEval's ``batcher``: token lists → float32 (len(batch), dim); an empty token list gives a zero row.

    Raises:
        SentembError: :func:`prepare` was not called.
    """
    encoder = _get(params, ENCODER_KEY)
    if encoder is None:
        raise SentembError("SentEval batcher: call prepare(params, samples) first (no model loaded)")
    sentences = [" ".join(tokens) if not isinstance(tokens, str) else tokens for tokens in batch]
    return np.asarray(encoder.encode(sentences), dtype=np.float32)
