"""The report folder: where a report goes by default, and writing only the files it owns.

A report writes index.html, report.md, tables/*.csv and figures/*.png, and lists them in
`.report-files`. Rebuilding a report overwrites those files and deletes the ones the earlier
build listed and this one no longer makes; anything else in the folder (a user's own CSV in
tables/) is left alone. A folder that holds files but is not a report is refused.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from sim.errors import SimError
from sim.paths import cannot_write, check_folder, make_folder

OWNED = ".report-files"  # the files the last build wrote, one relative path a line
_LEGACY_TITLE = "balance report"  # in index.html of reports built before OWNED existed


def default_dir(results_dir: str | Path, name: str) -> Path:
    """reports/<name> for the default results folder results/<name>; otherwise the folder
    `report` inside the results folder, so a report stays beside its results."""
    results = Path(results_dir)
    if results.resolve() == (Path("results") / name).resolve():
        return Path("reports") / name
    return results / "report"


def check(out: str | Path, *, key: str) -> Path:
    """Refuse a report folder that cannot be one or holds files that are not a report
    (before a run, so a mistake costs nothing)."""
    folder = check_folder(out, key=key)
    if folder.is_dir():
        _owned(folder, key)
    return folder


def write(out: Path, files: Mapping[str, str | bytes], *, key: str) -> None:
    """Write `files` (relative path -> content) into `out`, as described above."""
    check(out, key=key)
    make_folder(out, key=key)
    before = _owned(out, key)
    try:
        for rel, content in files.items():
            path = out / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            data = content.encode("utf-8") if isinstance(content, str) else content
            path.write_bytes(data)
        for rel in sorted(before - set(files)):
            (out / rel).unlink(missing_ok=True)
        (out / OWNED).write_text("".join(f"{rel}\n" for rel in sorted(files)), encoding="utf-8")
    except OSError as exc:
        raise cannot_write(out, exc, key=key) from None


def _owned(folder: Path, key: str) -> set[str]:
    """The files an earlier build wrote (empty for a new folder); SimError if the folder
    holds files but is not a report."""
    listed = folder / OWNED
    if listed.is_file():
        rels = listed.read_text(encoding="utf-8").splitlines()
        return {r for r in rels if r and not os.path.isabs(r) and ".." not in Path(r).parts}
    if not any(folder.iterdir()) or _legacy_report(folder):
        return set()
    raise SimError(
        "holds files that are not a report (no .report-files)",
        file=folder,
        key=key,
        hint=f"Give {key} a new or empty folder, or the folder of an earlier report "
        "(a report never deletes files it did not write).",
    )


def _legacy_report(folder: Path) -> bool:
    index = folder / "index.html"
    if not (index.is_file() and (folder / "report.md").is_file()):
        return False
    try:
        head = index.read_text(encoding="utf-8", errors="replace")[:4000]
    except OSError:
        return False
    return _LEGACY_TITLE in head
