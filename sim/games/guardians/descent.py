"""Descents and reinforcements: an emptied column brings every invader one row down, with its
collisions and raids, then the top row is refilled from the pile (GoS 181-191, SD 85-87)."""

from sim.games.guardians import layout as L
from sim.games.guardians.board import (
    at,
    draw,
    is_invader,
    pile_size,
    pl,
    put_invader,
    remove_invader,
    set_cell,
    to_box,
)
from sim.jit import jit, jit_inline

# --- descents ----------------------------------------------------------------------------


@jit_inline
def destroy_fighter(s, p, seat):
    """An invader ran into `seat`'s fighter (GoS 217-219, SD 85)."""
    set_cell(s, s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)], L.EMPTY)
    s[pl(seat, L.PL_COL)] = -1
    s[pl(seat, L.PL_STATUS)] = L.OUT if p[L.P_DESTROYED_OUT] else L.DESTROYED
    s[pl(seat, L.PL_LOSSES)] += 1


@jit_inline
def _invader_down(s, p, c, r, actor):
    """Move the invader at (c, r) one row down, resolving collisions. False on a raid."""
    v = s[at(c, r)]
    if r == 0:
        return False  # it passes below the bottom row
    dst = s[at(c, r - 1)]
    if dst == L.EMPTY:
        set_cell(s, c, r, L.EMPTY)
        set_cell(s, c, r - 1, v)
        return not (r - 1 == 0 and p[L.P_RAID_ENTER_BOTTOM])
    # a collision: the invader (or the colliding half) is destroyed
    if v == L.SHIP_R and s[at(c - 1, r - 1)] == L.SHIP_L:
        set_cell(s, c - 1, r - 1, L.SHIP_DAMAGED)  # its left half already moved down
        set_cell(s, c, r, L.SHIP_DAMAGED)  # so remove_invader does not touch the old row
    remove_invader(s, c, r)
    to_box(s, v)
    if dst == L.MINE:
        set_cell(s, c, r - 1, L.EMPTY)
        s[L.S_MINE_ALIVE] = 0
        s[pl(actor, L.PL_MINE_EXPLOSIONS)] += 1
    else:
        destroy_fighter(s, p, dst - L.FIGHTER)
    # ruling: the colliding invader is gone and does not raid; the switch reads SD 87 literally
    return not (r - 1 == 0 and p[L.P_RAID_ENTER_BOTTOM] and p[L.P_RAID_ON_COLLISION])


@jit
def drop_rows_from(s, p, r_from, actor):
    """Every invader in rows >= r_from moves one row down, bottom rows first."""
    cols, rows = p[L.P_COLS], p[L.P_ROWS]
    filled = 0  # rows holding anything; a row only fills from above once it is done
    for c in range(cols):
        filled |= s[L.S_OCCUPIED + c]
    for r in range(r_from, rows):
        if not (filled >> r) & 1:
            continue
        for c in range(cols):
            if is_invader(s[at(c, r)]) and not _invader_down(s, p, c, r, actor):
                s[L.S_STATUS] = L.RAID
                return


@jit
def descend(s, p, actor):
    """Empty column: all invaders move one row down, then reinforcements (GoS 181-191)."""
    if p[L.P_DESCENT_NEEDS_FULL_ROW] and pile_size(s) < p[L.P_COLS]:
        return
    s[L.S_DESCENTS] += 1
    drop_rows_from(s, p, 0, actor)
    if s[L.S_STATUS] == L.RUNNING:
        reinforce(s, p)


# --- reinforcements ----------------------------------------------------------------------


@jit
def _free_pair(s, p, r):
    """Leftmost c with (c, r) and (c + 1, r) empty, or -1."""
    for c in range(p[L.P_COLS] - 1):
        if s[at(c, r)] == L.EMPTY and s[at(c + 1, r)] == L.EMPTY:
            return c
    return -1


@jit
def _place_ship(s, p, r):
    c = _free_pair(s, p, r)
    if c < 0:
        s[L.S_ASIDE_SHIPS] += 1
        return
    put_invader(s, c, r, L.SHIP_L)
    put_invader(s, c + 1, r, L.SHIP_R)
    s[L.S_REINFORCED] += 2


@jit
def reinforce(s, p):
    """Fill the top row from the pile, left to right; ship halves pair beside the board."""
    r = p[L.P_ROWS] - 1
    waiting = s[L.S_ASIDE_SHIPS]
    s[L.S_ASIDE_SHIPS] = 0
    for _ in range(waiting):  # complete ships waiting beside the board come first
        _place_ship(s, p, r)
    c = 0
    while True:
        while c < p[L.P_COLS] and s[at(c, r)] != L.EMPTY:
            c += 1
        if c == p[L.P_COLS] or pile_size(s) == 0:
            return
        t = draw(s)
        if t <= 5:
            put_invader(s, c, r, t)
            s[L.S_REINFORCED] += 1
        elif t == L.SHIP_L and s[L.S_ASIDE_R] > 0:
            s[L.S_ASIDE_R] -= 1
            _place_ship(s, p, r)
        elif t == L.SHIP_R and s[L.S_ASIDE_L] > 0:
            s[L.S_ASIDE_L] -= 1
            _place_ship(s, p, r)
        elif t == L.SHIP_L:
            s[L.S_ASIDE_L] += 1
        else:
            s[L.S_ASIDE_R] += 1


@jit_inline
def refill_pending(s, p):
    """Under end.victory: after_refill, an emptied board waits for the end-of-turn descent
    and refill (SD 67-73 read as judging after it); by the ruling it wins at once."""
    return p[L.P_VICTORY_AFTER_REFILL] and s[L.S_EMPTIED]


@jit_inline
def check_victory(s, p):
    """No invader left on the board after an action is resolved: the players win (GoS 260,
    SD 73), unless the end-of-turn refill is still to come (refill_pending)."""
    if s[L.S_INVADERS] == 0 and s[L.S_STATUS] == L.RUNNING and not refill_pending(s, p):
        s[L.S_STATUS] = L.VICTORY
