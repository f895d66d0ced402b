"""Every alien-raid scenario plays to its `expect:`; malformed ones are refused with the file
and the key; a wrong expectation is reported."""

import pytest

from sim.games.alien_raid.scenario import ScenarioError, check_file, run_file
from tests.scenario_files import assert_refused, every_scenario_plays, write

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


test_there_are_enough_scenarios, test_scenario = every_scenario_plays(
    "alien_raid", check_file, at_least=30
)


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
    assert_refused(check_file, write(tmp_path, GOOD.replace(*change)), key, ScenarioError)


def test_a_refusal_expected_but_not_given_is_reported(tmp_path):
    """A `refused:` answer the rules accept, or refuse for another reason, fails the scenario."""
    path = tmp_path / "accepted.yaml"
    refused = "    refused:\n      plan: {Fry: {error: fuel, answer: {cairo: [training-saucer]}}}\n"
    path.write_text(GOOD.replace("    plan:", refused + "    plan:"))
    found = check_file(str(path))
    assert "not refused as expected: turn 1: Fry, plan: expected the refusal fuel" in found
    path.write_text(GOOD.replace("    plan:", refused.replace("fuel", "hand_full") + "    plan:"))
    assert "expected the refusal hand_full" in check_file(str(path))


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("    plan:", "    refused: {plan: {Fry: {answer: {}}}}\n    plan:"),
         "decisions.1.refused.plan.Fry.error"),
        (("    plan:", "    refused: {plan: {Fry: {error: nonsense, answer: {}}}}\n    plan:"),
         "decisions.1.refused.plan.Fry.error"),
        (("    plan:", "    refused: {plan: {Fry: {error: fuel}}}\n    plan:"),
         "decisions.1.refused.plan.Fry.answer"),
        (("    plan:", "    refused: {plann: {}}\n    plan:"), "decisions.1.refused.plann"),
        (("    plan:", "    cash: {Fry: maybe}\n    plan:"), "decisions.1.cash.Fry"),
        (("    plan:", "    cash: {Fry: {supplys: 1}}\n    plan:"), "decisions.1.cash.Fry"),
        (("    plan:", "    repay: {Fry: -1}\n    plan:"), "decisions.1.repay.Fry"),
    ],
)  # fmt: skip
def test_malformed_refusals_and_options_name_the_key(tmp_path, change, key):
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD.replace(*change))
    with pytest.raises(ScenarioError) as err:
        check_file(str(path))
    assert f"'{key}'" in str(err.value)
