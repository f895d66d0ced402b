"""The study's journal: where the tune keeps its trials (optuna's journal file in the tune's
folder) and what it writes on each trial, read by the search and by the report alike.

A trial's user attributes: `rung.<games>` its evaluation on the first <games> games per arm
(games, objectives, score, each target's value at each place: `Evaluation.as_json`),
`invalid` why the rules refused the candidate, `polish` its polishing round. Light: optuna
only, no engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import optuna
from optuna.storages import JournalStorage
from optuna.storages.journal import JournalFileBackend
from optuna.trial import FrozenTrial

JOURNAL = "study.journal"  # in the tune's folder
STUDY = "tune"  # the study's name in it
RUNG = "rung."
INVALID = "invalid"
POLISH = "polish"


def storage(root: Path) -> JournalStorage:
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return JournalStorage(JournalFileBackend(str(Path(root) / JOURNAL)))


def rung_evaluations(trial: FrozenTrial) -> dict[int, dict[str, Any]]:
    """games -> the trial's evaluation at that rung (as stored)."""
    return {int(k[len(RUNG) :]): v for k, v in trial.user_attrs.items() if k.startswith(RUNG)}
