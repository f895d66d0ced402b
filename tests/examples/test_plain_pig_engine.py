"""The plain-Python Pig (examples/plain_pig) plays the compiled Pig's games (examples/pig):
the same rules against the lab's plain interface, the dice drawn from the same stream of the
same seeds, so when both players hold at 20 every game is the same, column for column (the
trajectory columns too: a round is two turns in both)."""

from __future__ import annotations

import numpy as np
from pig.plugin import GAME as COMPILED
from plain_pig.game import GAME as PLAIN

from sim.plugins.base import StrategySpec

COLUMNS = ("score", "win_share", "busts", "turns_played", "score_third", "score_half",
           "score_two_thirds", "score_before_last_round")  # fmt: skip


def test_hold_at_20_plays_the_compiled_pig_s_games():
    games = 2000
    seats, seeds = np.zeros((games, 2), np.int64), np.arange(7, 7 + games)
    for preset, overrides in [("pig", {}), ("pig", {"start.head_start": 5}), ("piglet", {})]:
        plain = PLAIN.simulate_chunk(PLAIN.load_ruleset(f"plain-{preset}", overrides), 2,
                                 [StrategySpec("hold", (("at", 20),))], seats, seeds)  # fmt: skip
        compiled = COMPILED.simulate_chunk(COMPILED.load_ruleset(preset, overrides), 2,
                                       [StrategySpec("steady")], seats, seeds)  # fmt: skip
        for column in ("turns", "lead_changes"):
            assert np.array_equal(plain.games[column], compiled.games[column]), column
        for column in COLUMNS:
            assert np.array_equal(plain.seats[column], compiled.seats[column]), column
