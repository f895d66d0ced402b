"""Scenario positions the game cannot reach are refused, naming the cell or the key (issue 13):
more tokens of a kind than the box holds, a fighter or a mine twice, a mine off the mine-space
rows, a listed player with no fighter who is not said to be destroyed or out."""

from __future__ import annotations

import pytest

from sim.games.guardians.scenario import ScenarioError, check_file

EMPTY = [". . . . . ."] * 10


def scenario(tmp_path, rows: dict[int, str], extra: str = "") -> str:
    """A guardians scenario; `rows` replaces board lines by row number (1 = bottom)."""
    lines = list(EMPTY)
    for row, text in rows.items():
        lines[10 - row] = text
    board = "".join(f"  {line}\n" for line in lines)
    path = tmp_path / "s.yaml"
    path.write_text(f"ruleset: guardians\nboard: |\n{board}{extra}")
    return str(path)


FIVES = "5 5 5 5 5 5"


@pytest.mark.parametrize(
    ("rows", "extra", "words"),
    [
        ({10: FIVES, 9: FIVES, 8: FIVES, 7: FIVES, 1: "A . . B . ."}, "",
         "board: cell (1, 8): 13th five-point monster, but the box holds 12"),
        ({1: "A . . B . ."}, "players: [{reserve: [5, 5, 5, 5, 5, 5, 5]}, {}]\n"
         "pile: [5, 5, 5, 5, 5, 5]\n", "pile[5]: 13th five-point monster"),
        ({1: "A . . B . ."}, "aside: ['[]', '[]', '[]', '[]', '[]', '[']\n",
         "aside[5]: 6th left ship half, but the box holds 5"),
        ({1: "A . A B . ."}, "", "board: cell (3, 1): a second fighter A (the first is at (1, 1))"),
        ({3: "M . . . . .", 4: "M . . . . .", 1: "A . . B . ."}, "",
         "board: cell (1, 3): a second mine (the first is at (1, 4))"),
        ({7: "M . . . . .", 1: "A . . B . ."}, "",
         "board: cell (1, 7): the mine is on row 7, outside the mine spaces' rows 2-5"),
        ({1: "A . . . . ."}, "players: [{}, {reserve: [3]}]\n",
         "players[1]: player 1 has no fighter B on the board"),
        ({1: "A . C . . ."}, "", "players[1]: player 1 has no fighter B on the board"),
    ],
    ids=["monsters", "pile", "aside-halves", "two-A", "two-mines", "mine-row", "no-fighter",
         "letter-gap"],
)  # fmt: skip
def test_impossible_positions_are_refused(tmp_path, rows, extra, words):
    path = scenario(tmp_path, rows, extra)
    with pytest.raises(ScenarioError) as err:
        check_file(path)
    message = str(err.value)
    assert message.startswith(path) and _keyed(words) in message, message


def _keyed(words: str) -> str:
    """'board: cell ...' as the error renders it: "key 'board': cell ..."."""
    key, _, rest = words.partition(": ")
    return f"key '{key}': {rest}"


def test_a_player_said_to_be_destroyed_or_out_needs_no_fighter(tmp_path):
    extra = "players: [{}, {status: destroyed, reserve: [5, 5]}, {status: out}]\n"
    path = scenario(tmp_path, {1: "A . . . . .", 5: "3 . . . . ."}, extra)
    assert check_file(path) == ""


def test_a_mine_in_a_ruleset_without_one_is_refused(tmp_path):
    path = scenario(
        tmp_path, {2: "M . . . . .", 1: "A . . B . ."}, "rules: {mine.enabled: false}\n"
    )
    with pytest.raises(
        ScenarioError, match=r"cell \(1, 2\): a mine, but the ruleset plays without"
    ):
        check_file(path)
