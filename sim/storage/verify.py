"""Trusting a results folder: each part's record (rows, bytes, sha256) taken when it was written,
the check of the stored parts against those records, and how complete the folder is.

A chunk whose part no longer matches its record (truncated, overwritten, damaged on disk) is
*damaged*: `sim run` deletes that chunk's two parts and plays exactly its games again, and a
report refuses to read the folder until then. Parts written before records were kept (or whose
record was lost with a kill -9 between the part and the manifest) are checked by reading their
Parquet footer: it must open and hold the chunk's number of rows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from sim.errors import SimError
from sim.storage.parts import TABLES, complete_chunks, part_path

Key = tuple[int, int, int]  # (arm index, start, stop)


def record(data: bytes) -> dict[str, Any]:
    """What is kept in the manifest of one part, from the bytes written."""
    rows = pq.read_metadata(pa.BufferReader(data)).num_rows
    return {"rows": int(rows), "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def records_of(manifest: Mapping[str, Any] | None) -> dict[Key, dict[str, Any]]:
    """(arm, start, stop) -> {"games": record, "seats": record} from the manifest's chunks."""
    out: dict[Key, dict[str, Any]] = {}
    for chunk in (manifest or {}).get("chunks") or []:
        if not isinstance(chunk, Mapping):
            continue
        try:
            key = (int(chunk["arm"]), int(chunk["start"]), int(chunk["stop"]))
        except (KeyError, TypeError, ValueError):
            continue
        found = {t: chunk[t] for t in TABLES if isinstance(chunk.get(t), Mapping)}
        if found:
            out[key] = found
    return out


@dataclass(frozen=True)
class Damage:
    """A stored part that cannot be trusted, and why."""

    arm: int
    start: int
    stop: int
    path: Path
    reason: str

    def describe(self, root: str | Path) -> str:
        try:
            shown = self.path.relative_to(root)
        except ValueError:
            shown = self.path
        return f"{shown} ({self.reason})"


def damaged_parts(
    root: str | Path,
    records: Mapping[Key, Mapping[str, Any]],
    players: Mapping[int, int],
    chunks: Mapping[int, list[tuple[int, int]]] | None = None,
) -> list[Damage]:
    """Every stored part that does not match its record (or, without one, whose Parquet
    footer does not open or does not hold the chunk's rows: one per game, `players` per game
    in seats). `players` maps arm index -> players (unknown arms skip the row count)."""
    root = Path(root)
    chunks = complete_chunks(root) if chunks is None else chunks
    out = []
    for arm, ranges in sorted(chunks.items()):
        for start, stop in ranges:
            for table in TABLES:
                path = part_path(root, table, arm, start, stop)
                expected = _rows(table, stop - start, players.get(arm))
                kept = records.get((arm, start, stop), {}).get(table)
                reason = _check(path, kept, expected)
                if reason:
                    out.append(Damage(arm, start, stop, path, reason))
    return out


def refuse_damaged(root: str | Path, manifest: Mapping[str, Any]) -> None:
    """Refuse a folder with a damaged part (checked against the records kept when the parts
    were written), naming it: what reads the stored games (a report, `sim.results.load`)
    calls this first."""
    players = {}
    for i, arm in enumerate(manifest.get("arms") or []):
        if isinstance(arm, Mapping):
            players[int(arm.get("index", i))] = int(arm.get("players") or 0)
    damaged = damaged_parts(root, records_of(manifest), players)
    if damaged:
        more = f" (and {len(damaged) - 1} more)" if len(damaged) > 1 else ""
        raise SimError(
            f"damaged part {damaged[0].describe(root)}{more}",
            file=root,
            hint="Run the same `sim run` on this folder again: it plays exactly the games of "
            "the damaged parts again; then read it.",
        )


def _rows(table: str, games: int, players: int | None) -> int | None:
    if table == "games":
        return games
    return games * players if players else None


