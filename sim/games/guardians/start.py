"""The start of a game: the shuffled pile, the start rows, the fighters and the mine placed
(GoS 71-79)."""

from sim.games.guardians import layout as L
from sim.games.guardians.board import (
    at,
    bottom_cell_free,
    draw,
    pl,
    put_fighter,
    put_invader,
    set_cell,
)
from sim.games.guardians.mine import is_mine_space
from sim.jit import jit
from sim.random_streams import shuffle_range


@jit
def new_game(s, p, n_players, rng):
    """Shuffle the pile with stream 0 of `rng` and fill the start rows (GoS 71-75)."""
    s[:] = 0
    s[L.S_N_PLAYERS] = n_players
    n = 0
    for v in range(1, 6):
        for _ in range(p[L.P_MONSTERS + v - 1]):
            s[L.S_PILE + n] = v
            n += 1
    for _ in range(p[L.P_SHIPS]):
        s[L.S_PILE + n] = L.SHIP_L
        s[L.S_PILE + n + 1] = L.SHIP_R
        n += 2
    s[L.S_PILE_LEN] = n
    shuffle_range(rng, 0, s, L.S_PILE, L.S_PILE + n)
    _fill_start_rows(s, p, rng)
    for seat in range(n_players):
        s[pl(seat, L.PL_LEVEL)] = 1
        s[pl(seat, L.PL_STATUS)] = L.DESTROYED  # off the board until placed
        s[pl(seat, L.PL_COL)] = -1
    s[L.S_MINE_COL] = -1


@jit
def _fill_start_rows(s, p, rng):
    cols, rows = p[L.P_COLS], p[L.P_ROWS]
    left = 0
    right = 0
    for r in range(rows - 1, rows - 1 - p[L.P_START_ROWS], -1):
        for c in range(cols):
            while True:
                t = draw(s)
                if t == L.SHIP_L:
                    left += 1
                elif t == L.SHIP_R:
                    right += 1
                else:
                    put_invader(s, c, r, t)
                    break
    if p[L.P_SETUP_HALVES_BOX]:
        s[L.S_BOX + L.KIND_SHIP] += left + right
        return
    # put the halves back under the remaining pile, then reshuffle what is left
    top = s[L.S_PILE_TOP]
    n = s[L.S_PILE_LEN]
    for i in range(top, n):
        s[L.S_PILE + i - top] = s[L.S_PILE + i]
    n -= top
    for _ in range(left):
        s[L.S_PILE + n] = L.SHIP_L
        n += 1
    for _ in range(right):
        s[L.S_PILE + n] = L.SHIP_R
        n += 1
    s[L.S_PILE_TOP] = 0
    s[L.S_PILE_LEN] = n
    shuffle_range(rng, 0, s, L.S_PILE, L.S_PILE + n)


@jit
def place_fighter(s, p, seat, c):
    """Setup: put `seat`'s fighter on bottom-row column c (GoS 77)."""
    if not bottom_cell_free(s, p, c):
        return L.E_PLACE_CELL
    put_fighter(s, seat, c, 0)
    return L.OK


@jit
def place_mine(s, p, r):
    """Setup: the last placer puts the mine on mine space row r (GoS 79)."""
    if not p[L.P_MINE_ENABLED]:
        return L.OK
    c = p[L.P_MINE_COL]
    if not is_mine_space(p, r) or s[at(c, r)] != L.EMPTY:
        return L.E_MINE_START_CELL
    set_cell(s, c, r, L.MINE)
    s[L.S_MINE_ALIVE] = 1
    s[L.S_MINE_COL] = c
    s[L.S_MINE_ROW] = r
    return L.OK
