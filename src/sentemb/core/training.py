"""The training skeleton every trainer runs: epochs → batches → step → loss rows → CSV → statistics.

A family supplies three things and :func:`train_loop` does the rest (the progress bar, the running loss, the
divergence check, the rows, the clock, the CSV of rows written atomically):

- ``batches(epoch)``: an iterable of ``(position, size, batch)``, where ``position`` is how far the run is after
  the batch, in epochs (the rows' ``epoch`` column), and ``size`` what the bar counts (sentences, pairs). Its random
  draws happen as it is iterated, just before each step, so the skeleton adds no draw and reorders none;
- ``step(batch)``: one update (a compiled SGD or AdaGrad step, or torch's forward, backward and optimiser), returning
  the batch's mean loss: a Python float, checked at once, or a 0-d tensor, summed where it lies (on a GPU: no
  synchronisation a batch) and checked when a row is made;
- ``record(step, position, loss)``: the row for the steps since the last one (``loss``: their mean loss); the place
  for a checkpoint's evaluation and model selection (its time is not training time).

Rows come every ``Schedule.record_every`` steps and after the last (``per_epoch``: counted from each epoch's start,
with a row at each epoch's end, as the paraphrastic papers evaluate every quarter epoch).
"""

from __future__ import annotations

import csv
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

import torch
from tqdm.auto import tqdm

from sentemb.core.atomic import atomic_open
from sentemb.core.errors import SentembError

B = TypeVar("B")
Loss = float | torch.Tensor


@dataclass(frozen=True)
class Schedule:
    """When rows are made.

    Attributes:
        epochs: passes over the data.
        steps_per_epoch: the steps an epoch takes (batches a family skips are not steps).
        record_every: a row every this many steps, and one after the last step.
        per_epoch: count ``record_every`` from each epoch's start, with a row at each epoch's end (otherwise from the
            run's start).
    """

    epochs: int
    steps_per_epoch: int
    record_every: int
    per_epoch: bool = False

    @property
    def steps(self) -> int:
        """The steps of the whole run."""
        return self.epochs * self.steps_per_epoch

    def records(self, step: int, in_epoch: int) -> bool:
        """Whether a row follows the ``step``-th step of the run, the ``in_epoch``-th of its epoch (both from 1)."""
        if self.per_epoch:
            return in_epoch % self.record_every == 0 or in_epoch == self.steps_per_epoch
        return step % self.record_every == 0 or step == self.steps


@dataclass
class TrainingRun(Generic[B]):
    """What :func:`train_loop` returns.

    Attributes:
        rows: the rows ``record`` made, in order (written to the log CSV).
        steps: the steps taken.
        last_loss: the mean loss of the last row's steps (nan before any row).
        seconds: wall seconds of the whole loop.
        train_seconds: ``seconds`` without the time spent in ``record`` (evaluation, model selection).
    """

    rows: list[dict] = field(default_factory=list)
    steps: int = 0
    last_loss: float = math.nan
    seconds: float = 0.0
    train_seconds: float = 0.0


def _diverged(what: str, loss: float, step: int, hint: str) -> SentembError:
    return SentembError(f"{what}: training diverged: mean loss {loss} at step {step} ({hint})")


def train_loop(
    batches: Callable[[int], Iterable[tuple[float, int, B]]],
    step: Callable[[B], Loss],
    schedule: Schedule,
    record: Callable[[int, float, float], dict],
    *,
    what: str,
    hint: str = "lower the learning rate, lr",
    log_path: str | Path | None = None,
    progress: bool = True,
    total: int | None = None,
    unit: str = "it",
    reduce: Callable[[torch.Tensor], torch.Tensor] | None = None,
    synchronize: Callable[[], None] | None = None,
) -> TrainingRun:
    """Run ``schedule.epochs`` epochs of ``step`` over ``batches(epoch)``, a row from ``record`` on the schedule.

    Args:
        batches: ``epoch`` (from 0) → ``(position, size, batch)`` per step (see the module's docstring).
        step: one update on a batch → its mean loss (float, or a 0-d tensor).
        schedule: the epochs, steps and rows.
        record: ``(step, position, mean loss)`` → the row (a dict; every row has the same keys).
        what: the trainer, first in an error (``"paraphrastic training"``).
        hint: what to change when the loss is no longer finite.
        log_path: the CSV of the rows, written atomically at the end (``None``: not written).
        progress: show a tqdm bar of ``total`` ``unit`` (``size`` a batch).
        reduce: the running loss (a tensor) → its sum over the processes of a data-parallel run, divided by
            their number (``None``: one process).
        synchronize: waits for the device before the clock stops (``torch.cuda.synchronize``; ``None``: none).

    Returns:
        The rows, steps, last mean loss and clock readings (:class:`TrainingRun`).

    Raises:
        SentembError: a loss that is no longer finite (naming ``what`` and the step), or no step at all.
    """
    run = TrainingRun()
    bar = tqdm(total=total, unit=unit, unit_scale=True, disable=not progress, desc="train", mininterval=2.0)
    window: Loss = 0.0
    n, paused = 0, 0.0
    start = time.perf_counter()
    for epoch in range(schedule.epochs):
        for in_epoch, (position, size, batch) in enumerate(batches(epoch), 1):
            loss = step(batch)
            if isinstance(loss, float) and not math.isfinite(loss):
                raise _diverged(what, loss, run.steps + 1, hint)
            run.steps += 1
            window = window + loss  # a tensor stays on its device
            n += 1
            bar.update(size)
            if schedule.records(run.steps, in_epoch):
                if reduce is not None and isinstance(window, torch.Tensor):
                    window = reduce(window)
                run.last_loss = float(window) / n
                if not math.isfinite(run.last_loss):
                    raise _diverged(what, run.last_loss, run.steps, hint)
                t = time.perf_counter()
                run.rows.append(record(run.steps, position, run.last_loss))
                paused += time.perf_counter() - t
                bar.set_postfix(loss=f"{run.last_loss:.4f}")
                window, n = 0.0, 0
    if synchronize is not None:
        synchronize()
    bar.close()
    if not run.rows:
        raise SentembError(f"{what}: no training step (too few examples for one batch)")
    run.seconds = time.perf_counter() - start
    run.train_seconds = run.seconds - paused
    if log_path is not None:
        write_rows(log_path, run.rows)
    return run


class BestCheckpoint:
    """Model selection's memory: the row and the parameters (copied to the CPU) of the best checkpoint so far."""

    def __init__(self, *modules: torch.nn.Module):
        self.modules = modules
        self.score: float | None = None
        self.row: dict | None = None
        self.states: list[dict[str, torch.Tensor]] = []

    def offer(self, score: float, row: dict) -> None:
        """Keep the modules' parameters now if ``score`` beats every earlier one (higher is better; a tie keeps the
        earlier checkpoint)."""
        if self.score is None or score > self.score:
            self.score, self.row = score, row
            self.states = [{k: v.detach().to("cpu", copy=True) for k, v in m.state_dict().items()}
                           for m in self.modules]

    def restore(self) -> dict:
        """Leave the modules on the CPU with the best checkpoint's parameters; returns its row.

        Raises:
            SentembError: no checkpoint was offered.
        """
        if self.row is None:
            raise SentembError("model selection: no checkpoint was scored")
        for module, state in zip(self.modules, self.states, strict=True):
            module.to("cpu").load_state_dict(state)
        return self.row


def write_rows(path: str | Path, rows: list[dict]) -> None:
    """Write ``rows`` (dicts with the same keys, in order) as a CSV with a header, atomically."""
    with atomic_open(path, newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
