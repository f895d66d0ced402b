"""Where user strategies (`package.module:Name`) are imported from.

Besides the installed packages and PYTHONPATH, the experiment file's folder and the current
folder are searched, so `mybots.py` next to an experiment file, or in the folder `sim` runs
in, works without setting PYTHONPATH (docs/strategies.md). They are added at the end of
sys.path: a user's file never hides an installed module of the same name. Workers get the
same folders with each task.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path


def user_paths(experiment_file: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """The experiment file's folder (if it is a file), then the current folder."""
    out = []
    if experiment_file is not None and Path(experiment_file).is_file():
        out.append(str(Path(experiment_file).resolve().parent))
    out.append(os.getcwd())
    return tuple(dict.fromkeys(out))


def ensure(paths: Iterable[str]) -> None:
    """Append the folders to sys.path (once each)."""
    for path in paths:
        if path not in sys.path:
            sys.path.append(path)
