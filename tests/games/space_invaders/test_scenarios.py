"""Every Space Invaders scenario plays to its `expect:`; a wrong expectation is reported, a
malformed scenario is refused with a message naming the file and the key."""

from pathlib import Path

import pytest

from sim.games.space_invaders.scenario import ScenarioError, check_file, run_file
from sim.scenarios import check_scenario
from tests.scenario_files import assert_refused, every_scenario_plays, write

GOOD = """\
game: space-invaders
players: 2
cards:
  x: {speed: 1, damage: 1}
board: |
  .  .  .  .  .
  .  x  .  .  .
  .  .  .  .  .
  .  .  .  .  .
seats:
  - {active: [1, 0, 0], card: [2, 2, 2]}
  - {active: [1, 0, 0], card: [2, 2, 2]}
turns:
  - [{land: B2}]
stop: resolve
expect:
  destroyed: 1
"""


# through `sim scenario`'s dispatch: each file's `game:` picks the plug-in
test_there_are_enough_scenarios, test_scenario = every_scenario_plays(
    "space_invaders", check_scenario, at_least=30
)


def test_a_wrong_expectation_is_reported(tmp_path):
    path = write(tmp_path, GOOD.replace("destroyed: 1", "destroyed: 2"))
    assert "destroyed: expected 2, got 1" in check_file(path)


def test_run_prints_the_position(tmp_path):
    path = write(tmp_path, GOOD)
    out = run_file(path)
    assert "destroyed: 1" in out and "status: running" in out


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("  .  x  .  .  .\n", "  .  x  .  .\n"), "board"),
        (("turns:", "turnz:"), "turnz"),
        (("{land: B2}", "{land: Z9}"), "turns[0][0].land"),
        (("{land: B2}", "{lnad: B2}"), "turns[0][0].lnad"),
        (("  x: {speed: 1, damage: 1}", "  x: {speed: 4, damage: 1}"), "cards.x.speed"),
        (("{land: B2}", "{land: B2, called: Q7}"), "turns[0][0].called"),
        (("stop: resolve", "stop: never"), "stop"),
        (("  - {active: [1, 0, 0], card: [2, 2, 2]}\nturns", "turns"), "seats"),
    ],
)
def test_malformed_scenarios_name_the_key(tmp_path, change, key):
    assert_refused(check_file, write(tmp_path, GOOD.replace(*change)), key, ScenarioError)


def test_unused_landings_are_refused(tmp_path):
    path = write(tmp_path, GOOD.replace("{land: B2}", "{land: [B2, C2]}"))
    with pytest.raises(ScenarioError, match="were not used"):
        check_file(path)


def test_a_turn_with_too_few_tokens_is_a_refusal_not_a_malformed_file(tmp_path):
    """Line 192: every active token is launched; the engine refuses to end the turn early."""
    path = write(
        tmp_path,
        GOOD.replace(
            "- {active: [1, 0, 0], card: [2, 2, 2]}\n  - {active",
            "- {active: [2, 0, 0], card: [1, 2, 2]}\n  - {active",
            1,
        ),
    )
    assert "a decision was refused: unlaunched" in check_file(path)
    text = Path(path).read_text().replace("destroyed: 1", "error: unlaunched")
    assert check_file(write(tmp_path, text, "expected.yaml")) == ""


def test_a_refusal_expected_but_not_given_is_reported(tmp_path):
    """A `try:` the engine accepts, or refuses for another reason, fails the scenario."""
    accepted = GOOD.replace("{land: B2}", "{land: B2, try: [{level: 1, refused: no_token}]}")
    assert "accepted a decision expected to be refused (no_token)" in check_file(
        write(tmp_path, accepted)
    )
    other = GOOD.replace("{land: B2}", "{land: B2, try: [{level: 3, refused: called}]}")
    assert "no_token (expected the refusal called" in check_file(write(tmp_path, other))
    never = GOOD.replace("{land: B2}", "{land: B2, try: [{extra: B1, refused: extra}]}")
    assert "never asked for the decision tried" in check_file(write(tmp_path, never))


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("{land: B2}", "{land: B2, heal: maybe}"), "turns[0][0].heal"),
        (("{land: B2}", "{land: B2, try: [{level: 2}]}"), "turns[0][0].try[0].refused"),
        (("{land: B2}", "{land: B2, try: [{level: 2, extra: B1, refused: extra}]}"),
         "turns[0][0].try[0]"),
        (("stop: resolve", "so_far: {kills: 3}\nstop: resolve"), "so_far.kills"),
        (("stop: resolve", "so_far: {ufo_hits: -1}\nstop: resolve"), "so_far.ufo_hits"),
    ],
)  # fmt: skip
def test_malformed_options_and_attempts_name_the_key(tmp_path, change, key):
    assert_refused(check_file, write(tmp_path, GOOD.replace(*change)), key, ScenarioError)
