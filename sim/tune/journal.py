"""The study's journal: where the tune keeps its trials (optuna's journal file in the tune's
folder) and what it writes on each trial, read by the search and by the report alike.

A trial's user attributes: `rung.<games>` its evaluation on the first <games> games per arm
(games, objectives, score, each target's value at each place: `Evaluation.as_json`),
`invalid` why the rules refused the candidate, `polish` its polishing round, `repeat_of` the
trial whose stored answer a proposal of a candidate already tried was given. Light: optuna
only, no engine."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import optuna
from optuna.storages import JournalStorage
from optuna.storages.journal import JournalFileBackend
from optuna.trial import FrozenTrial

from sim.faults import writing

JOURNAL = "study.journal"  # in the tune's folder
STUDY = "tune"  # the study's name in it
RUNG = "rung."
INVALID = "invalid"
POLISH = "polish"
REPEAT = "repeat_of"
WHAT = "the tune's journal"


def storage(root: Path) -> JournalStorage:
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return JournalStorage(_Journal(str(Path(root) / JOURNAL)))


class _Journal(JournalFileBackend):
    """optuna's journal file, each append whole or absent: one the disk refuses (full, gone
    read-only) is cut back to where the journal ended, since a part of a line would read as a
    damaged journal once the next append follows it, and raised as a WriteFault."""

    def __init__(self, path: str) -> None:
        with writing(WHAT, path):
            super().__init__(path, lock_obj=_FolderHeld())  # type: ignore[arg-type]

    def append_logs(self, logs: list[dict[str, Any]]) -> None:
        path = self._file_path
        with writing(WHAT, path):
            size = os.stat(path).st_size  # one tune per folder (its lock): no other writer
            try:
                super().append_logs(logs)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.truncate(path, size)
                raise


def rung_evaluations(trial: FrozenTrial) -> dict[int, dict[str, Any]]:
    """games -> the trial's evaluation at that rung (as stored)."""
    return {int(k[len(RUNG) :]): v for k, v in trial.user_attrs.items() if k.startswith(RUNG)}


class _FolderHeld:
    """No lock file of the journal's own: the tune's folder lock (sim.tune.folder) already
    keeps every other writer out, and a lock file is one more write that a full disk or a
    read-only folder could refuse (optuna's would say so as a RuntimeError)."""

    def acquire(self) -> bool:
        return True

    def release(self) -> None:
        return None
