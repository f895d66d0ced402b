"""Every alien-raid scenario plays to its `expect:`; malformed ones are refused with the file
and the key; a wrong expectation is reported."""

import pytest

from sim.games.alien_raid.scenario import ScenarioError, check_file, run_file
from tests.scenario_files import scenario_files

SCENARIOS = scenario_files("alien_raid")
GOOD = """\
name: a raid
turn: 1
captains:
  - {name: Fry, ships: [training-saucer]}
  - {name: Leela}
decks:
  cities: [cairo, paris, tokyo]
decisions:
  1:
    plan: {Fry: {cairo: [training-saucer]}}
expect:
  captains: [{humans: 115000, cities: [cairo]}]
"""


def test_there_are_enough_scenarios():
    assert len(SCENARIOS) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path):
    assert check_file(str(path)) == ""


def test_a_wrong_expectation_is_reported(tmp_path):
    path = tmp_path / "wrong.yaml"
    path.write_text(GOOD.replace("115000", "116000"))
    assert "captains[0].humans: expected 116000, got 115000" in check_file(str(path))


def test_run_prints_the_result(tmp_path):
    path = tmp_path / "good.yaml"
    path.write_text(GOOD)
    out = run_file(str(path))
    assert "Fry raids Cairo: +15000" in out


def test_a_decision_never_asked_is_reported(tmp_path):
    path = tmp_path / "unasked.yaml"
    path.write_text(GOOD.replace("    plan:", "    credit: {Fry: 1}\n    plan:"))
    assert "scripted decision never asked: turn 1: Fry, credit" in check_file(str(path))


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("decks:", "deckz:"), "deckz"),
        (("cities: [cairo, paris, tokyo]", "cities: [cairo, pariss, tokyo]"), "decks.cities"),
        (("ships: [training-saucer]}", "ships: [training-sauser]}"), "captains[0].ships"),
        (("plan: {Fry: {cairo:", "plan: {Fryy: {cairo:"), "decisions.1.plan.Fryy"),
        (("plan: {Fry: {cairo:", "plan: {Fry: {seoul:"), "decisions.1.plan.Fry.seoul"),
        (("    plan:", "    plann:"), "decisions.1.plann"),
        (("  cities: [cairo, paris, tokyo]", "  cities: [cairo, paris, dubai]"), "decks.cities"),
    ],
)
def test_malformed_scenarios_name_the_key(tmp_path, change, key):
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD.replace(*change))
    with pytest.raises(ScenarioError) as err:
        check_file(str(path))
    assert str(path) in str(err.value)
    assert f"'{key}'" in str(err.value)
