"""Where user strategies (`package.module:Name`) are imported from.

Besides the installed packages and PYTHONPATH, the experiment file's folder and the current
folder are searched, so `mybots.py` next to an experiment file, or in the folder `sim` runs
in, works without setting PYTHONPATH (docs/games/guardians/strategies.md). The folders are put at
the end of
sys.path only while a user's module is imported (`searching`): left there, a folder holding
something named like a package of this project (a `sim/` folder in the current folder) could
hide it from a worker process that imports the project afresh. Worker processes learn the
experiment's folder from each task (`register`).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from sim.errors import ConfigError

_REGISTERED: list[str] = []  # experiment folders of the tasks this process has played


def register(paths: Iterable[str]) -> None:
    """Remember folders to search for user modules in this process (a worker's tasks)."""
    for path in paths:
        if path not in _REGISTERED:
            _REGISTERED.append(path)


def user_paths(experiment_file: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """The experiment file's folder (if it is a file), folders registered in this process,
    then the current folder."""
    out = []
    if experiment_file is not None and Path(experiment_file).is_file():
        out.append(str(Path(experiment_file).resolve().parent))
    out += _REGISTERED
    out.append(os.getcwd())
    return tuple(dict.fromkeys(out))


@contextmanager
def searching(paths: Iterable[str]) -> Iterator[None]:
    """The folders at the end of sys.path for the duration of the block (a user's import)."""
    added = [path for path in dict.fromkeys(paths) if path not in sys.path]
    sys.path.extend(added)
    try:
        yield
    finally:
        for path in added:
            if path in sys.path:
                sys.path.remove(path)


def import_module(module_name: str, *, source: str | None) -> ModuleType:
    """The module, or a ConfigError saying why it cannot be imported (missing, a syntax
    error, or an exception while it runs)."""
    try:
        return importlib.import_module(module_name)
    except ImportError as err:
        raise ConfigError(
            f"cannot import strategy module {module_name!r} ({err})",
            file=source,
            key="strategy",
            hint="Check the name; modules are found in the experiment file's folder, the "
            "current folder, PYTHONPATH and the installed packages.",
        ) from None
    except SyntaxError as err:
        where = f"{err.filename}:{err.lineno}" if err.filename else "its source"
        raise ConfigError(
            f"strategy module {module_name!r} has a syntax error at {where}: {err.msg}",
            file=source,
            key="strategy",
            hint="Fix the module, then run again.",
        ) from None
    except Exception as err:  # noqa: BLE001 - the user's module runs arbitrary code on import
        raise ConfigError(
            f"importing strategy module {module_name!r} raised {type(err).__name__}: {err}",
            file=source,
            key="strategy",
            hint="Fix the module so that importing it runs without an error.",
        ) from None
