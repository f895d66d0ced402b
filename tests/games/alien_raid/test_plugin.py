"""The plug-in through the framework: found through its entry point and light to import,
`prepare` compiling what the chunks play, chunks of games as the columns the runner and the
reports expect, unknown strategies and player counts refused with a clear error, and
`sim scenario`, `sim rules` and `sim bench` through the generic commands."""

import json
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import ConfigError
from sim.games import get_game
from sim.games.base import StrategySpec
from sim.runner import parse_experiment
from tests.modules import loaded_after

GAME = get_game("alien-raid")
ROOT = Path(__file__).resolve().parents[3]


def test_the_game_is_found_through_its_entry_point_and_imports_light():
    points = {p.name: p.value for p in entry_points(group="sim.games")}
    assert points["alien-raid"] == "sim.games.alien_raid.plugin:GAME"
    loaded = loaded_after(
        "from sim.games import get_game\n"
        "game = get_game('alien-raid')\n"
        "game.load_ruleset('alien-raid'); game.report(); game.strategy_names()\n"
    )
    heavy = ("numba", "sim.jit", "sim.compiling", "sim.random_streams", "strategies")
    engine = tuple(f"sim.games.alien_raid.{m}" for m in ("kernel", "flow", "decide", "play"))
    assert [m for m in loaded if m.startswith(heavy) or m in engine] == []


def test_the_plugin_has_its_interface():
    assert GAME.name == "alien-raid"
    assert GAME.player_counts == (2, 3, 4, 5)
    assert GAME.skills == GAME.strategy_names()
    assert set(GAME.presets) == {"alien-raid", "alien-raid-other-readings"}
    report = GAME.report()
    assert all(name.startswith("alien_raid_") for name in report.sections)
    assert "bought_*" in report.seat_columns  # every card's column, whatever the catalog


def test_prepare_compiles_what_the_chunks_play():
    from sim.games.alien_raid.play import Plan

    lineup = [StrategySpec(name) for name in GAME.strategy_names()]
    GAME.prepare(lineup, notice=None)  # as tests/conftest.py warms every game
    jobs = Plan(lineup).compile_jobs()
    assert len(jobs) == 2 + len(lineup)  # the loop, the free slots' policy, each strategy
    assert all(unit.is_cached() for job in jobs for unit in job)


def test_play_chunk_columns():
    ruleset = GAME.load_ruleset("alien-raid")
    lineup = [StrategySpec("naive"), StrategySpec("value", (("probe_buy", 1.0),))]
    seats = np.array([[0, 1, 0], [1, 0, 1]])
    chunk = GAME.play_chunk(ruleset, 3, lineup, seats, np.arange(2))
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


def test_scenarios_and_rules_through_the_generic_commands():
    files = sorted(str(p) for p in (ROOT / "tests" / "scenarios" / "alien_raid").glob("*.yaml"))
    result = CliRunner().invoke(app, ["scenario", "check", "--quiet", *files])
    assert result.exit_code == 0, result.output
    assert f"{len(files)} passed, 0 failed" in result.output
    shown = CliRunner().invoke(app, ["rules", "show", "alien-raid", "--game", "alien-raid",
                                     "--set", "catalog.ships.cruiser.price=40000"])  # fmt: skip
    assert shown.exit_code == 0, shown.output
    assert "price: 40000" in shown.output and "max: 12" in shown.output
    listed = CliRunner().invoke(app, ["rules", "list", "--game", "alien-raid"])
    assert "alien-raid-other-readings" in listed.output


def test_sim_bench_prints_the_games_own_rows(monkeypatch):
    from sim.games.alien_raid import bench

    monkeypatch.setattr(bench, "POOLS", {"naive pool": ("naive", "random")})
    result = CliRunner().invoke(app, ["bench", "--game", "alien-raid", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["rates"]
    assert [r["pool"] for r in rows] == ["naive pool"]
    assert rows[0]["game"] == "alien-raid" and rows[0]["players"] == 4
    assert rows[0]["strategy"] == "naive+random" and rows[0]["games_per_s_per_core"] > 0
