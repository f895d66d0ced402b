"""Pig's golden playthroughs: games told turn by turn as `sim play` prints them, recorded for
the game's version. A change in how Pig plays fails here with the first turn that differs;
when the change is meant, bump the plug-in's `version` and record again:
`python -m tests.examples.test_pig_golden` (from the repository, examples/pig on the path)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pig.plugin import GAME
from pig.watch import watch_game

from sim.plugins.base import StrategySpec
from tests.goldens import check_playthrough, folder

FOLDER = folder("pig")
GAMES = [  # (preset, overrides, lineup, seed)
    ("pig", {}, ("optimal", "steady"), 3),
    ("pig", {"start.head_start": 4}, ("careless", "optimal"), 11),
    ("piglet", {}, ("optimal", "optimal"), 5),
]


def path(preset: str, overrides: dict, lineup: tuple[str, ...], seed: int) -> Path:
    rules = "".join(f"-{k}={v}" for k, v in overrides.items())
    return FOLDER / f"v{GAME.version}-{preset}{rules}-{'-'.join(lineup)}-seed{seed}.txt"


def playthrough(preset: str, overrides: dict, lineup: tuple[str, ...], seed: int) -> str:
    ruleset = GAME.load_ruleset(preset, overrides)
    return watch_game(ruleset, GAME.ready([StrategySpec(name) for name in lineup]), seed).text


@pytest.mark.parametrize("game", GAMES, ids=lambda g: path(*g).stem)
def test_pig_plays_its_golden_playthroughs(game):
    recorded = path(*game)
    assert recorded.is_file(), f"no golden for version {GAME.version}: record it (see above)"
    check_playthrough(recorded.name, recorded.read_text(), playthrough(*game), "turn ")


if __name__ == "__main__":
    FOLDER.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        path(*game).write_text(playthrough(*game))
        print(f"wrote {path(*game)}")
