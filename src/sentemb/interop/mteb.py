"""sentemb models under MTEB (Muennighoff et al. 2023): :class:`SentembEncoder` implements MTEB's encoder protocol
with its model metadata, so ``mteb.evaluate(SentembEncoder("models/glove"), tasks)`` scores any saved model, and
:func:`local_sts_task` builds an MTEB STS task from the local benchmark files (``data/raw``), so that it runs without
a network.

Two conventions differ from sentemb's evaluation (:mod:`sentemb.core.evaluation.sts`), which reports the papers'
per-set Pearson: MTEB's main STS score is Spearman's ρ of cosine similarity over all the pairs of a task pooled, and
MTEB's cosine (``1 − sklearn.paired_cosine_distances``) scores a pair with one zero embedding (a sentence with no known
word) 0.5 and a pair of two zero embeddings 1.0, where sentemb scores both 0
(:func:`sentemb.reporting.harness.mteb_cosine` reproduces MTEB's; the harness table counts the pairs).
MTEB also encodes the two sides of a task in separate calls, so a model that fits its common component per call
(SIF+PC ``per_set``) fits it on each side.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np
from datasets import Dataset, DatasetDict
from mteb.abstasks.sts import AbsTaskSTS
from mteb.abstasks.task_metadata import TaskMetadata
from mteb.models.abs_encoder import AbsEncoder
from mteb.models.model_meta import ModelMeta, ScoringFunction

from sentemb.core.data.benchmarks import BENCHMARKS, GOLD_RANGE, load_benchmarks
from sentemb.core.errors import SentembError
from sentemb.core.models import load_model
from sentemb.core.models.format import CONFIG, read_config
from sentemb.interop.model_card import data_licence


def model_meta(model_dir: str | Path, model: Any) -> ModelMeta:
    """MTEB's metadata of a saved model: name ``sentemb/NAME``, revision the first 12 hex digits of the SHA-256 of its
    ``config.json``, embedding dimension, parameter count (word vectors and encoder), the licence its training data
    put on it (:func:`~sentemb.interop.model_card.data_licence`), cosine similarity; framework
    NumPy (a paraphrastic encoder runs its safetensors weights in NumPy: :mod:`sentemb.paraphrastic.inference`)."""
    revision = hashlib.sha256((Path(model_dir) / CONFIG).read_bytes()).hexdigest()[:12]
    state = getattr(model, "state", None)  # a paraphrastic model's composition parameters
    if state is not None:
        parameters = sum(v.size for v in state.values()) + int(np.prod(model.embedding.shape))
    else:
        weights = getattr(model, "weights", None)  # a weighted model's q_w, one a word
        parameters = int(np.prod(model.vectors.vectors.shape)) + (0 if weights is None else len(weights))
    return ModelMeta(
        loader=SentembEncoder, name=f"sentemb/{model.name}", revision=revision, release_date=None,
        languages=["eng-Latn"], n_parameters=parameters, memory_usage_mb=round(parameters * 4 / 2**20, 1),
        max_tokens=float("inf"), embed_dim=model.dim, license=data_licence(read_config(model_dir)), open_weights=True,
        public_training_code=None,
        public_training_data=None, framework=["NumPy", "safetensors"] if state is not None else ["NumPy"],
        similarity_fn_name=ScoringFunction.COSINE, use_instructions=False, training_datasets=set(),
    )


class SentembEncoder(AbsEncoder):
    """A saved sentemb model (:func:`sentemb.core.models.load_model`) behind MTEB's encoder protocol.

    Args:
        model_name: the model directory (``models/NAME``).
        revision: ignored (the revision is the model's config hash, :func:`model_meta`).

    Raises:
        SentembError: a missing or malformed model directory.
    """

    def __init__(self, model_name: str | Path, revision: str | None = None, *, device: str | None = None,
                 **kwargs: Any) -> None:
        self.model = load_model(model_name)
        self.mteb_model_meta = model_meta(model_name, self.model)

    def encode(self, inputs, *, task_metadata, hf_split: str, hf_subset: str, prompt_type=None,
               **kwargs: Any) -> np.ndarray:
        """The texts of MTEB's batches, encoded in one call: float32, shape (n, dim)."""
        return self.model.encode([text for batch in inputs for text in batch["text"]]).astype(np.float64)


def local_sts_task(raw_dir: str | Path, benchmark: str) -> AbsTaskSTS:
    """An MTEB STS task over one benchmark of the local files (every set of it pooled in one test split), as MTEB's
    own STS12 … STS16, SICK-R and STSBenchmark tasks pool them.

    Args:
        raw_dir: the download stage's ``data/raw``.
        benchmark: STS12 … STS16, SICK-R, STS-B, PIT-2015 (:data:`sentemb.core.data.benchmarks.BENCHMARKS`).

    Raises:
        SentembError: an unknown benchmark, or missing or malformed files (when the task loads its data).
    """
    if benchmark not in BENCHMARKS:
        raise SentembError(f"unknown benchmark {benchmark!r} (expected one of {', '.join(BENCHMARKS)})")
    low, high = GOLD_RANGE.get(benchmark, GOLD_RANGE["STS"])  # MTEB normalises linearly: r and ρ do not move

    class LocalSTS(AbsTaskSTS):
        min_score, max_score = low, high
        metadata = TaskMetadata(
            name=f"sentemb-{benchmark}", dataset={"path": str(Path(raw_dir).resolve()), "revision": "local"},
            description=f"{benchmark} read from sentemb's local copy of the official files ({raw_dir}).",
            reference="https://github.com/embeddings-benchmark/mteb", type="STS", category="t2t",
            modalities=["text"], eval_splits=["test"], eval_langs=["eng-Latn"], main_score="cosine_spearman",
            date=None, domains=None, task_subtypes=None, license="not specified", annotations_creators=None,
            dialect=None, sample_creation=None, bibtex_citation=None,
        )

        def load_data(self, num_proc: int | None = None, **kwargs: Any) -> None:
            if self.data_loaded:
                return
            sets = [d for d in load_benchmarks(raw_dir, [benchmark]) if benchmark != "STS-B" or d.name == "test"]
            self.dataset = DatasetDict({"test": Dataset.from_dict({
                "sentence1": [s for d in sets for s in d.sentences1],
                "sentence2": [s for d in sets for s in d.sentences2],
                "score": [float(g) for d in sets for g in d.gold]})})
            self.data_loaded = True

    return LocalSTS()
