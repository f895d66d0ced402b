"""The generic search (strategies/generic/mcts.py) on the toys: it finds the winning move of a
race it can see whole; where a seat cannot see something it plans on resampled states only,
so it cannot win a coin guess more often than chance allows; its budget is the skill knob;
and it replays from the seat's stream."""

from __future__ import annotations

import numpy as np
import pytest

from sim.plain import Chance, plug_in
from sim.plain.players import Players
from sim.plugins.base import StrategySpec
from strategies.generic.ladder import POINTS, budget_at
from tests.plain.toys import Coin, Race, RaceState

pytestmark = pytest.mark.without_engines  # plain Python: runs while the engines compile


def _search(game, budget: int, seat: int = 0):
    player, _ = Players(game).resolve(StrategySpec("mcts", (("budget", budget),)))
    return player.make(game, game.rulesets.load(game.rulesets.presets[0]), seat)


@pytest.mark.parametrize(("count", "winning"), [(0, 1), (2, 2), (5, 2), (8, 2)])
def test_the_search_finds_the_winning_move_of_a_race(count, winning):
    """Race to 10 adding 1 or 2: leave the opponent a multiple of 3 to go and it loses."""
    game = Race()
    state = RaceState(10, count=count, to_move=0)
    chosen = [_search(game, 300).choose(state, state.actions(), Chance(seed, 1))
              for seed in range(5)]  # fmt: skip
    assert chosen == [winning] * 5


def test_a_hidden_coin_is_guessed_no_better_than_chance():
    """The seat cannot see the coin: the search resamples it in every simulation, so it wins
    about half its games; a search that read the true coin would win them all."""
    coin = plug_in(Coin)
    games = 300
    chunk = coin.simulate_chunk(coin.load_ruleset("coin-toy"), 1,
                            [StrategySpec("mcts", (("budget", 40),))],
                            np.zeros((games, 1), np.int64), np.arange(games))  # fmt: skip
    rate = float(np.mean(chunk.seats["win_share"]))
    assert 0.40 < rate < 0.60, rate  # 300 fair guesses: 0.5 +- 0.057 at 95%


def test_the_budget_grows_geometrically_along_the_skill_knob():
    assert [budget_at(s, 1000) for s in POINTS.values()] == [1, 6, 32, 178, 1000]
    assert budget_at(-1.0, 50) == 1 and budget_at(2.0, 50) == 50


def test_a_decision_replays_from_the_seat_s_stream():
    game = Race()
    state = RaceState(10, count=3)
    choices = {seed: [_search(game, 20).choose(state, state.actions(), Chance(seed, 1))
                      for _ in range(2)] for seed in range(6)}  # fmt: skip
    assert all(a == b for a, b in choices.values())


class _DrawState(RaceState):
    """The race, but each move first shuffles a small deck inside `apply` (a game may shuffle
    mid-game: the search records the shuffled order as the action's outcome)."""

    def apply(self, action, chance):
        deck = [1, 2, 3]
        chance.shuffle(deck)
        super().apply(action, chance)

    def copy(self):
        return _DrawState(self.target, self.count, self.to_move, self.players, self.last)


def test_the_search_plays_a_game_that_shuffles_inside_a_move():
    state = _DrawState(10, count=2)
    chosen = [_search(Race(), 300).choose(state, state.actions(), Chance(seed, 1))
              for seed in range(3)]  # fmt: skip
    assert chosen == [2, 2, 2]
