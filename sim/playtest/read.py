"""`read_records(FILE, game)`: a playtest record file in any format the lab reads, by its
suffix (.csv the lab's CSV, .json a BG Stats export, .xml BoardGameGeek's plays) or as named.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sim.errors import SimError
from sim.playtest.records import Records

FORMATS = {
    "csv": "the lab's CSV",
    "bgstats": "a BG Stats JSON export",
    "bgg": "BoardGameGeek's plays XML",
}
_SUFFIXES = {".csv": "csv", ".json": "bgstats", ".xml": "bgg"}


def read_records(
    path: str | os.PathLike[str], game: Any, *, fmt: str | None = None, name: str | None = None
) -> Records:
    """The records of `path` for `game` (a plug-in or its name); `fmt` one of FORMATS (default:
    by the suffix); `name`: the game's name in an app's export (default: the game's title)."""
    from sim.playtest.apps import read_bgg, read_bgstats
    from sim.playtest.lab_csv import read_csv
    from sim.plugins import get_game

    plugin = get_game(game, source="--game") if isinstance(game, str) else game
    file = Path(path)
    kind = fmt or _SUFFIXES.get(file.suffix.lower(), "csv")
    if kind not in FORMATS:
        raise SimError(
            f"unknown record format '{kind}'",
            key="--format",
            hint=f"Formats: {', '.join(FORMATS)}.",
        )
    if kind == "csv":
        if name:
            raise SimError(
                "--name chooses a game in an app's export; a lab CSV holds one game",
                key="--name",
                hint="Leave --name out.",
            )
        return read_csv(file, plugin)
    reader = read_bgstats if kind == "bgstats" else read_bgg
    return reader(file, plugin, name)
