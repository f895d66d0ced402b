"""The order of the final assault (line 330, `final_assault.order`) cannot change an outcome:
every launch lands where its own seat's throw puts it, so the two readings play the same
games to the same end and score; only who made the hits differs (docs/games/space_invaders/
rules.md, The last round and the final assault)."""

import numpy as np

from sim.games.space_invaders.ruleset import load_ruleset
from sim.plugins import get_game
from sim.plugins.base import StrategySpec

GAME = get_game("space-invaders")
SEEDS = np.arange(400)
# a UFO of 12 health: the final assault is played in most games, and often lost
RULES = {"setup.ufo_health": 12}


def _play(order: str, players: int):
    ruleset = load_ruleset("space-invaders", {**RULES, "final_assault.order": order})
    seats = np.zeros((len(SEEDS), players), np.int64)
    return GAME.simulate_chunk(ruleset, players, [StrategySpec("tactical")], seats, SEEDS)


def test_the_assault_order_changes_no_outcome_and_no_score():
    for players in (2, 3):
        block, rotation = _play("block", players), _play("rotation", players)
        assault = block.games["final_assault"] == 1
        outcomes = set(block.games["outcome"][assault])
        assert assault.sum() > 100 and {"victory", "ufo_survived"} <= outcomes
        for column in ("outcome", "score", "ufo_left", "planet_left", "ufo_hits"):
            assert np.array_equal(block.games[column], rotation.games[column]), column
        # ... but it is a different reading: the seats' shares of the hits differ
        assert not np.array_equal(block.seats["ufo_hits"], rotation.seats["ufo_hits"])
