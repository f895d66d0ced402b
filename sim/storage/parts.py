"""Parquet part files: naming, encoding, atomic writes and finding the completed chunks."""

from __future__ import annotations

import contextlib
import glob
import io
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.faults import writing

TABLES = ("games", "seats")
MANIFEST = "manifest.json"
_PART_RE = re.compile(r"^part-(\d{10})-(\d{10})\.parquet$")
_ARM_RE = re.compile(r"^arm-(\d{3,})$")
_TMP_RE = re.compile(r"^\.part-.*\.tmp$")  # write_atomic's temporary names
COMPRESSION = "zstd"
# games per arm a run may ask for: part names hold 10-digit game indices, and a billion games
# (some hours on a workstation) is far beyond what any question here needs
MAX_GAMES = 1_000_000_000


def arm_dir(arm_index: int) -> str:
    return f"arm-{arm_index:03d}"


def part_path(root: str | Path, table: str, arm_index: int, start: int, stop: int) -> Path:
    return Path(root) / table / arm_dir(arm_index) / f"part-{start:010d}-{stop:010d}.parquet"


def encode(columns: Mapping[str, Any]) -> bytes:
    """A Parquet file (zstd, one row group) of equal-length columns, as bytes.

    numpy object arrays are written as strings; everything else keeps its dtype.
    """
    arrays = {}
    for name, values in columns.items():
        if isinstance(values, pa.Array):
            arrays[name] = values
        elif isinstance(values, np.ndarray) and values.dtype == object:
            arrays[name] = pa.array(values, type=pa.string())
        else:
            arrays[name] = pa.array(values)
    buffer = io.BytesIO()
    pq.write_table(pa.table(arrays), buffer, compression=COMPRESSION, row_group_size=1 << 24)
    return buffer.getvalue()


def write_atomic(path: str | Path, data: bytes, *, what: str) -> None:
    """Write to a hidden temporary file in the same folder, then rename it into place: the
    file is whole or absent. An OSError (a full disk, a folder gone read-only) is a WriteFault
    naming `what` and `path`; the temporary file goes first, giving a full disk its space back
    (for the manifest, written next)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # as `leftovers` finds them
    with writing(what, path):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise


def _parts(root: Path, table: str) -> dict[tuple[int, int, int], Path]:
    found: dict[tuple[int, int, int], Path] = {}
    base = root / table
    if not base.is_dir():
        return found
    for arm in base.iterdir():
        m = _ARM_RE.match(arm.name)
        if not m or not arm.is_dir():
            continue
        for part in arm.iterdir():
            p = _PART_RE.match(part.name)
            if p:
                found[(int(m.group(1)), int(p.group(1)), int(p.group(2)))] = part
    return found


def complete_chunks(root: str | Path) -> dict[int, list[tuple[int, int]]]:
    """arm index -> sorted [(start, stop), ...] of chunks whose games and seats parts exist."""
    root = Path(root)
    games, seats = _parts(root, "games"), _parts(root, "seats")
    out: dict[int, list[tuple[int, int]]] = {}
    for arm, start, stop in sorted(set(games) & set(seats)):
        out.setdefault(arm, []).append((start, stop))
    return out


def part_files(root: str | Path, table: str, arms: Iterable[int] | None = None) -> list[Path]:
    """The completed parts of `table`, in (arm, start) order, optionally for some arms only."""
    if table not in TABLES:
        raise ValueError(f"table must be one of {TABLES}, got {table!r}")
    wanted = set(arms) if arms is not None else None
    root = Path(root)
    done = complete_chunks(root)
    return [
        part_path(root, table, arm, start, stop)
        for arm, chunks in sorted(done.items())
        if wanted is None or arm in wanted
        for start, stop in chunks
    ]


def cleanup(root: str | Path) -> int:
    """Remove temporary files and half-written chunks (one table's part without the other).

    Returns the number of files removed.
    """
    root = Path(root)
    removed = 0
    with writing("the temporary files and half-stored parts a stopped run left", root,
                 verb="delete"):  # fmt: skip
        for tmp in temporary_files(root):
            tmp.unlink(missing_ok=True)
            removed += 1
        games, seats = _parts(root, "games"), _parts(root, "seats")
        for key in set(games) ^ set(seats):
            (games.get(key) or seats[key]).unlink(missing_ok=True)
            removed += 1
    return removed


def leftovers(folder: str | Path, names: Iterable[str]) -> list[Path]:
    """The temporary files write_atomic left of `names` (paths relative to `folder`): a
    write stopped by a kill or refused by a disk that then refused their deletion too."""
    out = []
    for name in names:
        target = Path(folder) / name
        if target.parent.is_dir():
            out += [p for p in target.parent.glob(f".{glob.escape(target.name)}.*.tmp")
                    if p.name[len(target.name) + 2 : -4].isdigit()]  # fmt: skip
    return out


def remove_leftovers(folder: str | Path, names: Iterable[str]) -> None:
    """Delete what `leftovers` finds (a report's or a tune's folder, before it is written)."""
    with writing("the temporary files a stopped write left", folder, verb="delete"):
        for path in leftovers(folder, names):
            path.unlink(missing_ok=True)


def temporary_files(root: str | Path) -> list[Path]:
    """write_atomic's leftovers in a results folder (a run stopped mid-write): of the manifest
    and in the arm folders."""
    out = leftovers(root, [MANIFEST])
    for table in TABLES:
        base = Path(root) / table
        if base.is_dir():
            for arm in base.iterdir():
                if _ARM_RE.match(arm.name) and arm.is_dir():
                    out += [f for f in arm.iterdir() if _TMP_RE.match(f.name)]
    return out


def stored_parts(root: str | Path) -> list[Path]:
    """Every part file named as the runner names it, complete chunk or not."""
    root = Path(root)
    return [path for table in TABLES for path in _parts(root, table).values()]
