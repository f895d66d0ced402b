"""The invaders advance (lines 238-258): the rightmost column first, in each column the invader
nearest the planet first; each moves by the speed icon of its card.

`march` works on any board array (the state's, or a strategy's copy for a prediction) and
lists the cards that moved past the last space into the planet area.
"""

from sim.games.space_invaders.layout import COLS, P_CARD_SPEED, ROWS
from sim.jit import jit_inline


@jit_inline
def _into_planet(b, base, row, col, crashed, n):
    """The card at (row, col) leaves the board for the planet area; returns the new count."""
    crashed[n] = b[base + row * COLS + col]
    b[base + row * COLS + col] = 0
    return n + 1


@jit_inline
def _push_down(b, base, row, col, crashed, n):
    """Push the block of invaders from `row` down one space (speed 2, line 251): the lowest of
    them may be pushed into the planet area. Returns the new crash count."""
    bottom = row
    while bottom + 1 < ROWS and b[base + (bottom + 1) * COLS + col] != 0:
        bottom += 1
    for r in range(bottom, row - 1, -1):
        if r + 1 >= ROWS:
            n = _into_planet(b, base, r, col, crashed, n)
        else:
            b[base + (r + 1) * COLS + col] = b[base + r * COLS + col]
            b[base + r * COLS + col] = 0
    return n


@jit_inline
def move_invader(b, base, row, col, speed, crashed, n):
    """Move the invader at (row, col) by `speed`; returns the crash count after it.

    1: one space down (line 250). 2: two spaces, pushing the invaders in front down (line 251).
    3: down until blocked by another invader; with nothing in front, past the last space into
    the planet area (line 252). Invaders in the planet area block nothing (line 256)."""
    if speed == 3:
        r = row
        while True:
            if r + 1 >= ROWS:
                return _into_planet(b, base, row, col, crashed, n)
            if b[base + (r + 1) * COLS + col] != 0:
                break
            r += 1
        if r != row:
            b[base + r * COLS + col] = b[base + row * COLS + col]
            b[base + row * COLS + col] = 0
        return n
    r = row
    for _ in range(speed):
        if r + 1 >= ROWS:
            return _into_planet(b, base, r, col, crashed, n)
        if b[base + (r + 1) * COLS + col] != 0:
            if speed == 1:
                break  # a speed-1 invader does not push (never happens: see docs)
            n = _push_down(b, base, r + 1, col, crashed, n)
        b[base + (r + 1) * COLS + col] = b[base + r * COLS + col]
        b[base + r * COLS + col] = 0
        r += 1
    return n


@jit_inline
def march(b, base, p, all_speed_3, crashed, n):
    """Advance every invader of the board b[base:base + N_CELLS] once (an invader pushed
    forward does not move again, FAQ line 450); `all_speed_3` for the last round (line 310).
    Appends the card numbers (index + 1) that reached the planet to crashed[n:]; returns the
    new end."""
    for col in range(COLS - 1, -1, -1):
        for row in range(ROWS - 1, -1, -1):
            card = b[base + row * COLS + col]
            if card == 0:
                continue
            speed = 3 if all_speed_3 else int(p[P_CARD_SPEED + card - 1])
            n = move_invader(b, base, row, col, speed, crashed, n)
    return n
