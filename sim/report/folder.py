"""The report folder: where a report goes by default, and writing only the files it owns.

A report writes index.html, report.md, tables/*.csv and figures/*.png, and lists them in
`.report-files` (before writing them with the earlier build's files too, so that a build
stopped half-way leaves a folder the next one knows; then its own alone). Rebuilding a report
overwrites those files and deletes the ones the earlier build listed and this one no longer
makes; anything else in the folder (a user's own CSV in tables/) is left alone. A folder that
holds files but is not a report is refused. Each file is written whole or not at all.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from sim.errors import SimError
from sim.faults import keeping, writing
from sim.paths import check_folder
from sim.storage import write_atomic
from sim.storage.parts import remove_leftovers

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
    """Write `files` (relative path -> content) into `out`, as described above: each file
    whole or not at all (a full disk leaves no cut page or figure behind)."""
    check(out, key=key)
    with keeping(lambda: "what the report is built from, untouched (a report only reads)"):
        with writing("the report", out, verb="create the folder of"):
            out.mkdir(parents=True, exist_ok=True)  # checked above: a refusal now is a fault
        before = _owned(out, key)
        remove_leftovers(out, [*before, *files, OWNED])
        # listed first, with what an earlier build wrote: a build the disk stops half-way
        # leaves a folder the next one knows as a report, and rewrites
        _list(out, before | set(files))
        for rel, content in files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            write_atomic(out / rel, data, what="the report")
        for rel in sorted(before - set(files)):
            with writing("a file of the earlier report", out / rel, verb="delete"):
                (out / rel).unlink(missing_ok=True)
        _list(out, set(files))


def _list(out: Path, files: set[str]) -> None:
    listed = "".join(f"{rel}\n" for rel in sorted(files)).encode("utf-8")
    write_atomic(out / OWNED, listed, what="the report")


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
