"""A run's account: every chunk's parts stored, and the manifest kept up to date as they come
(the chunks stored with their records and seconds, this run's entry, the illegal moves), so
that a run killed at any moment leaves a folder that says what it holds. The manifest is
written whole at the start and the end; each chunk in between is one line appended to its
journal (sim.storage.journal), which reading the manifest folds in: recording a chunk costs
the same however many chunks the run has stored."""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path
from typing import Any

import sim.storage.journal as journal
from sim.experiment.model import Experiment
from sim.faults import Fault, writing
from sim.runner.folder import Opened, left_stop
from sim.runner.illegal import IllegalMoves
from sim.runner.manifest import chunk_list, new_manifest, now, previous_seconds
from sim.runner.tasks import ChunkResult
from sim.storage import complete_chunks, part_path, read_manifest, write_atomic, write_manifest
from sim.storage.verify import games_done, record


class Ledger:
    """The stored chunks of a run's folder and its manifest, written at the start (the
    journal a run before left folded in, then removed) and at the end (`close`); each chunk
    in between is a line of the journal."""

    def __init__(self, exp: Experiment, opened: Opened, *, jobs: int, backend: str,
                 address: str | None, chunk_size: int) -> None:  # fmt: skip
        self.root = opened.root
        self.lock = opened.lock
        self.records = dict(opened.records)
        self.seconds = previous_seconds(read_manifest(self.root))
        self.manifest = new_manifest(exp, self.root, left_stop(opened.lock))
        self.began = time.perf_counter()
        self.entry = {"started": now(), "jobs": jobs, "backend": backend, "address": address,
                      "chunk_size": chunk_size, "status": "running"}  # fmt: skip
        self.manifest["runs"].append(self.entry)
        self.stored = complete_chunks(self.root)
        self.played = self.chunks = 0
        self.illegal = IllegalMoves(exp.arms)
        self._arm_names = [arm.name for arm in exp.arms]
        self._write()
        journal.remove(self.root)  # the manifest holds what it said

    def done(self, arm: int) -> int:
        """Games of arm `arm` stored."""
        return games_done(self.stored.get(arm, []))

    def add(self, result: ChunkResult) -> None:
        """Store a played chunk and account for it; a strategy whose illegal moves pass the
        limit stops the run (sim.runner.illegal)."""
        key = (result.arm_index, result.start, result.stop)
        self.records[key] = _store(self.root, result)
        self.stored.setdefault(result.arm_index, []).append((result.start, result.stop))
        self.seconds[key] = result.seconds
        self.played += result.stop - result.start
        self.chunks += 1
        arm = self._arm_names[result.arm_index]
        examples = [f"arm '{arm}', {e}" for e in result.errors]
        quoted = journal.add_illegal(self.manifest["illegal_moves"], len(examples), examples)
        journal.append(self.root, {"arm": key[0], "start": key[1], "stop": key[2],
                                   "seconds": result.seconds, **self.records[key],
                                   **({"illegal": len(examples), "examples": quoted}
                                      if examples else {})})  # fmt: skip
        self.illegal.add(result.arm_index, result.start, result.stop, result.illegal,
                         result.errors)  # fmt: skip
        self.illegal.check(self.root)

    def note_stop(self, found: dict[str, dict[str, Any]]) -> None:
        """What the stop rule found (kept as the manifest's `precision_result`)."""
        self.manifest["precision_result"] = found

    def close(self, status: str, targets: dict[int, int], error: str | None = None) -> None:
        """The run's end: `complete`, `interrupted` or `failed` (an error on the way, `error`
        saying which, one line). A manifest that cannot be written then (a full disk) records
        why the run stopped in the lock file instead; its fault is raised unless an error is
        on its way already."""
        self.entry["status"] = status if status == "interrupted" else "failed"
        if error is not None:
            self.entry["error"] = error
        self.entry["finished"] = now()
        self.entry["wall_seconds"] = round(time.perf_counter() - self.began, 3)
        self.entry["games_played"] = self.played
        for arm in self.manifest["arms"]:
            arm["games"] = self.done(arm["index"])
            arm["target"] = targets[arm["index"]]
        self.manifest["status"] = self.entry["status"]
        try:
            self._write(error)
        except Fault:
            if error is None:
                raise

    def completed(self) -> None:
        """The run played every game it had to: said once everything else is written."""
        self.entry["status"] = self.manifest["status"] = "complete"
        self._write()
        journal.remove(self.root)  # a run stopped early leaves it: folding it adds nothing

    @property
    def games_stored(self) -> int:
        return sum(b - a for chunks in self.stored.values() for a, b in chunks)

    def _write(self, error: str | None = None) -> None:
        """The manifest written; if it cannot be, why the run stops (`error`, else the fault)
        goes to the lock file, which the next run reads."""
        self.manifest["chunks"] = chunk_list(self.stored, self.seconds, self.records)
        try:
            _still_there(self.root, "the manifest")
            write_manifest(self.root, self.manifest)
        except Fault as fault:
            self.lock.record_stop({"status": self.entry["status"], "at": now(),
                                   "error": error or fault.happened})  # fmt: skip
            raise
        self.lock.record_stop(None)  # the manifest says it now


def _store(root: Path, result: ChunkResult) -> dict[str, Any]:
    """Write the chunk's parts; their records (rows, bytes, sha256) for the manifest."""
    _still_there(root, "a results part")
    # seats first: a chunk counts as done once its games part exists (and seats too)
    seats = part_path(root, "seats", result.arm_index, result.start, result.stop)
    write_atomic(seats, result.seats, what="a results part")
    games = part_path(root, "games", result.arm_index, result.start, result.stop)
    write_atomic(games, result.games, what="a results part")
    return {"games": record(result.games), "seats": record(result.seats)}


def _still_there(root: Path, what: str) -> None:
    """A results folder removed under the run is a fault, not made again (as writing a file
    into it would: it would then hold a manifest of games it has not)."""
    if not root.is_dir():
        with writing(what, root):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(root))


def kept_games(root: Path, targets: dict[int, int]) -> str:
    """What a stopped run keeps, read from the disk (whatever the ledger believes): "45,000 of
    200,000 games stored" (the stored chunks below each arm's target)."""
    if not root.is_dir():
        return f"0 of {sum(targets.values()):,} games stored"
    stored = sum(min(b, targets[arm]) - a for arm, chunks in complete_chunks(root).items()
                 if arm in targets for a, b in chunks if a < targets[arm])  # fmt: skip
    return f"{stored:,} of {sum(targets.values()):,} games stored"