def _check(path: Path, kept: Mapping[str, Any] | None, rows: int | None) -> str | None:
    if kept is not None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            return f"cannot be read: {exc.strerror}"
        if len(data) != kept.get("bytes") or hashlib.sha256(data).hexdigest() != kept.get("sha256"):
            return (
                f"{len(data):,} bytes whose checksum differs from the one recorded when it "
                f"was written ({kept.get('bytes', '?'):,} bytes)"
            )
        return None
    try:
        found = pq.read_metadata(path).num_rows
    except (OSError, pa.ArrowException) as exc:
        return f"not a readable Parquet file: {str(exc).splitlines()[0]}"
    if rows is not None and found != rows:
        return f"holds {found:,} rows, expected {rows:,}"
    return None


# --- how complete a folder is -----------------------------------------------------------------


def missing_ranges(done: Iterable[tuple[int, int]], target: int) -> list[tuple[int, int]]:
    """The parts of [0, target) not covered by the done ranges."""
    gaps, at = [], 0
    for start, stop in sorted(done):
        if start > at:
            gaps.append((at, min(start, target)))
        at = max(at, stop)
        if at >= target:
            break
    if at < target:
        gaps.append((at, target))
    return [(a, b) for a, b in gaps if b > a]


def games_done(done: Iterable[tuple[int, int]]) -> int:
    """How many games from 0 on are stored without a gap."""
    at = 0
    for start, stop in sorted(done):
        if start > at:
            break
        at = max(at, stop)
    return at


@dataclass(frozen=True)
class ArmProgress:
    index: int
    name: str
    stored: int  # games stored, gaps or not
    target: int  # games the run aimed at
    missing: tuple[tuple[int, int], ...]  # game ranges [a, b) missing below the target

    @property
    def complete(self) -> bool:
        return not self.missing


def progress(root: str | Path, manifest: Mapping[str, Any]) -> list[ArmProgress]:
    """Per arm of the manifest: games stored, the target and the ranges still missing."""
    chunks = complete_chunks(root)
    default = _int(manifest.get("games_per_arm"))
    out = []
    for i, arm in enumerate(manifest.get("arms") or []):
        if not isinstance(arm, Mapping):
            continue
        index = _int(arm.get("index", i))
        done = chunks.get(index, [])
        target = max(_int(arm.get("target")), default)
        top = max([target, *(b for _, b in done)])
        out.append(
            ArmProgress(
                index=index,
                name=str(arm.get("name", f"arm {index}")),
                stored=sum(b - a for a, b in done),
                target=target,
                missing=tuple(missing_ranges(done, top)),
            )
        )
    return out


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def incomplete_note(
    root: str | Path, manifest: Mapping[str, Any], holder: Mapping[str, Any] | None
) -> str | None:
    """One sentence on why and how far a folder is incomplete, or None when it is complete.

    `holder` is the live process holding the folder's lock (sim.storage.lock.holder)."""
    arms = progress(root, manifest)
    status = manifest.get("status")
    short = [a for a in arms if not a.complete]
    if status == "complete" and not short:
        return None
    why = {
        "interrupted": "the run was interrupted",
        "failed": "the run failed",
        "complete": "parts are missing",
    }.get(str(status), "the run stopped without closing its manifest (killed, or its folder "
          "could not be written)")  # fmt: skip
    if status == "running" and holder:
        why = f"a run is still writing it (process {holder.get('pid', '?')})"
    runs = manifest.get("runs") or [{}]
    if status == "failed" and isinstance(runs[-1], Mapping) and runs[-1].get("error"):
        why = f"the run stopped ({runs[-1]['error']})"
    stored = sum(a.stored for a in arms)
    wanted = sum(max(a.target, a.stored) for a in arms)
    text = f"{why}: {stored:,} of {wanted:,} games stored"
    details = [_arm_text(a) for a in short]
    if details:
        text += "; " + "; ".join(details[:4]) + ("; ..." if len(details) > 4 else "")
    return text


def _arm_text(arm: ArmProgress) -> str:
    gaps = ", ".join(f"{a:,}-{b - 1:,}" for a, b in arm.missing[:3])
    more = ", ..." if len(arm.missing) > 3 else ""
    return f"arm '{arm.name}' {arm.stored:,} of {arm.target:,} (games {gaps}{more} missing)"
