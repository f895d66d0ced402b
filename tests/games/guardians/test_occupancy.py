"""The occupancy index (one bit per board cell, kept by board.set_cell) against plain scans.

The token census (tests/games/guardians/test_invariants.py) checks the index against the board
after every
turn of whole games; these tests check the lookups built on it."""

import numpy as np

from sim.games.guardians import board as B
from sim.games.guardians import layout as L
from sim.games.guardians.ruleset import load_ruleset, to_params


def _first_object_row_by_scan(s, p, c, r):
    for rr in range(r + 1, int(p[L.P_ROWS])):
        if s[L.S_BOARD + rr * L.MAX_COLS + c] != L.EMPTY:
            return rr
    return -1


def test_lowest_bit_names_the_lowest_set_bit():
    for m in range(1, 1 << (L.MAX_ROWS + 2)):
        assert B.lowest_bit(m) == (m & -m).bit_length() - 1


def test_first_object_row_matches_a_scan_on_random_boards():
    p = to_params(load_ruleset("guardians").values)
    gen = np.random.default_rng(7)
    for _ in range(200):
        s = np.zeros(L.STATE_SIZE, np.int32)
        cells = gen.integers(0, L.FIGHTER + 2, (L.MAX_ROWS, L.MAX_COLS))
        cells[gen.random(cells.shape) < 0.6] = L.EMPTY
        cells[int(p[L.P_ROWS]) :] = L.EMPTY
        s[L.S_BOARD : L.S_BOARD + cells.size] = cells.ravel()
        B.rebuild_occupancy(s)
        for c in range(int(p[L.P_COLS])):
            for r in range(-1, int(p[L.P_ROWS])):
                assert B.first_object_row(s, p, c, r) == _first_object_row_by_scan(s, p, c, r)


def test_set_cell_keeps_the_index_in_step_with_the_board():
    s = np.zeros(L.STATE_SIZE, np.int32)
    gen = np.random.default_rng(3)
    for _ in range(2000):
        c, r = int(gen.integers(L.MAX_COLS)), int(gen.integers(L.MAX_ROWS))
        B.set_cell(s, c, r, int(gen.choice([L.EMPTY, 3, L.MINE, L.FIGHTER])))
        rebuilt = s.copy()
        B.rebuild_occupancy(rebuilt)
        assert np.array_equal(s[L.S_OCCUPIED :], rebuilt[L.S_OCCUPIED :])
