"""Space Invaders chunks of games as columns: the framework's and the game's own (solo games
too), and the strategies' parameters checked; `sim play`'s view of a game."""

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import ConfigError
from sim.plugins import get_game
from sim.plugins.base import StrategySpec

GAME = get_game("space-invaders")


def test_a_chunk_has_the_framework_columns_and_the_games_own():
    ruleset = GAME.load_ruleset("space-invaders")
    lineup = [StrategySpec("naive"), StrategySpec("tactical", (("spread_scale", 1.3),))]
    chunk = GAME.simulate_chunk(ruleset, 3, lineup, np.array([[0, 1, 1], [1, 0, 0]]), np.arange(2))
    assert set(chunk.games["outcome"]) <= set(GAME.outcomes)
    assert len(chunk.seats["seat"]) == 6
    won = chunk.games["won"].repeat(3)
    assert np.allclose(chunk.seats["win_share"], won / 3)
    assert (chunk.seats["score"] == chunk.games["score"].repeat(3)).all()
    labels = ["naive", "tactical(spread_scale=1.3)", "tactical(spread_scale=1.3)"]
    assert chunk.seats["strategy"].tolist()[:3] == labels
    assert "powers" not in chunk.games  # the seats table holds each seat's cards
    dealt = [chunk.seats[f"power_{k}"] for k in (1, 2)]  # four different powers each
    assert all(len(set(column[:3])) == 3 for column in dealt)  # one card per player and level


def test_a_solo_game_is_one_person_playing_every_hand():
    ruleset = GAME.load_ruleset("space-invaders", {"setup.solo_hands": 3})
    solo = GAME.simulate_chunk(
        ruleset, 1, [StrategySpec("tactical")], np.zeros((4, 1), np.int64), np.arange(4)
    )
    three = GAME.simulate_chunk(
        ruleset, 3, [StrategySpec("tactical")], np.zeros((4, 3), np.int64), np.arange(4)
    )
    assert (solo.games["hands"] == 3).all() and (solo.games["deck_size"] == 34).all()
    assert (solo.games["score"] == three.games["score"]).all()  # the same hands, the same games
    assert (solo.seats["launches"] == three.seats["launches"].reshape(4, 3).sum(axis=1)).all()
    assert len(solo.seats["power_1"][0].split("+")) == 3


def test_unknown_strategies_and_parameters_are_refused():
    with pytest.raises(ConfigError, match="Did you mean 'planner'"):
        GAME.check_strategy(StrategySpec("planer"), source="x.yaml")
    with pytest.raises(ConfigError, match="unknown parameter"):
        GAME.check_strategy(StrategySpec("naive", (("aim", 1),)), source="x.yaml")
    with pytest.raises(ConfigError, match="out of range"):
        GAME.check_strategy(StrategySpec("naive", (("spread_scale", 9),)), source="x.yaml")


def test_watch_and_sim_play(tmp_path):
    ruleset = GAME.load_ruleset("space-invaders")
    watched = GAME.watch(ruleset, [StrategySpec("planner")] * 2, 4)
    assert watched.text == GAME.watch(ruleset, [StrategySpec("planner")] * 2, 4).text
    assert "landed at" in watched.text and "round 1: seat 1" in watched.text
    page = tmp_path / "game.html"
    result = CliRunner().invoke(
        app,
        [
            "play",
            "--game",
            "space-invaders",
            "--strategies",
            "tactical,naive",
            "--seed",
            "4",
            "--html",
            str(page),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "the invaders advance" in result.output
    assert page.read_text().startswith("<!doctype html>")
