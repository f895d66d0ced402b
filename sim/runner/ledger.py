"""A run's account: every chunk's parts stored, and the manifest kept up to date as they come
(the chunks stored with their records and seconds, this run's entry, the illegal moves), so
that a run killed at any moment leaves a folder that says what it holds."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sim.experiment.model import Experiment
from sim.runner.folder import Opened
from sim.runner.illegal import IllegalMoves
from sim.runner.manifest import chunk_list, new_manifest, now, previous_seconds
from sim.runner.tasks import ChunkResult
from sim.storage import complete_chunks, part_path, read_manifest, write_atomic, write_manifest
from sim.storage.verify import games_done, record

MAX_ERROR_EXAMPLES = 20


class Ledger:
    """The stored chunks of a run's folder and its manifest, written at the start, after
    every chunk and at the end (`close`)."""

    def __init__(self, exp: Experiment, opened: Opened, *, jobs: int, backend: str,
                 address: str | None, chunk_size: int) -> None:  # fmt: skip
        self.root = opened.root
        self.records = dict(opened.records)
        self.seconds = previous_seconds(read_manifest(self.root))
        self.manifest = new_manifest(exp, self.root)
        self.began = time.perf_counter()
        self.entry = {"started": now(), "jobs": jobs, "backend": backend, "address": address,
                      "chunk_size": chunk_size, "status": "running"}  # fmt: skip
        self.manifest["runs"].append(self.entry)
        self.stored = complete_chunks(self.root)
        self.played = self.chunks = 0
        self.illegal = IllegalMoves(exp.arms)
        self._arm_names = [arm.name for arm in exp.arms]
        self._write()

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
        if result.errors:
            self._note_errors(result.errors, self._arm_names[result.arm_index])
        self._write()
        self.illegal.add(result.arm_index, result.start, result.stop, result.illegal,
                         result.errors)  # fmt: skip
        self.illegal.check(self.root)

    def note_stop(self, found: dict[str, dict[str, Any]]) -> None:
        """What the stop rule found (kept as the manifest's `precision_result`)."""
        self.manifest["precision_result"] = found

    def close(self, status: str, targets: dict[int, int]) -> None:
        """The run's end: `complete`, `interrupted` or `failed` (an error on the way)."""
        self.entry["status"] = status if status == "interrupted" else "failed"
        self.entry["finished"] = now()
        self.entry["wall_seconds"] = round(time.perf_counter() - self.began, 3)
        self.entry["games_played"] = self.played
        for arm in self.manifest["arms"]:
            arm["games"] = self.done(arm["index"])
            arm["target"] = targets[arm["index"]]
        self.manifest["status"] = self.entry["status"]
        self._write()

    def completed(self) -> None:
        """The run played every game it had to: said once everything else is written."""
        self.entry["status"] = self.manifest["status"] = "complete"
        write_manifest(self.root, self.manifest)

    @property
    def games_stored(self) -> int:
        return sum(b - a for chunks in self.stored.values() for a, b in chunks)

    def _write(self) -> None:
        self.manifest["chunks"] = chunk_list(self.stored, self.seconds, self.records)
        write_manifest(self.root, self.manifest)

    def _note_errors(self, errors: list[str], arm: str) -> None:
        entry = self.manifest["illegal_moves"]
        entry["count"] += len(errors)
        room = MAX_ERROR_EXAMPLES - len(entry["examples"])
        entry["examples"].extend(f"arm '{arm}', {e}" for e in errors[: max(room, 0)])


def _store(root: Path, result: ChunkResult) -> dict[str, Any]:
    """Write the chunk's parts; their records (rows, bytes, sha256) for the manifest."""
    # seats first: a chunk counts as done once its games part exists (and seats too)
    seats = part_path(root, "seats", result.arm_index, result.start, result.stop)
    write_atomic(seats, result.seats)
    write_atomic(
        part_path(root, "games", result.arm_index, result.start, result.stop), result.games
    )
    return {"games": record(result.games), "seats": record(result.seats)}
