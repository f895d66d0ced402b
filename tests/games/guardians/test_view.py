"""What a plain-Python strategy sees: view.shots() against the same answer read cell by cell."""

import numpy as np

from sim.games.guardians.python_loop import CompiledSeat, play_one_in_python
from sim.games.guardians.view import GameView
from sim.plugins import get_game
from strategies.guardians import greedy

RULES = get_game("guardians").load_ruleset("guardians")
POINTS = {str(v): v for v in range(1, 6)} | {"S": 10, "[": 0, "]": 0}


def _first_shot_by_cells(view: GameView, col: int, row: int) -> tuple[int, str]:
    """Points and target of the first shot from (col, row), reading the board cell by cell."""
    for r in range(row + 1, view.rows + 1):
        cell = view.cell(col, r)
        if cell == ".":
            continue
        if cell in POINTS:
            return POINTS[cell], "invader"
        if cell == "M":
            return 0, "mine"
        if cell == "ABCD"[view.seat]:
            return 0, "nothing"
        victim = view.players()["ABCD".index(cell)]["reserve"]
        return (min(victim) if victim else 0), "fighter"  # the lowest token is stolen
    return 0, "nothing"


def test_shots_match_the_board_read_cell_by_cell():
    checked = 0

    def check(game, seat, action, error):
        nonlocal checked
        for k in range(game.n_players):
            view = GameView(game, k, np.random.default_rng(0))
            if view.me["position"] is None:
                continue
            shots = view.shots()
            assert [(c, r) for c, r, _, _ in shots] == view.destinations()
            for col, row, points, hits in shots:
                assert (points, hits) == _first_shot_by_cells(view, col, row)
                checked += 1

    seats = [CompiledSeat(greedy.policy, np.zeros(1)) for _ in range(4)]
    for seed in range(3):
        play_one_in_python(RULES, 4, seats, seed, on_turn=check)
    assert checked > 1000
