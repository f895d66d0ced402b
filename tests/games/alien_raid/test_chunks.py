"""Alien-raid chunks of games as columns: each captain's counters, the purchase probe's card
and every card's purchases and offers; strategy parameters checked; an experiment sweeping a
catalog key."""

import numpy as np
import pytest

from sim.errors import ConfigError
from sim.experiment import parse_experiment
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from sim.report import game_quality
from sim.report.spec import section_builders

GAME = get_game("alien-raid")


def test_the_report_reads_every_cards_columns():
    # its own sections are named for it; the quality section is every game's (the framework's)
    sections = section_builders(GAME.report_sections)
    assert all(name.startswith("alien_raid_") or name == game_quality.ID for name in sections)
    assert sections[game_quality.ID].build is game_quality.build
    assert "bought_*" in GAME.report().seat_columns  # every card's column, whatever the catalog


def test_simulate_chunk_columns():
    ruleset = GAME.load_ruleset("alien-raid")
    lineup = [StrategySpec("naive"), StrategySpec("value", (("probe_buy", 1.0),))]
    seats = np.array([[0, 1, 0], [1, 0, 1]])
    chunk = GAME.simulate_chunk(ruleset, 3, lineup, seats, np.arange(2))
    assert set(chunk.games["outcome"]) <= set(GAME.outcomes)
    for column in ("seat", "strategy", "score", "win_share", "bought_cruiser",
                   "offered_cruiser", "probe_card", "task_humans", "rp_armies"):  # fmt: skip
        assert len(chunk.seats[column]) == 6, column
    value = "value(probe_buy=1.0)"
    assert list(chunk.seats["strategy"]) == ["naive", value, "naive", value, "naive", value]
    shares = chunk.seats["win_share"].reshape(2, 3).sum(axis=1)
    assert np.allclose(shares, 1.0)
    probed = chunk.seats["probe_card"].reshape(2, 3)
    assert (probed[seats == 0] == "").all()  # naive does not probe
    assert (probed[seats == 1] != "").any()  # a probing seat records its randomised purchase


def test_unknown_strategy_and_parameter():
    with pytest.raises(ConfigError, match="Did you mean 'planner'"):
        GAME.check_strategy(StrategySpec("planer"), source="x.yaml")
    with pytest.raises(ConfigError, match="unknown parameter 'probe'"):
        GAME.check_strategy(StrategySpec("value", (("probe", 1),)), source="x.yaml")


def test_an_experiment_of_this_game_parses():
    exp = parse_experiment(
        {
            "game": "alien-raid",
            "players": 5,
            "seats": "naive",
            "games": 10,
            "sweep": {"catalog.ships.cruiser.price": [40000, 60000]},
        }
    )
    assert [arm.ruleset["catalog.ships.cruiser.price"] for arm in exp.arms] == [40000, 60000]
    with pytest.raises(ConfigError, match="2 to 5 players"):
        parse_experiment({"game": "alien-raid", "players": 6, "seats": "naive"})
