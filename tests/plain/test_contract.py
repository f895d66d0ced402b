"""`sim check` on plain-Python games: a sound game passes every check, and a game that breaks
one rule of the contract fails it, naming the seed, the step and a `sim play` command that
plays the same game again (tests/plain/toys.py has the broken games)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.contract import check_game, describe
from tests.plain.toys import Coin, Dice, Race, broken

pytestmark = pytest.mark.without_engines  # plain Python: runs while the engines compile


@pytest.mark.parametrize("game", [Race, Coin, Dice], ids=lambda g: g.name)
def test_a_sound_game_keeps_the_contract(registered, game):
    plugin = registered(game)
    contract = check_game(plugin.name, games=30)
    assert contract.ok, describe(contract)
    assert len(contract.passed) >= 5
    hidden = [line for line in contract.passed if "may not see" in line]
    assert bool(hidden) == (game is Coin), contract.passed
    assert bool(contract.unchecked) == (game is not Coin)


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("shared-copy", "a copy changed the state"),
        ("offers-too-much", "and then refuse it (ValueError"),
        ("never-ends", "did not end within its cap of 500 decisions"),
        ("outside-chance", "played again from its seed"),
        ("peeks", "observation changes when only what it cannot see is drawn again"),
        ("values-disagree", "values() gives"),
    ],
)
def test_a_broken_rule_is_found_with_its_seed_step_and_replay(registered, kind, says):
    plugin = registered(broken(kind))
    contract = check_game(plugin.name, games=20, seed=40)
    assert not contract.ok
    failure = contract.failures[0]
    assert says in failure.message, failure
    assert 40 <= failure.seed < 60
    assert failure.step is not None and failure.step >= 0
    assert failure.command == (f"sim play --game {plugin.name} --strategies "
                               f"{','.join(contract.lineup)} --seed {failure.seed}")  # fmt: skip


def test_sim_check_prints_the_failure_and_exits_1(registered):
    plugin = registered(broken("shared-copy"))
    done = CliRunner().invoke(app, ["check", plugin.name, "--games", "5", "--seed", "3"])
    assert done.exit_code == 1, done.output
    first = re.search(r"FAIL seed (\d+), step (\d+)[^:]*: (.+)\n +play it again: (.+)", done.output)
    assert first, done.output
    # the command printed plays that game
    seed = int(first[1])
    replay = CliRunner().invoke(app, first[4].split()[1:])
    assert replay.exit_code == 0 and f"seed {seed}" in replay.output
    assert done.output.rstrip().endswith("contract FAILED (5 failures)")


def test_a_game_that_does_not_take_the_players_is_refused(registered):
    plugin = registered(Coin)
    done = CliRunner().invoke(app, ["check", plugin.name, "--players", "3"])
    assert done.exit_code == 2 and "not played by 3 players" in done.output
