"""The plain game loop (sim/plain/play.py and chunks.py) traced by hand on the toys: turns,
rounds, decisions and turns without a choice counted, the trajectory columns as the lab's
reference computes them, a strategy's or the rules' failure named with its seat and step, the
cap, and the same games however the seeds are chunked."""

from __future__ import annotations

import numpy as np
import pytest

from sim.errors import ConfigError, StrategyError
from sim.plain import plug_in
from sim.plain.play import play
from sim.plugins.base import StrategySpec
from tests.plain.toys import Always, Dice, Race, RaceState
from tests.trajectory_reference import summary

pytestmark = pytest.mark.without_engines  # plain Python: runs while the engines compile

RACE = plug_in(Race)
ALWAYS_ONE = StrategySpec("tests.plain.toys:Always", (("pick", 0),))  # always adds 1


def _played(game, lineup, seeds, players=2):
    seats = np.tile(np.arange(players) % len(lineup), (len(seeds), 1))
    return game.simulate_chunk(game.load_ruleset(game.presets[0]), players, lineup, seats,
                           np.asarray(seeds))  # fmt: skip


def test_a_race_of_single_steps_traced():
    """Race to 10, both always adding 1: ten decisions, seat 1 moves first, seat 2 makes the
    tenth and wins. Each decision is a turn (the seat to move changes); a round is two turns.

        count:  1 2 | 3 4 | 5 6 | 7 8 | 9 10     (| a round ends; seat 2 adds the 10)
    """
    chunk = _played(RACE, [ALWAYS_ONE], [0])
    assert chunk.games["decisions"].tolist() == [10]
    assert chunk.games["turns"].tolist() == [10]
    assert chunk.games["outcome"].tolist() == ["win"]
    assert chunk.seats["win_share"].tolist() == [0.0, 1.0]
    assert chunk.seats["score"].tolist() == [0.0, 1.0]
    assert chunk.seats["turns_played"].tolist() == [5, 5]
    assert chunk.seats["decisions"].tolist() == [5, 5]
    # the last turn of each seat had one legal action (9 + 2 would pass 10): no real choice
    assert chunk.seats["no_choice_turns"].tolist() == [0, 1]
    assert chunk.seats["strategy"].tolist() == [ALWAYS_ONE.label] * 2


def test_how_the_game_went_is_the_reference_s():
    """Three seats racing to 10, always adding 1: rounds of three turns; the scores (1 to the
    winner at the end) after each round: the start, 3, 6, 9, then the cut-short last round."""
    chunk = _played(plug_in(Race), [ALWAYS_ONE], [0], players=3)
    rows = [[0, 0, 0]] * 4 + [[1, 0, 0]]  # seat 1 adds the 10th
    ref = summary(rows)
    assert chunk.games["lead_changes"].tolist() == [ref["lead_changes"]]
    for column in ("score_third", "score_half", "score_two_thirds", "score_before_last_round"):
        assert chunk.seats[column].tolist() == [float(v) for v in ref[column]], column


def test_a_chunk_is_the_same_games_however_the_seeds_are_split():
    dice = plug_in(Dice)
    lineup = [StrategySpec("random"), StrategySpec("club")]
    whole = _played(dice, lineup, range(20, 30))
    parts = [_played(dice, lineup, range(20, 25)), _played(dice, lineup, range(25, 30))]
    for table in ("games", "seats"):
        for column, values in getattr(whole, table).items():
            joined = np.concatenate([getattr(p, table)[column] for p in parts])
            assert np.array_equal(values, joined), column


class Cheat(Always):
    def choose(self, state, actions, chance):
        return 3  # never offered


class Crash(Always):
    def choose(self, state, actions, chance):
        raise KeyError("no such card")


@pytest.mark.parametrize(("name", "says"), [
    ("Cheat", "seat 1 (tests.plain.test_play:Cheat) at step 1: the strategy chose 3, not a "
              "legal action (legal: add 1, add 2)"),
    ("Crash", "the strategy raised KeyError: 'no such card'"),
])  # fmt: skip
def test_a_strategy_that_fails_is_named_with_its_seat_and_step(name, says):
    with pytest.raises(StrategyError) as info:
        _played(RACE, [StrategySpec(f"tests.plain.test_play:{name}")], [0, 1])
    assert says in info.value.message and info.value.game == 0 and info.value.seat == 0


def test_rules_that_fail_are_named_and_a_game_past_the_cap_is_cut():
    class Stuck(RaceState):
        def apply(self, action, chance):
            if self.count == 4:
                raise IndexError("the deck is empty")
            super().apply(action, chance)

    class Broken(Race):
        max_steps = 6

        def start(self, rules, players, chance):
            return Stuck(rules["race.target"], players=players)

    game = Broken()
    strategies = [Always(game=game, rules=None, seat=k, params={"pick": 0}) for k in (0, 1)]
    with pytest.raises(StrategyError, match="step 5: the rules raised IndexError applying "
                                            "'add 1': the deck is empty"):  # fmt: skip
        play(game, game.rulesets.load("race-toy"), strategies, seed=0)
    game.max_steps = 3
    played = play(game, game.rulesets.load("race-toy"), strategies, seed=0)
    assert played.capped and played.outcome == "cap" and played.winners == []
    assert played.steps == 3 and played.turns == 3


def test_greedy_needs_the_game_s_heuristic():
    with pytest.raises(ConfigError, match="Race to a count gives none"):
        RACE.check_strategy(StrategySpec("greedy"), source="x.yaml")
    assert "greedy" not in RACE.strategy_names() and "mcts" in RACE.strategy_names()


def test_a_strategy_class_that_is_not_one_is_refused():
    with pytest.raises(ConfigError, match="not a strategy of a plain-Python game"):
        RACE.check_strategy(StrategySpec("tests.plain.toys:RaceState"), source="x.yaml")
    with pytest.raises(ConfigError, match="Did you mean 'random'"):
        RACE.check_strategy(StrategySpec("randon"), source="x.yaml")
