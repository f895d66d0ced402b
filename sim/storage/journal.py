"""The manifest's journal: one JSON line appended per chunk stored (its parts' records, its
seconds, the illegal moves it met), so that recording a chunk costs the same at the first
chunk as at the ten-thousandth. The manifest is written whole when a run starts and ends;
in between, the journal says what was stored since.

Reading a manifest folds its journal in (`fold`): a chunk the manifest lists already is
skipped (the journal of a run whose manifest was written at its end but whose journal could
not be removed then), so nothing is counted twice. A line cut short (a kill -9 mid-append) or
damaged is skipped: its chunk's parts are on disk, and are checked as parts without a record
(their Parquet footer must open and hold the chunk's rows). A run folds the journal into the
manifest it writes at its start, then removes it, so that what it appends never follows a
line cut short."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from sim.faults import writing

JOURNAL = "manifest.journal"
WHAT = "the manifest's journal"
MAX_ERROR_EXAMPLES = 20  # the illegal moves the manifest quotes
_KEY = ("arm", "start", "stop")


def journal_path(root: str | Path) -> Path:
    return Path(root) / JOURNAL


def append(root: str | Path, entry: dict[str, Any]) -> None:
    """Add one chunk's line. A write the disk refuses is cut back to where the journal ended
    (half a line would damage the next) and raised as a WriteFault."""
    path = journal_path(root)
    line = (json.dumps(entry, separators=(",", ":")) + "\n").encode("utf-8")
    with writing(WHAT, path):
        size = path.stat().st_size if path.exists() else 0
        try:
            with open(path, "ab") as f:
                f.write(line)
        except BaseException:
            with contextlib.suppress(OSError):
                os.truncate(path, size)
            raise


def remove(root: str | Path) -> None:
    """The journal gone once the manifest holds what it said. One that cannot be deleted
    (a folder gone read-only) is left: folding it again adds nothing the manifest lists."""
    with contextlib.suppress(OSError):
        journal_path(root).unlink(missing_ok=True)


def entries(root: str | Path) -> dict[tuple[int, int, int], dict[str, Any]]:
    """(arm, start, stop) -> the journal's line for that chunk (the last, if written twice);
    lines that do not read as a chunk's are skipped (see the module docstring)."""
    path = journal_path(root)
    try:
        text = path.read_bytes()
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        try:
            entry = json.loads(line)
            key = tuple(int(entry[k]) for k in _KEY)
        except (ValueError, TypeError, KeyError):
            continue
        if isinstance(entry, dict):
            out[key] = entry
    return out


def fold(root: str | Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """`manifest` with the chunks its journal adds (in place; returned)."""
    found = entries(root)
    if not found:
        return manifest
    chunks = manifest.setdefault("chunks", [])
    listed = {_key(c) for c in chunks if isinstance(c, dict)}
    new = [(key, entry) for key, entry in found.items() if key not in listed]
    if not new:
        return manifest
    illegal = manifest.setdefault("illegal_moves", {"count": 0, "examples": []})
    for key, entry in new:
        chunks.append(chunk_entry(key, entry))
        add_illegal(illegal, int(entry.get("illegal") or 0), list(entry.get("examples") or []))
    chunks.sort(key=lambda c: _key(c) or (-1, -1, -1))
    return manifest


def chunk_entry(key: tuple[int, int, int], entry: dict[str, Any]) -> dict[str, Any]:
    """The manifest's entry of a chunk, as sim.runner.manifest.chunk_list writes it."""
    arm, start, stop = key
    records = {t: entry[t] for t in ("games", "seats") if isinstance(entry.get(t), dict)}
    return {"arm": arm, "start": start, "stop": stop,
            "seconds": round(float(entry.get("seconds") or 0.0), 4), **records}  # fmt: skip


def add_illegal(illegal: dict[str, Any], count: int, examples: list[str]) -> list[str]:
    """Count a chunk's illegal moves into the manifest's `illegal_moves`, quoting examples
    while there is room; the ones quoted."""
    illegal["count"] = int(illegal.get("count") or 0) + count
    quoted = illegal.setdefault("examples", [])
    room = max(MAX_ERROR_EXAMPLES - len(quoted), 0)
    quoted.extend(examples[:room])
    return examples[:room]


def _key(chunk: dict[str, Any]) -> tuple[int, int, int] | None:
    try:
        return tuple(int(chunk[k]) for k in _KEY)  # type: ignore[return-value]
    except (KeyError, TypeError, ValueError):
        return None
