"""Opening a results folder for a run: the folder is created, locked (one run at a time),
cleared with --fresh (only of what `sim run` wrote), checked against the experiment it holds,
and its stored parts are checked against the records kept when they were written. A damaged
chunk is deleted so the run plays exactly its games again. What was found is said in `notes`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.errors import SimError
from sim.experiment.model import Experiment
from sim.faults import writing
from sim.paths import given, make_folder
from sim.storage import TABLES, cleanup, complete_chunks, part_path, read_manifest, remove_results
from sim.storage.lock import FolderLock, acquire, describe
from sim.storage.verify import Key, damaged_parts, record, records_of


@dataclass
class Opened:
    """A locked results folder, ready for the run."""

    root: Path
    lock: FolderLock
    resumed: bool  # it holds games of this experiment
    records: dict[Key, dict[str, Any]] = field(default_factory=dict)  # stored parts, checked
    notes: list[str] = field(default_factory=list)  # what was found and done, for the user


def results_root(out: str | Path | None, name: str) -> Path:
    """`--out`, or results/<name> when it is not given; an empty --out is refused."""
    return Path("results") / name if out is None else given(out, key="--out")


def open_folder(root: Path, exp: Experiment, fresh: bool) -> Opened:
    """Create and lock `root`, then make it ready (see the module docstring)."""
    make_folder(root, key="--out", what="the results folder")
    lock = acquire(root)
    try:
        return _ready(root, exp, fresh, lock)
    except BaseException:
        lock.release()
        raise


def _ready(root: Path, exp: Experiment, fresh: bool, lock: FolderLock) -> Opened:
    opened = Opened(root, lock, resumed=False)
    stopped = left_stop(lock)
    if stopped:
        opened.notes.append(
            f"the run started {lock.previous.get('started', '?')} stopped: {stopped['error']} "
            "(its manifest could not record it); its stored chunks are kept"
        )
    elif lock.previous:
        opened.notes.append(
            f"the folder's lock was left by {describe(lock.previous)}, which is no longer "
            "running; taken over"
        )
    cleared = fresh and remove_results(root) > 0  # the lab's folder, now without its files
    old = read_manifest(root)
    if old is None:
        if not cleared and any((root / t).is_dir() and any((root / t).iterdir()) for t in TABLES):
            raise SimError(
                "holds games/ or seats/ but no manifest.json: it is not a results folder "
                "written by `sim run`",
                file=root,
                hint="Choose another --out (the lab never deletes files it did not write).",
            )
        return opened
    if old.get("fingerprint") != exp.fingerprint():
        changed = _what_changed(old.get("effective", {}), exp.effective())
        raise SimError(
            f"holds results of a different experiment ({changed})",
            file=root,
            hint="Run with --fresh to delete them and start over, or choose another folder "
            "with --out.",
        )
    opened.notes += _stopped_runs(old, recorded=bool(stopped))
    cleanup(root)
    opened.records = _checked_records(root, old, opened.notes)
    opened.resumed = bool(opened.records)
    return opened


def left_stop(lock: FolderLock) -> dict[str, Any] | None:
    """Why the last run stopped, as it recorded it in the lock file when its manifest could
    not be written (sim.storage.lock), or None."""
    stopped = (lock.previous or {}).get("stopped")
    return stopped if isinstance(stopped, dict) and stopped.get("error") else None


def _stopped_runs(old: dict[str, Any], *, recorded: bool) -> list[str]:
    """Notes on the runs the manifest says stopped early: one still `running` (killed, or its
    folder refused every write at the end; the last one said from the lock file when it
    `recorded` why), and the last run when it failed, with why when the manifest says it."""
    runs = [run for run in old.get("runs", []) if isinstance(run, dict)]
    notes = [
        f"the run started {run.get('started', '?')} stopped without closing its manifest "
        "(killed, or its folder could not be written); its stored chunks are kept"
        for run in runs
        if run.get("status") == "running" and not (recorded and run is runs[-1])
    ]
    last = runs[-1] if runs and not recorded else {}
    if last.get("status") == "failed":
        why = f"stopped: {last['error']}" if last.get("error") else (
            "failed without saying why in its manifest (its folder may have refused the "
            "last write)")  # fmt: skip
        notes.append(f"the run started {last.get('started', '?')} {why}; its stored chunks "
                     "are kept")  # fmt: skip
    return notes


def _checked_records(root: Path, old: dict[str, Any], notes: list[str]) -> dict[Key, Any]:
    """Records of the stored chunks that pass the check; damaged chunks are deleted."""
    arms = {a["index"]: a for a in old["arms"]}
    players = {i: int(a.get("players") or 0) for i, a in arms.items()}
    records = records_of(old)
    damaged = defaultdict(list)
    for found in damaged_parts(root, records, players):
        damaged[(found.arm, found.start, found.stop)].append(found.describe(root))
    for (arm, start, stop), parts in sorted(damaged.items()):
        for table in TABLES:
            path = part_path(root, table, arm, start, stop)
            with writing("a damaged part", path, verb="delete"):
                path.unlink(missing_ok=True)
        name = arms.get(arm, {}).get("name", arm)
        notes.append(
            f"damaged part {'; '.join(parts)}: its {stop - start:,} games (arm '{name}', "
            f"games {start:,}-{stop - 1:,}) are played again"
        )
    kept: dict[Key, Any] = {}
    for arm, chunks in complete_chunks(root).items():
        for start, stop in chunks:
            key = (arm, start, stop)
            kept[key] = records.get(key) or {
                t: record(part_path(root, t, arm, start, stop).read_bytes()) for t in TABLES
            }
    return kept


def _what_changed(old: dict[str, Any], new: dict[str, Any]) -> str:
    if old.get("game") != new.get("game"):
        return f"game {old.get('game')} -> {new.get('game')}"
    if "game_version" not in old:
        return "written before the game's version was recorded: it cannot tell which version played"
    if old["game_version"] != new.get("game_version"):
        return (f"the game's version {old['game_version']} -> {new.get('game_version')}: its "
                "rules or strategies now play differently")  # fmt: skip
    if old.get("seed") != new.get("seed"):
        return f"seed {old.get('seed')} -> {new.get('seed')}"
    old_arms, new_arms = old.get("arms", []), new.get("arms", [])
    if [a.get("name") for a in old_arms] != [a.get("name") for a in new_arms]:
        return "the arms differ"
    for a, b in zip(old_arms, new_arms, strict=True):
        for key in ("ruleset_fingerprint", "players", "lineup", "tables", "params"):
            if a.get(key) != b.get(key):
                what = "rules" if key == "ruleset_fingerprint" else key
                return f"arm '{a['name']}': {what} changed"
    return "its settings changed"
