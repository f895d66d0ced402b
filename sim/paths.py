"""Folders and files the commands write (--out, --report-dir, --html): checked before any work,
so a mistake is one line naming the path and the option, never a traceback after a long run."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from sim.errors import SimError
from sim.faults import reason_of, writing


def given(path: str | os.PathLike[str], *, key: str) -> Path:
    """`path` as a Path; an empty one is refused (it would mean the current folder)."""
    if not str(path).strip():
        raise SimError(
            "an empty path",
            key=key,
            hint=f"Give a folder, e.g. {key} results/try, or leave {key} out for the default.",
        )
    return Path(path)


def check_folder(path: str | os.PathLike[str], *, key: str) -> Path:
    """Refuse a folder path that cannot be one: empty, a file, or under a file."""
    folder = given(path, key=key)
    if folder.exists() and not folder.is_dir():
        raise SimError("exists and is not a folder", file=folder, key=key,
                       hint=f"Choose a folder with {key}.")  # fmt: skip
    above = next((p for p in folder.parents if p.exists()), None)
    if above is not None and not above.is_dir():
        raise SimError(f"cannot create the folder: {above} is a file, not a folder",
                       file=folder, key=key, hint=f"Choose a folder with {key}.")  # fmt: skip
    nearest = folder if folder.is_dir() else above
    if nearest is not None:
        _probe(nearest, folder, key=key)
    return folder


def _probe(folder: Path, path: Path, *, key: str) -> None:
    """Create and delete a file in `folder`: the only sure test that we may write there (the
    permission bits say yes to root in a read-only file system or /sys)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        hint = f"Give {key} a path in a folder you can write to."
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            hint = f"{reason_of(exc)[1]}, or give {key} a folder on another disk."
        raise SimError(f"cannot write in {folder}: {why(folder, exc)}", file=path, key=key,
                       hint=hint) from None  # fmt: skip


def make_folder(path: str | os.PathLike[str], *, key: str, what: str) -> Path:
    """Create the folder `path` (and its parents): refused as `check_folder` refuses (exit 2),
    and a creation the disk then refuses is a fault naming `what` (sim.faults)."""
    folder = check_folder(path, key=key)
    with writing(what, folder, verb="create"):
        folder.mkdir(parents=True, exist_ok=True)
    return folder


def check_file_target(path: str | os.PathLike[str], *, key: str) -> Path:
    """A file about to be written: its folder must exist and `path` must not be a folder."""
    target = given(path, key=key)
    folder = target.parent
    if target.is_dir():
        raise SimError(
            "is a folder", file=target, key=key, hint=f"Give a file name, e.g. {key} game.html."
        )
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise SimError(
            f"its folder {folder} {what}",
            file=target,
            key=key,
            hint=f"Create the folder first, or give {key} a path in an existing folder.",
        )
    _probe(folder, target, key=key)
    return target


def why(path: Path, exc: OSError) -> str:
    """The reason of an OSError in words, naming a file that stands where a folder should."""
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        for parent in [path, *path.parents]:
            if parent.exists() and not parent.is_dir():
                return f"{parent} is a file, not a folder"
    return reason_of(exc)[0]  # the lab's words for a full disk, a read-only one, ...
