"""The coin race (examples/coin_race), the toy game the runner's, the tune's and the faults'
tests play in this process: registered for the length of a `with`, and gone after it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "coin_race"
# a tune of the race's length small enough to play in a test (the faults' tests)
TUNE = {"name": "tuned", "game": "coin-race", "ruleset": "race", "players": 2,
        "seats": ["steady", "steady"], "games": 60, "seed": 7,
        "tune": {"race.length": {"low": 2, "high": 5}},
        "targets": [{"measure": "mean_turns", "value": 8, "tolerance": 1}],
        "search": {"trials": 3, "games": [20, 40], "confirm": 2, "sampler": "grid"}}  # fmt: skip


@contextmanager
def registered() -> Iterator[Any]:
    """The coin race's plug-in, registered (its package importable) inside the `with`."""
    import sim.plugins as plugins

    sys.path.insert(0, str(FOLDER))
    try:
        from coin_race.plugin import GAME

        plugins.register(GAME)
        yield GAME
    finally:
        plugins._GAMES.pop("coin-race", None)
        sys.path.remove(str(FOLDER))
