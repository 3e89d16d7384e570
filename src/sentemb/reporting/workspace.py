"""The pipeline's outputs that the reports read, under one root folder (the repository), all of them kept in git.

``metrics/models/MODEL.json`` and ``MODEL.datasets.csv`` (every evaluated model's aggregates and per-dataset scores),
``reports/inputs/`` (each evaluated model's record, the per-pair scores of the models a report tests pair by pair, the
supervised runs' test predictions and Siamese CBOW's word norms: :mod:`sentemb.reporting.inputs`), ``metrics/norms/``,
``metrics/train/``, ``metrics/supervised/``, the data stages' counts, and ``reference/`` (the papers' published
numbers). Each reader names the file it misses. No reader opens DVC's cache, so a report changes on a fresh clone.

A model counts as evaluated in this workspace when its scores in ``metrics/models/`` and its record in
``reports/inputs/models/`` are both there, the two written by the same run. A scores file alone is a committed result of
another run: the full run's, in the temporary copy where a quick look's narrower profile runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sentemb.core.atomic import read_json
from sentemb.core.errors import SentembError
from sentemb.reporting.inputs import ReportInputs


@dataclass(frozen=True)
class Workspace:
    """Readers of the pipeline's outputs under ``root``."""

    root: Path = Path(".")

    @property
    def inputs(self) -> ReportInputs:
        """``reports/inputs/``: the records, per-pair scores, predictions and word norms the reports read."""
        return ReportInputs(self.root / "reports" / "inputs")

    def _file(self, relative: str) -> Path:
        path = self.root / relative
        if not path.is_file():
            raise SentembError(f"{relative}: missing (the stage that writes it has not run: dvc repro)")
        return path

    def json(self, relative: str) -> Any:
        """Any JSON output, e.g. ``metrics/corpus.json``."""
        return read_json(self._file(relative), "missing")

    def metrics(self, model: str) -> dict:
        """The evaluation's aggregates of a model (:func:`sentemb.core.evaluation.sts.aggregate`)."""
        return self.json(f"metrics/models/{model}.json")

    def datasets(self, model: str) -> pd.DataFrame:
        """A model's per-dataset scores: group, dataset, set, pairs, pearson, spearman, no_known_word."""
        return _csv(self._file(f"metrics/models/{model}.datasets.csv"))

    def evaluated(self, model: str) -> bool:
        """Whether this workspace's run evaluated ``model`` (a profile may build only some of a report's models; see
        the module's docstring)."""
        return (self.root / f"metrics/models/{model}.datasets.csv").is_file() and self.inputs.has_record(model)

    def evaluated_models(self, saved_type: str | None = None) -> list[str]:
        """Every model this workspace's run evaluated (:meth:`evaluated`), in name order; with ``saved_type``
        (``word_average``, ``weighted_average``, ``paraphrastic``) only the models saved as that type."""
        names = (p.name.removesuffix(".json") for p in (self.root / "metrics" / "models").glob("*.json"))
        return sorted(n for n in names if self.evaluated(n) and (
            saved_type is None or self.model(n).get("type") == saved_type))

    def seeds(self, model: str) -> list[str]:
        """The runs of ``model`` over training seeds that this workspace evaluated: ``model`` itself (the seed its
        params name) then each ``model-seedS`` in order of S (the ``-seedS`` runs of ``pipeline.siamese_cbow`` …)."""
        return [model, *seed_runs(model, self.evaluated_models())]

    def supervised_seeds(self, name: str) -> list[str]:
        """The runs of a supervised run over training seeds: ``name`` then each ``name-seedS`` (``supervise-seed@``)
        in order of S."""
        return [name, *seed_runs(name, self.supervised_runs())]

    def means(self, aggregate: str = "STS12-15") -> dict[str, float]:
        """Every evaluated model's mean Pearson ×100 over ``aggregate`` (a key of the evaluation's aggregates:
        ``STS12-15``, ``all`` …), the models whose run has no such sets left out."""
        scores = {m: self.metrics(m) for m in self.evaluated_models()}
        return {m: s[aggregate]["pearson"] for m, s in scores.items() if aggregate in s}

    def supervised_runs(self) -> list[str]:
        """Every supervised run of this workspace: ``metrics/supervised/NAME.json`` beside its test predictions in
        ``reports/inputs/supervised/`` (as :meth:`evaluated`), in name order."""
        ran = set(self.inputs.supervised_runs())
        return sorted(p.stem for p in (self.root / "metrics" / "supervised").glob("*.json") if p.stem in ran)

    def pair_scores(self, model: str) -> pd.DataFrame:
        """A model's cosine for every benchmark pair: group, dataset, pair, gold, score."""
        return self.inputs.pair_scores(model)

    def model(self, model: str) -> dict:
        """The config of the model an evaluation scored (its ``config.json`` as the evaluation saved it)."""
        return read_json(self.inputs.record(model), "missing")

    def training(self, model: str) -> dict:
        """The training record a model's config keeps (``info.training``; ``{}`` for a model without training)."""
        return self.model(model).get("info", {}).get("training", {})

    def norms(self, model: str) -> dict:
        """A weighted model's saliences against the psycholinguistic norms (:func:`sentemb.salience.norms`)."""
        return self.json(f"metrics/norms/{model}.json")

    def training_log(self, model: str) -> pd.DataFrame:
        """A trainer's log, one row per logged step or checkpoint."""
        return _csv(self._file(f"metrics/train/{model}.csv"))

    def supervised(self, name: str) -> dict:
        """A supervised run's test, dev and oracle r per task."""
        return self.json(f"metrics/supervised/{name}.json")

    def supervised_predictions(self, name: str, task: str) -> pd.DataFrame:
        """A supervised run's test predictions on a task: set, gold, prediction."""
        return self.inputs.supervised_predictions(name, task)

    def word_norms(self, model: str) -> pd.DataFrame:
        """A word-averaging model's word norms, lowest first (:meth:`ReportInputs.word_norms`)."""
        return self.inputs.word_norms(model)

    def reference(self, name: str) -> Path:
        """A file of the papers' published numbers, ``reference/NAME``."""
        return self._file(f"reference/{name}")


SEED_SUFFIX = re.compile(r"-seed([1-9]\d*)$")


def seed_runs(name: str, names: list[str]) -> list[str]:
    """The names among ``names`` that are ``name-seedS``, in order of S."""
    runs = [(int(m.group(1)), n) for n in names if (m := SEED_SUFFIX.search(n)) and n[:m.start()] == name]
    return [n for _, n in sorted(runs)]


def base_name(name: str) -> str:
    """A run's model without its ``-seedS`` suffix (``siamese_cbow-seed2`` → ``siamese_cbow``)."""
    return SEED_SUFFIX.sub("", name)


def _csv(path: Path, sep: str = ",", **kwargs: Any) -> pd.DataFrame:
    try:
        return pd.read_csv(path, sep=sep, **kwargs)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
        raise SentembError(f"{path}: not a readable table ({e})") from None
