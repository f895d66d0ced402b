"""Every scenario under tests/scenarios plays to its `expect:`; malformed ones are refused
with a message naming the file and the key."""

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.games.guardians.scenario import ScenarioError, check_file, run_file
from tests.scenario_files import assert_refused, every_scenario_plays, write

GOOD = """\
board: |
  . . . . . .
  . . . . . .
  . . . . . .
  1 2 3 4 5 1
  . . . . . .
  . . . . . .
  . . . . . .
  . . . . . .
  . . . . . .
  A . . . . .
turns:
  - {move: [2, 1]}
expect:
  players: [{score: 2}]
"""


test_there_are_enough_scenarios, test_scenario = every_scenario_plays(
    "guardians", check_file, at_least=40
)


def test_a_wrong_expectation_is_reported(tmp_path):
    path = tmp_path / "wrong.yaml"
    path.write_text(GOOD.replace("score: 2", "score: 3"))
    assert "players[0].score: expected 3, got 2" in check_file(str(path))
    result = CliRunner().invoke(app, ["scenario", "check", str(path)])
    assert result.exit_code == 1
    assert "0 passed, 1 failed" in result.output


def test_run_prints_the_state_in_scenario_format(tmp_path):
    path = tmp_path / "good.yaml"
    path.write_text(GOOD)
    out = run_file(str(path))
    assert "status: running" in out
    assert "1 . 3 4 5 1" in out


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("  A . . . . .\n", "  A . . . .\n"), "board"),  # a short row
        (("turns:", "turnz:"), "turnz"),
        (("{move: [2, 1]}", "{move: 2}"), "turns[0].move"),
        (("{move: [2, 1]}", "{mvoe: [2, 1]}"), "turns[0].mvoe"),
        (("{move: [2, 1]}", "{move: [2, 1], buy: rocket}"), "turns[0].buy"),
        (("  1 2 3 4 5 1\n", "  1 2 3 4 5 X\n"), "board"),
        (("turns:", "pile: [7]\nturns:"), "pile[0]"),
        (("turns:", "players: [{status: flying}]\nturns:"), "players[0].status"),
        (("turns:", "players: [{reserve: [5, 7]}]\nturns:"), "players[0].reserve"),
        (("{move: [2, 1]}", "{buy: missile, pay: [null, 4]}"), "turns[0].pay"),
        (("{move: [2, 1]}", "{buy: missile, pay: 5}"), "turns[0].pay"),
    ],
)
def test_malformed_scenarios_name_the_key(tmp_path, change, key):
    assert_refused(check_file, write(tmp_path, GOOD.replace(*change)), key, ScenarioError)


def test_refused_turn_must_be_last(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD.replace("{move: [2, 1]}", "{move: [3, 2]}\n  - {}"))
    with pytest.raises(ScenarioError, match="more turns follow"):
        check_file(str(path))


def test_cli_reports_a_malformed_scenario_without_traceback(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("board: [1\n")
    result = CliRunner().invoke(app, ["scenario", "check", str(path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert str(path) in result.output
