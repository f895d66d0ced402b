"""`--fresh`: delete what `sim run` wrote in a folder, and nothing else.

Only a folder with a manifest.json that `sim run` wrote is cleared, and only of the files named
as the runner names them (games|seats/arm-NNN/part-<start>-<stop>.parquet, their temporary
files, manifest.json and its journal), plus the folders that leaves empty. A `games/` folder
of anything else (`--out sim` on a checkout of this project has `sim/games/`) is refused,
untouched.
"""

from __future__ import annotations

from pathlib import Path

from sim.errors import SimError
from sim.faults import writing
from sim.storage.journal import journal_path
from sim.storage.manifest import read_manifest
from sim.storage.parts import MANIFEST, TABLES, stored_parts, temporary_files


def remove_results(root: str | Path) -> int:
    """Delete the runner's files in `root`; returns how many. Raises SimError (deleting
    nothing) when `root` holds games/ or seats/ but no manifest.json of the lab."""
    root = Path(root)
    if not (root / MANIFEST).exists():
        if any(_has_content(root / table) for table in TABLES):
            raise SimError(
                "holds games/ or seats/ but no manifest.json: it is not a results folder "
                "written by `sim run`, so nothing is deleted",
                file=root,
                hint="Choose another --out for the results (the lab never deletes files it "
                "did not write).",
            )
        return 0
    read_manifest(root)  # refuses a manifest.json the lab did not write
    files = [*temporary_files(root), *stored_parts(root)]
    with writing("the stored results (--fresh)", root, verb="delete"):
        for path in files:
            path.unlink(missing_ok=True)
        for table in TABLES:
            base = root / table
            if base.is_dir():
                for arm in base.iterdir():
                    _remove_if_empty(arm)
                _remove_if_empty(base)
        journal_path(root).unlink(missing_ok=True)
        (root / MANIFEST).unlink(missing_ok=True)
    return len(files) + 1


def _has_content(folder: Path) -> bool:
    return folder.is_dir() and any(folder.iterdir())


def _remove_if_empty(folder: Path) -> None:
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
