"""Strategies from outside the project: a compiled one runs in the compiled loop, a
plain-Python one in the Python loop; both through the same plugin call as built-ins."""

import numpy as np
import pytest

from sim.errors import ConfigError
from sim.games.guardians.python_loop import CompiledSeat, play_one_in_python
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from strategies.guardians import greedy, random

GAME = get_game("guardians")
RULES = GAME.load_ruleset("guardians")


def test_the_python_loop_plays_the_kernels_games():
    seats = np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]])
    chunk = GAME.simulate_chunk(RULES, 3, [StrategySpec("random"), StrategySpec("greedy")], seats,
                            np.arange(3), trace=True)  # fmt: skip
    params = np.zeros(1)
    for g in range(3):
        players = [CompiledSeat((random, greedy)[k].policy, params) for k in seats[g]]
        _, row = play_one_in_python(RULES, 3, players, g)
        assert int(row[10]) == int(chunk.games["trace_hash"][g])


def test_compiled_user_strategy_plays_in_the_kernel():
    lineup = [StrategySpec("tests.userbots.bots:Leftmost", (("bias", 0.5),)),
              StrategySpec("greedy")]  # fmt: skip
    seats = np.array([[0, 1, 1, 1], [1, 0, 1, 1]] * 100)
    chunk = GAME.simulate_chunk(RULES, 4, lineup, seats, np.arange(200))
    assert chunk.errors == []
    assert "tests.userbots.bots:Leftmost(bias=0.5)" in set(chunk.seats["strategy"])


def test_plain_python_user_strategy_plays():
    lineup = [StrategySpec("tests.userbots.bots:Sniper"), StrategySpec("random")]
    seats = np.array([[0, 1], [1, 0]] * 20)
    chunk = GAME.simulate_chunk(RULES, 2, lineup, seats, np.arange(40))
    assert chunk.errors == []
    sniper = chunk.seats["score"][chunk.seats["strategy"] == "tests.userbots.bots:Sniper"]
    assert sniper.mean() > 0


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("tests.userbots.nothere:Bot", "cannot import strategy module"),
        ("tests.userbots.bots:Nobody", "has no 'Nobody'"),
        ("tests.userbots.bots:stand_at", "is not a strategy"),
    ],
)
def test_bad_user_strategy_names_are_explained(name, message):
    with pytest.raises(ConfigError, match=message):
        GAME.check_strategy(StrategySpec(name), source="exp.yaml")


def test_unknown_parameter_of_a_user_strategy():
    with pytest.raises(ConfigError, match="bias"):
        GAME.check_strategy(StrategySpec("tests.userbots.bots:Leftmost", (("bais", 1),)),
                            source="exp.yaml")  # fmt: skip


def test_user_strategies_run_through_sim_tournament(tmp_path):
    from typer.testing import CliRunner

    from sim.cli import app

    names = "tests.userbots.bots:Leftmost,tests.userbots.bots:Sniper,greedy"
    result = CliRunner().invoke(app, ["tournament", "--players", "3", "--strategies", names,
                                      "--games", "60", "--jobs", "1", "--out",
                                      str(tmp_path / "t")])  # fmt: skip
    assert result.exit_code == 0, result.output
    for name in ("Leftmost", "Sniper", "greedy"):
        assert name in result.output
