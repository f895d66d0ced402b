"""The tune's folder: locked while a tune runs, holding the study and the candidates' games.

    <out>/tune.json          what was tuned (the file, its fingerprint) and, when done, the
                             confirmation, the recommendation and the verdicts
    <out>/study.journal      the search's trials (optuna's journal file)
    <out>/trials/<id>/       each candidate's games (a `sim run` results folder)
    <out>/recommended.yaml   the recommended rule values, usable as an experiment's `rules:`
    <out>/report/            the report

A folder holding another tune (another fingerprint) is refused; `--fresh` deletes what a tune
wrote there (only that) and starts over.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.errors import SimError
from sim.faults import writing
from sim.paths import make_folder
from sim.storage import write_atomic
from sim.storage.lock import FolderLock, acquire
from sim.storage.parts import remove_leftovers
from sim.tune.journal import JOURNAL

if TYPE_CHECKING:
    from sim.tune.spec import Tune

SUMMARY = "tune.json"
OVERLAY = "recommended.yaml"
TRIALS = "trials"
WRITTEN = (SUMMARY, JOURNAL, f"{JOURNAL}.lock", OVERLAY)


def open_tune_folder(root: Path, tune: Tune, *, fresh: bool, key: str = "--out") -> FolderLock:
    """Create and lock `root`; refuse another tune's folder unless `fresh` clears it."""
    make_folder(root, key=key, what="the tune's folder")
    lock = acquire(root)
    try:
        if fresh:
            clear(root)
        _check(root, tune)
        remove_leftovers(root, (SUMMARY, OVERLAY))
        write_summary(root, {**read_summary(root), "tune": _identity(tune)})
    except BaseException:
        lock.release()
        raise
    return lock


def _identity(tune: Tune) -> dict[str, Any]:
    return {"name": tune.name, "file": tune.file, "fingerprint": tune.fingerprint(),
            "game": tune.experiment.game, "text": tune.text}  # fmt: skip


def _check(root: Path, tune: Tune) -> None:
    held = read_summary(root).get("tune")
    if held is None:
        if (root / JOURNAL).exists():
            raise SimError("holds a study but no tune.json: it was not written by `sim tune`",
                           file=root, hint="Choose another --out.")  # fmt: skip
        return
    if held.get("fingerprint") != tune.fingerprint():
        raise SimError(
            f"holds another tune ({held.get('file') or held.get('name')}: its knobs, targets, "
            "search or experiment differ)",
            file=root,
            hint="Run with --fresh to delete it and start over, or choose another --out.",
        )


def clear(root: Path) -> None:
    """Delete what a tune wrote in `root` (its candidates' results folders with them)."""
    with writing("the stored tune (--fresh)", root, verb="delete"):
        if (root / TRIALS).is_dir():
            shutil.rmtree(root / TRIALS)
        for name in WRITTEN:
            (root / name).unlink(missing_ok=True)


def read_summary(root: Path) -> dict[str, Any]:
    path = root / SUMMARY
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SimError(f"cannot read {SUMMARY}: {exc}", file=path,
                       hint="Run with --fresh to start over.") from None  # fmt: skip


def write_summary(root: Path, summary: dict[str, Any]) -> None:
    text = json.dumps(summary, indent=1, default=str) + "\n"
    write_atomic(root / SUMMARY, text.encode("utf-8"), what="the tune's summary")
