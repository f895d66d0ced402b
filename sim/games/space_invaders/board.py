"""The board as geometry: where each invader space lies, what a token landing at (x, y) is on,
which cards a blast wave reaches, which spaces are neighbours.

Coordinates are millimetres, x to the right from the board's left edge, y up from its bottom
edge (the planet side); the UFO sits above the top edge (line 142). The engine and the
strategies' predictions ask these same functions.
"""

import math

from sim.games.space_invaders import layout as L
from sim.jit import jit_inline


@jit_inline
def cell_x0(p, cell):
    """Left edge of the space of `cell`."""
    return p[L.P_GRID_X0] + (cell % L.COLS) * p[L.P_PITCH_X]


@jit_inline
def cell_y0(p, cell):
    """Bottom edge of the space of `cell` (row 0 is the top row)."""
    return p[L.P_GRID_Y0] + (L.ROWS - 1 - cell // L.COLS) * p[L.P_PITCH_Y]


@jit_inline
def cell_center_x(p, cell):
    return cell_x0(p, cell) + 0.5 * p[L.P_CARD_W]


@jit_inline
def cell_center_y(p, cell):
    return cell_y0(p, cell) + 0.5 * p[L.P_CARD_H]


@jit_inline
def ufo_center_x(p):
    return 0.5 * (p[L.P_UFO_X0] + p[L.P_UFO_X1])


@jit_inline
def ufo_center_y(p):
    return 0.5 * (p[L.P_UFO_Y0] + p[L.P_UFO_Y1])


@jit_inline
def gap_to_card(p, cell, x, y):
    """Distance from (x, y) to the nearest point of the card in `cell` (0 inside it)."""
    x0 = cell_x0(p, cell)
    y0 = cell_y0(p, cell)
    dx = max(x0 - x, 0.0, x - (x0 + p[L.P_CARD_W]))
    dy = max(y0 - y, 0.0, y - (y0 + p[L.P_CARD_H]))
    return math.sqrt(dx * dx + dy * dy)


@jit_inline
def token_on_card(p, cell, x, y):
    """A token is on a card if its disc covers part of it, not just touching the edge (line
    218); with P_HIT_CENTER, only if its centre is on the card."""
    if p[L.P_HIT_CENTER] != 0.0:
        return gap_to_card(p, cell, x, y) == 0.0
    return gap_to_card(p, cell, x, y) < p[L.P_TOKEN_R]


@jit_inline
def cells_under(s, p, x, y):
    """Bit mask of the invader cards a token at (x, y) is on (line 216: all of them)."""
    reach = p[L.P_TOKEN_R]
    first_col = max(0, int(math.floor((x - reach - p[L.P_GRID_X0]) / p[L.P_PITCH_X])))
    last_col = min(L.COLS - 1, int(math.floor((x + reach - p[L.P_GRID_X0]) / p[L.P_PITCH_X])))
    low_row = int(math.floor((y - reach - p[L.P_GRID_Y0]) / p[L.P_PITCH_Y]))  # counted upwards
    high_row = int(math.floor((y + reach - p[L.P_GRID_Y0]) / p[L.P_PITCH_Y]))
    mask = 0
    for up in range(max(0, low_row), min(L.ROWS - 1, high_row) + 1):
        row = L.ROWS - 1 - up
        for col in range(first_col, last_col + 1):
            cell = row * L.COLS + col
            if s[L.S_BOARD + cell] != 0 and token_on_card(p, cell, x, y):
                mask |= 1 << cell
    return mask


@jit_inline
def in_ufo(p, x, y):
    """The token's centre is inside the UFO's opening (line 332: "lands inside the UFO")."""
    return p[L.P_UFO_X0] <= x <= p[L.P_UFO_X1] and p[L.P_UFO_Y0] <= y <= p[L.P_UFO_Y1]


@jit_inline
def in_planet_area(p, y):
    """Completely below the top line of the dotted section (line 206); a token off the table
    behind the shooter counts too (FAQ, line 453)."""
    return y + p[L.P_TOKEN_R] <= p[L.P_PLANET_LINE]


@jit_inline
def classify(s, p, x, y):
    """(ON_CARDS | IN_UFO | IN_PLANET | MISS, mask of the cards the token is on)."""
    mask = cells_under(s, p, x, y)
    if mask != 0:
        return L.ON_CARDS, mask
    if in_ufo(p, x, y):
        return L.IN_UFO, 0
    if in_planet_area(p, y):
        return L.IN_PLANET, 0
    return L.MISS, 0


@jit_inline
def wave_reaches(p, cell, x, y, length):
    """A blast wave card laid with one end against the token reaches the card in `cell` if
    its other end touches it (lines 411, 424): the card lies within `length` of the token's
    edge."""
    return gap_to_card(p, cell, x, y) <= p[L.P_TOKEN_R] + length


@jit_inline
def adjacent(a, b):
    """Orthogonal neighbours (above, below, left, right; not diagonal; line 376)."""
    ra, ca = a // L.COLS, a % L.COLS
    rb, cb = b // L.COLS, b % L.COLS
    return (ra == rb and abs(ca - cb) == 1) or (ca == cb and abs(ra - rb) == 1)


@jit_inline
def neighbours_mask(cell):
    """Bit mask of the orthogonal neighbours of `cell` on the 5 x 4 grid."""
    row, col = cell // L.COLS, cell % L.COLS
    mask = 0
    if row > 0:
        mask |= 1 << (cell - L.COLS)
    if row < L.ROWS - 1:
        mask |= 1 << (cell + L.COLS)
    if col > 0:
        mask |= 1 << (cell - 1)
    if col < L.COLS - 1:
        mask |= 1 << (cell + 1)
    return mask


@jit_inline
def popcount(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@jit_inline
def lowest_bit(mask):
    """Index of the lowest set bit (mask > 0)."""
    index = 0
    while (mask & 1) == 0:
        mask >>= 1
        index += 1
    return index
