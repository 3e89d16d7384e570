"""The reports' inputs kept in git: what the report stages read of DVC's cache, written small enough to commit.

A claim or a report changes on a fresh clone in minutes only if what the reports read is in git. The evaluate stages
write each model's per-dataset scores to ``metrics/models/`` (git) but its per-pair scores and its record to
``results/MODEL/`` (DVC's cache); the supervised runs' test predictions are in ``results/supervised/`` and Siamese
CBOW's vectors in ``models/``. :func:`write_report_inputs` (stage ``report-inputs``) copies of these into
``reports/inputs/`` only what the reports use:

- ``models/MODEL.json``: every evaluated model's record (``results/MODEL/model.json``, byte for byte);
- ``pairs.tsv`` (group, dataset, pair, gold: every benchmark pair once) and ``pair_scores/MODEL.txt`` (one cosine a
  line, in ``pairs.tsv``'s order) for the models of ``report.inputs.pair_scores`` (those a report tests pair by pair);
- ``supervised/TASK.tsv`` (set, gold: the test split once) and ``supervised/NAME-TASK.txt`` (one prediction a line)
  for every supervised run;
- ``word_norms/MODEL.tsv`` (word, count, norm in vocabulary order) for the word-averaging models of
  ``report.inputs.word_norms`` (Kenter et al. §4.4).

Floats are written with 8 significant digits (a score's and a prediction's float32 precision).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from pydantic import Field

from sentemb.core.atomic import atomic_path
from sentemb.core.config import Schema
from sentemb.core.errors import SentembError
from sentemb.core.models.word_averaging import load_word_vectors

PAIR_KEYS = ["group", "dataset", "pair", "gold"]
TASKS = ("sts", "sick")
FLOAT = "%.8g"


class ReportInputsConfig(Schema):
    """``report.inputs``: what of DVC's cache the reports read, kept in git. (Its schema lives here, not in
    :mod:`.config`, so that the ``report-inputs`` stage depends on this module alone: a change to a report's code
    leaves it, and the cache it needs, untouched.)"""

    pair_scores: list[str] = Field(description="models whose per-pair scores a report tests pair by pair (Williams' "
                                               "test, the per-set Wilcoxon marks)")
    word_norms: list[str] = Field(description="word-averaging models whose word norms a report reads (Kenter et al. "
                                              "§4.4)")


def _values(path: Path, values: np.ndarray) -> None:
    np.savetxt(path, np.asarray(values, dtype=np.float64), fmt=FLOAT)


def _read_table(path: Path, sep: str = "\t") -> pd.DataFrame:
    try:
        return pd.read_csv(path, sep=sep, quoting=3, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
        raise SentembError(f"{path}: not a readable table ({e})") from None


def write_report_inputs(root: Path, out: Path, pair_score_models: Sequence[str],
                        word_norm_models: Sequence[str]) -> dict[str, int]:
    """Write ``out`` (replaced whole, atomically) from the pipeline's outputs under ``root``.

    Args:
        root: the project (``results/``, ``models/``).
        out: the folder to write, ``reports/inputs``.
        pair_score_models: models whose per-pair scores to keep; those this run did not evaluate are skipped.
        word_norm_models: word-averaging models whose word norms to keep; those not built are skipped.

    Returns:
        Counts: ``models``, ``pair_scores``, ``supervised``, ``word_norms``.

    Raises:
        SentembError: two models' per-pair scores (or two supervised runs' test splits) over different pairs, or an
            unreadable file, naming it.
    """
    results = root / "results"
    evaluated = sorted(p.parent.name for p in results.glob("*/model.json"))
    counts = dict.fromkeys(("models", "pair_scores", "supervised", "word_norms"), 0)
    with atomic_path(out) as tmp:
        (tmp / "models").mkdir(parents=True)
        for m in evaluated:
            shutil.copyfile(results / m / "model.json", tmp / "models" / f"{m}.json")
            counts["models"] += 1
        keys, first = None, None
        for m in (m for m in dict.fromkeys(pair_score_models) if m in evaluated):
            df = _read_table(results / m / "pair_scores.tsv")
            if keys is None:
                keys, first = df[PAIR_KEYS], m
                (tmp / "pair_scores").mkdir()
                keys.to_csv(tmp / "pairs.tsv", sep="\t", index=False, float_format=FLOAT)
            elif not df[PAIR_KEYS].equals(keys):
                raise SentembError(f"results/{m}/pair_scores.tsv: scores other pairs than "
                                   f"results/{first}/pair_scores.tsv")
            _values(tmp / "pair_scores" / f"{m}.txt", df["score"].to_numpy())
            counts["pair_scores"] += 1
        runs = sorted(p.name for p in (results / "supervised").glob("*") if p.is_dir())
        for task in TASKS if runs else ():
            keys = None
            for name in runs:
                df = _read_table(results / "supervised" / name / f"{task}_test.tsv")
                if keys is None:
                    keys = df[["set", "gold"]]
                    (tmp / "supervised").mkdir(exist_ok=True)
                    keys.to_csv(tmp / "supervised" / f"{task}.tsv", sep="\t", index=False, float_format=FLOAT)
                elif not df[["set", "gold"]].equals(keys):
                    raise SentembError(f"results/supervised/{name}/{task}_test.tsv: another test split than "
                                       f"results/supervised/{runs[0]}/{task}_test.tsv")
                _values(tmp / "supervised" / f"{name}-{task}.txt", df["prediction"].to_numpy())
        counts["supervised"] = len(runs)
        for m in (m for m in dict.fromkeys(word_norm_models) if (root / "models" / m / "config.json").is_file()):
            vectors = load_word_vectors(root / "models" / m, f"models/{m}")
            v = vectors.vectors
            norm = np.sqrt(np.einsum("ij,ij->i", v, v, dtype=np.float64))
            (tmp / "word_norms").mkdir(exist_ok=True)
            with open(tmp / "word_norms" / f"{m}.tsv", "w", encoding="utf-8", newline="\n") as fh:
                fh.write("word\tcount\tnorm\n")
                fh.writelines(f"{w}\t{c}\t{FLOAT % n}\n" for w, c, n in zip(vectors.words, vectors.counts.tolist(),
                                                                             norm.tolist(), strict=True))
            counts["word_norms"] += 1
    return counts


class ReportInputs:
    """Readers of ``reports/inputs/`` (:func:`write_report_inputs`); each names the file it misses."""

    def __init__(self, folder: Path):
        self.folder = folder

    def _file(self, relative: str, hint: str) -> Path:
        path = self.folder / relative
        if not path.is_file():
            raise SentembError(f"{path}: missing ({hint})")
        return path

    def has_record(self, model: str) -> bool:
        """Whether this run evaluated ``model`` (its record is here)."""
        return (self.folder / "models" / f"{model}.json").is_file()

    def record(self, model: str) -> Path:
        """The path of a model's record, ``models/MODEL.json``."""
        return self._file(f"models/{model}.json", "the model was not evaluated in this run: dvc repro")

    def pair_scores(self, model: str) -> pd.DataFrame:
        """A model's cosine for every benchmark pair: group, dataset, pair, gold, score."""
        keys = _read_table(self._file("pairs.tsv", "dvc repro report-inputs"))
        scores = np.loadtxt(self._file(f"pair_scores/{model}.txt", f"add {model} to params report.inputs.pair_scores "
                                                                  "and dvc repro report-inputs"), ndmin=1)
        if len(scores) != len(keys):
            raise SentembError(f"{self.folder}/pair_scores/{model}.txt: {len(scores)} scores for {len(keys)} pairs")
        return keys.assign(score=scores)

    def supervised_runs(self) -> list[str]:
        """Every supervised run whose test predictions are here, in name order."""
        suffix = f"-{TASKS[0]}.txt"
        return sorted(p.name.removesuffix(suffix) for p in (self.folder / "supervised").glob(f"*{suffix}"))

    def supervised_predictions(self, name: str, task: str) -> pd.DataFrame:
        """A supervised run's test predictions on a task: set, gold, prediction."""
        keys = _read_table(self._file(f"supervised/{task}.tsv", "dvc repro report-inputs"))
        values = np.loadtxt(self._file(f"supervised/{name}-{task}.txt", "dvc repro report-inputs"), ndmin=1)
        if len(values) != len(keys):
            raise SentembError(f"{self.folder}/supervised/{name}-{task}.txt: {len(values)} predictions for "
                               f"{len(keys)} pairs")
        return keys.assign(prediction=values)

    def word_norms(self, model: str) -> pd.DataFrame:
        """A word-averaging model's word norms, lowest first: ``word``, ``count`` (corpus count),
        ``frequency_rank`` (0 = the most frequent word: the vocabulary's order), ``norm`` (L2) and ``rank`` (1 = the
        lowest norm; ties in vocabulary order)."""
        df = _read_table(self._file(f"word_norms/{model}.tsv", f"add {model} to params report.inputs.word_norms and "
                                                              "dvc repro report-inputs"))
        return norms_table(df["word"].astype(str).tolist(), df["count"].to_numpy(), df["norm"].to_numpy())


def norms_table(words: Sequence[str], counts: np.ndarray, norm: np.ndarray) -> pd.DataFrame:
    """Words in vocabulary order (most frequent first) with their counts and vector norms, sorted lowest norm first.

    Returns:
        One row per word: ``word``, ``count`` (corpus count), ``frequency_rank`` (0 = the most frequent word: the
        vocabulary's order), ``norm`` (L2, float64) and ``rank`` (1 = the lowest norm; ties in vocabulary order).
    """
    norm = np.asarray(norm, dtype=np.float64)
    order = np.argsort(norm, kind="stable")
    return pd.DataFrame({"word": np.asarray(words, dtype=object)[order], "count": np.asarray(counts)[order],
                         "frequency_rank": order, "norm": norm[order], "rank": np.arange(1, len(order) + 1)})
