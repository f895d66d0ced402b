"""Setup (GoS 71-79): start rows of monsters only, ship halves back into the pile (or the box),
fighters on empty bottom cells, the mine on a free mine space."""

from collections import Counter

import pytest

from sim.games.guardians import layout as L
from sim.games.guardians.ruleset import load_ruleset
from sim.games.guardians.session import GameSession


@pytest.mark.parametrize("seed", range(20))
def test_start_rows_hold_monsters_and_the_pile_holds_the_rest(seed):
    game = GameSession.new(load_ruleset("guardians"), 4, seed)
    board = game.board_text().split("\n")
    start = [row.split() for row in board[:4]]
    assert all(cell in "12345" for row in start for cell in row)
    assert all(set(row.split()) == {"."} for row in board[4:10])
    on_board = Counter(int(c) for row in start for c in row)
    in_pile = Counter(game.pile())
    for value, total in zip(range(1, 6), (11, 11, 11, 11, 12), strict=True):
        assert on_board[value] + in_pile[value] == total
    assert in_pile["["] == in_pile["]"] == 5  # every half went back into the pile
    assert game.aside() == []


def test_halves_drawn_at_setup_can_go_to_the_box():
    ruleset = load_ruleset("guardians", {"setup.ship_halves": "box"})
    boxed = []
    for seed in range(30):
        game = GameSession.new(ruleset, 2, seed)
        pile = Counter(game.pile())
        boxed.append(game.counter(L.S_BOX + L.KIND_SHIP))
        assert pile["["] + pile["]"] + boxed[-1] == 10
    assert max(boxed) > 0


def test_the_pile_order_depends_on_the_seed():
    ruleset = load_ruleset("guardians")
    piles = {tuple(GameSession.new(ruleset, 2, seed).pile()) for seed in range(10)}
    assert len(piles) == 10


def test_fighters_go_on_empty_bottom_cells_and_the_mine_on_a_free_mine_space():
    game = GameSession.new(load_ruleset("guardians"), 2, 1)
    assert game.place_fighter(0, 0) is None
    assert game.place_fighter(1, 0) == "place_cell"  # taken
    assert game.place_fighter(1, 6) == "place_cell"  # off the board
    assert game.place_fighter(1, 5) is None
    assert game.place_mine(0) == "mine_start_cell"  # row 1 is not a mine space
    assert game.place_mine(5) == "mine_start_cell"  # row 6 neither
    assert game.place_mine(3) is None
    assert game.board_text().split("\n")[6] == "M . . . . ."
    assert game.board_text().split("\n")[9] == "A . . . . B"
    assert game.status == "running" and game.to_move == 0


def test_space_defenders_has_seventy_tiles():
    game = GameSession.new(load_ruleset("space-defenders"), 2, 3)
    assert 24 + len(game.pile()) == 70
