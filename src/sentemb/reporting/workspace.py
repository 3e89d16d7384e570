"""The pipeline's outputs that the reports read, under one root folder (the repository).

``metrics/models/MODEL.json`` and ``MODEL.datasets.csv`` (every evaluated model's aggregates and per-dataset scores),
``results/MODEL/`` (its per-pair scores and the record of the model it scored), a word-averaging model's vectors
(``models/MODEL/``), ``metrics/norms/``, ``metrics/train/``, ``metrics/supervised/`` and ``results/supervised/``, the
data stages' counts, and ``reference/`` (the papers' published numbers). Each reader names the file it misses.

A model counts as evaluated in this workspace when both of its evaluate stage's outputs are there: the scores in
``metrics/models/`` (committed to git) and ``results/MODEL/`` (in DVC's cache). A scores file alone is a committed
result of another run: the full run's, in the temporary copy where a quick look's narrower profile runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sentemb.core.atomic import read_json
from sentemb.core.errors import SentembError
from sentemb.core.models.format import read_config
from sentemb.core.models.word_averaging import load_word_vectors
from sentemb.core.models.word_vectors import WordVectors


@dataclass(frozen=True)
class Workspace:
    """Readers of the pipeline's outputs under ``root``."""

    root: Path = Path(".")

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
        return ((self.root / f"metrics/models/{model}.datasets.csv").is_file()
                and (self.root / f"results/{model}/model.json").is_file())

    def evaluated_models(self, saved_type: str | None = None) -> list[str]:
        """Every model this workspace's run evaluated (:meth:`evaluated`), in name order; with ``saved_type``
        (``word_average``, ``weighted_average``, ``paraphrastic``) only the models saved as that type."""
        names = (p.name.removesuffix(".json") for p in (self.root / "metrics" / "models").glob("*.json"))
        return sorted(n for n in names if self.evaluated(n) and (
            saved_type is None or read_config(self.root / "models" / n).get("type") == saved_type))

    def means(self, aggregate: str = "STS12-15") -> dict[str, float]:
        """Every evaluated model's mean Pearson ×100 over ``aggregate`` (a key of the evaluation's aggregates:
        ``STS12-15``, ``all`` …), the models whose run has no such sets left out."""
        scores = {m: self.metrics(m) for m in self.evaluated_models()}
        return {m: s[aggregate]["pearson"] for m, s in scores.items() if aggregate in s}

    def supervised_runs(self) -> list[str]:
        """Every supervised run of this workspace: ``metrics/supervised/NAME.json`` beside ``results/supervised/NAME/``
        (as :meth:`evaluated`), in name order."""
        names = (p.stem for p in (self.root / "metrics" / "supervised").glob("*.json"))
        return sorted(n for n in names if (self.root / "results" / "supervised" / n).is_dir())

    def pair_scores(self, model: str) -> pd.DataFrame:
        """A model's cosine for every benchmark pair: group, dataset, pair, gold, score."""
        return _csv(self._file(f"results/{model}/pair_scores.tsv"), sep="\t")

    def model(self, model: str) -> dict:
        """The config of the model an evaluation scored (its ``config.json`` as the evaluation saved it)."""
        return self.json(f"results/{model}/model.json")

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
        return _csv(self._file(f"results/supervised/{name}/{task}_test.tsv"), sep="\t", quoting=3,
                    keep_default_na=False)

    def word_vectors(self, model: str) -> WordVectors:
        """A word-averaging model's vocabulary and vectors, ``models/MODEL`` (memory-mapped, read without pickle)."""
        return load_word_vectors(self.root / "models" / model, f"models/{model}")

    def reference(self, name: str) -> Path:
        """A file of the papers' published numbers, ``reference/NAME``."""
        return self._file(f"reference/{name}")


def _csv(path: Path, sep: str = ",", **kwargs: Any) -> pd.DataFrame:
    try:
        return pd.read_csv(path, sep=sep, **kwargs)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
        raise SentembError(f"{path}: not a readable table ({e})") from None
