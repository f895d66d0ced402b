"""The board and the state's bookkeeping: cells, the occupancy index, players' blocks,
tokens onto and off the board, the pile. Every rule module reads and writes the state through
these. `s` is the state (int32, layout.S_*), `p` the params (int64, layout.P_*).
"""

import numpy as np

from sim.games.guardians import layout as L
from sim.jit import jit, jit_inline

# --- cells, the occupancy index, players ------------------------------------------------


@jit
def at(c, r):
    return L.S_BOARD + r * L.MAX_COLS + c


# The lowest set bit of an occupancy word, by de Bruijn multiplication: (m & -m) * _DE_BRUIJN
# has a distinct top 5 bits (of 32) for each power of two, so a 32-entry table (256 bytes)
# names the bit; a table over every word would be 32 KB and crowd the cache.
_DE_BRUIJN = 0x077CB531
_BIT_OF = np.zeros(32, np.int64)
for _k in range(32):
    _BIT_OF[(((1 << _k) * _DE_BRUIJN) >> 27) & 31] = _k


@jit_inline
def lowest_bit(m):
    """Index of the lowest set bit of m (0 < m < 2**32)."""
    return _BIT_OF[(((m & -m) * _DE_BRUIJN) >> 27) & 31]


@jit
def set_cell(s, c, r, v):
    """Write cell (c, r); every board write goes through here to keep S_OCCUPIED in step."""
    s[at(c, r)] = v
    if v == L.EMPTY:
        s[L.S_OCCUPIED + c] &= ~(1 << r)
    else:
        s[L.S_OCCUPIED + c] |= 1 << r


@jit
def occupancy_of(s, c):
    """Column c's occupancy word, read from the board cell by cell."""
    bits = 0
    for r in range(L.MAX_ROWS):
        if s[at(c, r)] != L.EMPTY:
            bits |= 1 << r
    return bits


@jit
def rebuild_occupancy(s):
    """Recompute the occupancy index from the board (after writing cells directly)."""
    for c in range(L.MAX_COLS):
        s[L.S_OCCUPIED + c] = occupancy_of(s, c)


@jit_inline
def first_object_row(s, p, c, r):
    """Row of the first object above (c, r), or -1 (r may be -1: from below the board)."""
    above = s[L.S_OCCUPIED + c] >> (r + 1)
    if above == 0:
        return -1
    return r + 1 + lowest_bit(above)


@jit
def pl(seat, field):
    return L.S_PLAYERS + seat * L.PL_SIZE + field


@jit
def is_invader(v):
    return 1 <= v <= L.SHIP_DAMAGED


@jit
def kind_points(p, kind):
    return p[L.P_SHIP_POINTS] if kind == L.KIND_SHIP else kind


@jit
def token_kind(v):
    """Reserve/box kind of a board token or pile token."""
    return v if v <= 5 else L.KIND_SHIP


@jit_inline
def points_in_reserve(s, p, seat):
    """The points of `seat`'s reserve (its score), pasted into the caller: the game loop
    records every seat's after every turn."""
    total = 0
    for k in range(1, L.N_KINDS):
        total += s[pl(seat, L.PL_RESERVE + k)] * kind_points(p, k)
    return total


@jit
def reserve_points(s, p, seat):
    return points_in_reserve(s, p, seat)


@jit_inline
def players_in_game(s):
    n = 0
    for seat in range(s[L.S_N_PLAYERS]):
        if s[pl(seat, L.PL_STATUS)] != L.OUT:
            n += 1
    return n


@jit
def bottom_cell_free(s, p, c):
    """Whether a fighter may enter the board on bottom-row column c, at the start or coming
    back: an empty space of the bottom row (GoS 77, 219)."""
    return 0 <= c < p[L.P_COLS] and s[at(c, 0)] == L.EMPTY


@jit
def bottom_has_room(s, p):
    for c in range(p[L.P_COLS]):
        if bottom_cell_free(s, p, c):
            return True
    return False


# --- tokens on the board -----------------------------------------------------------------


@jit
def draw(s):
    t = s[L.S_PILE + s[L.S_PILE_TOP]]
    s[L.S_PILE_TOP] += 1
    return t


@jit
def pile_size(s):
    return s[L.S_PILE_LEN] - s[L.S_PILE_TOP]


@jit
def put_invader(s, c, r, v):
    set_cell(s, c, r, v)
    s[L.S_COL_COUNT + c] += 1
    s[L.S_INVADERS] += 1


@jit_inline
def remove_invader(s, c, r):
    """Take the invader at (c, r) off the board; an intact ship's partner becomes damaged.

    Returns True when this emptied the column.
    """
    v = s[at(c, r)]
    set_cell(s, c, r, L.EMPTY)
    if v == L.SHIP_L:
        set_cell(s, c + 1, r, L.SHIP_DAMAGED)
    elif v == L.SHIP_R:
        set_cell(s, c - 1, r, L.SHIP_DAMAGED)
    s[L.S_COL_COUNT + c] -= 1
    s[L.S_INVADERS] -= 1
    return s[L.S_COL_COUNT + c] == 0


@jit_inline
def to_box(s, v):
    s[L.S_BOX + token_kind(v)] += 1


@jit
def put_fighter(s, seat, c, r):
    set_cell(s, c, r, L.FIGHTER + seat)
    s[pl(seat, L.PL_COL)] = c
    s[pl(seat, L.PL_ROW)] = r
    s[pl(seat, L.PL_STATUS)] = L.ACTIVE
