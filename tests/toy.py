"""The toy coin race (examples/coin_race, the walk-through of docs/adding-a-game.md) installed
as pip would install it: its package on the path and its distribution's metadata declaring
the entry point, in a folder of its own. For a new process (`environment`) or for this one
(`installed_here`), so that the plug-in boundary the toy crosses stays real."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "examples" / "coin_race"
NAME = "coin-race"


def site(folder: Path) -> Path:
    """Write the toy's distribution metadata (its entry point) into `folder`."""
    info = folder / "coin_race-0.1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: coin-race\nVersion: 0.1.0\n")
    line = next(line for line in (TOY / "pyproject.toml").read_text().splitlines()
                if line.startswith(f"{NAME} ="))  # fmt: skip
    target = line.split("=", 1)[1].strip().strip('"')
    (info / "entry_points.txt").write_text(f"[sim.games]\n{NAME} = {target}\n")
    return folder


def environment(folder: Path) -> dict[str, str]:
    """The environment of a new process in which the toy is installed."""
    path = os.pathsep.join([str(site(folder)), str(TOY), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path)


@contextmanager
def installed_here(folder: Path) -> Iterator[None]:
    """The toy installed in this process, while the block runs."""
    from sim import games

    added = [str(site(folder)), str(TOY)]
    sys.path[:0] = added
    try:
        yield
    finally:
        for entry in added:
            sys.path.remove(entry)
        games._GAMES.pop(NAME, None)
