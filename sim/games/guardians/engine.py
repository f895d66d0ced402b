"""A whole turn of the Guardians of Space family: validated in full, then played.

`s` is the state (int32, layout.S_*), `p` the params (int64, layout.P_*), `a` one turn's action
(int32, layout.A_*). Nothing here allocates per cell; a turn is validated in full before any
change, so a refused turn leaves the state untouched. The rules it calls live beside it: the
board (board.py), the start (start.py), shots (shots.py), the mine (mine.py), the shop
(shop.py), descents and reinforcements (descent.py). Rules and rulings:
docs/games/guardians/rules.md.
"""

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.board import (
    at,
    bottom_cell_free,
    bottom_has_room,
    pl,
    players_in_game,
    put_fighter,
    reserve_points,
    set_cell,
)
from sim.games.guardians.descent import check_victory, descend
from sim.games.guardians.mine import mine_error, move_mine
from sim.games.guardians.shop import (
    buy,
    buy_turn_error,
    cheapest_payment,
    pay,
)
from sim.games.guardians.shots import fire, missile_error
from sim.jit import jit, jit_inline

# --- moving ------------------------------------------------------------------------------

# The lines a fighter flies along, the two horizontal ones first (GoS 99): all eight, or
# under movement.directions: horizontal the first two (lines).
LINE_COL = np.array([1, -1, 0, 0, 1, 1, -1, -1], np.int64)
LINE_ROW = np.array([0, 0, 1, -1, 1, -1, 1, -1], np.int64)


@jit_inline
def lines(p):
    """How many of LINE_COL/LINE_ROW a fighter may fly along under the ruleset."""
    return 2 if p[L.P_HORIZONTAL_ONLY] else 8


@jit_inline
def line_of(c0, r0, c1, r1):
    """The straight line from (c0, r0) to (c1, r1): (steps, dc, dr), its length and its step
    (-1, 0 or 1 in column and row); cell i of it is (c0 + i * dc, r0 + i * dr)."""
    return max(abs(c1 - c0), abs(r1 - r0)), np.sign(c1 - c0), np.sign(r1 - r0)


@jit_inline
def path_error(s, p, c0, r0, c1, r1):
    """Whether a fighter at (c0, r0) may fly straight to (c1, r1) over empty cells."""
    if c1 < 0 or c1 >= p[L.P_COLS] or r1 < 0 or r1 >= p[L.P_ROWS]:
        return L.E_MOVE_OFF_BOARD
    dc, dr = c1 - c0, r1 - r0
    if dc == 0 and dr == 0:
        return L.OK
    if p[L.P_HORIZONTAL_ONLY] and dr != 0:
        return L.E_MOVE_NOT_STRAIGHT
    if not (dc == 0 or dr == 0 or abs(dc) == abs(dr)):
        return L.E_MOVE_NOT_STRAIGHT
    steps, sc, sr = line_of(c0, r0, c1, r1)
    for i in range(1, steps + 1):
        if s[at(c0 + i * sc, r0 + i * sr)] != L.EMPTY:
            return L.E_MOVE_BLOCKED
    return L.OK


@jit
def on_path(c0, r0, c1, r1, c, r):
    """Whether (c, r) lies on the straight segment from (c0, r0) to (c1, r1), ends included."""
    steps, sc, sr = line_of(c0, r0, c1, r1)
    for i in range(steps + 1):
        if c0 + i * sc == c and r0 + i * sr == r:
            return True
    return False


# --- validation --------------------------------------------------------------------------


@jit
def can_reenter(s, p, seat):
    """Whether `seat`'s destroyed fighter may come back this turn: a free space in the bottom
    row and a reserve worth the fee (GoS 219). Otherwise it waits for room, or is out."""
    return (
        s[pl(seat, L.PL_STATUS)] == L.DESTROYED
        and bottom_has_room(s, p)
        and reserve_points(s, p, seat) >= p[L.P_REENTRY_COST]
    )


@jit_inline
def _shooting_error(s, p, seat, a, c0, r0):
    """Move, power-up, missile and mine of a shooting turn from the fighter's cell (c0, r0)."""
    c1, r1 = a[L.A_DEST_COL], a[L.A_DEST_ROW]
    err = path_error(s, p, c0, r0, c1, r1)
    if err != L.OK:
        return err
    sc, sr = c1, r1  # the cell of the first shot
    if a[L.A_PU_COL] >= 0:
        if s[pl(seat, L.PL_POWER)] != L.CHARGED:
            return L.E_POWER_UP_NONE
        if not on_path(c0, r0, c1, r1, a[L.A_PU_COL], a[L.A_PU_ROW]):
            return L.E_POWER_UP_CELL
        sc, sr = a[L.A_PU_COL], a[L.A_PU_ROW]
    if a[L.A_MISSILE]:
        if s[pl(seat, L.PL_MISSILE)] != L.HELD:
            return L.E_MISSILE_NONE
        # the fighter stands at (sc, sr) when firing: lift it from (c0, r0) for the check
        home = s[at(c0, r0)]
        set_cell(s, c0, r0, L.EMPTY)
        err = missile_error(s, p, seat, sc, sr)
        set_cell(s, c0, r0, home)
        if err != L.OK:
            return err
    if a[L.A_MINE]:
        return mine_error(s, p, seat, a, c1, r1)
    return L.OK


@jit_inline
def turn_error(s, p, a):
    """Why the turn `a` of the seat to move is refused, or OK."""
    if s[L.S_STATUS] != L.RUNNING:
        return L.E_GAME_OVER
    seat = s[L.S_TO_MOVE]
    status = s[pl(seat, L.PL_STATUS)]
    if status == L.OUT:
        return L.E_PLAYER_OUT
    c0, r0 = s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)]
    if status == L.DESTROYED:
        if a[L.A_REENTER_COL] < 0 or not can_reenter(s, p, seat):
            return L.OK  # it declines, cannot pay (out), or waits for room
        c0, r0 = a[L.A_REENTER_COL], 0
        if not bottom_cell_free(s, p, c0):
            return L.E_REENTER_CELL
    elif a[L.A_REENTER_COL] >= 0:
        return L.E_REENTER_NOT_DESTROYED
    if a[L.A_BUY] != L.BUY_NONE:
        return buy_turn_error(s, p, seat, a)
    if status == L.DESTROYED:
        set_cell(s, c0, r0, L.FIGHTER + seat)  # stand there for the path checks
        err = _shooting_error(s, p, seat, a, c0, r0)
        set_cell(s, c0, r0, L.EMPTY)
        return err
    return _shooting_error(s, p, seat, a, c0, r0)


# --- resolving a turn --------------------------------------------------------------------


@jit
def play_turn(s, p, a, buf):
    """Validate and play the whole turn `a` of the seat to move. `buf` is int64[N_KINDS]
    scratch. Returns OK or the refusal code (the state is then unchanged)."""
    err = turn_error(s, p, a)
    if err != L.OK:
        return err
    seat = s[L.S_TO_MOVE]
    s[pl(seat, L.PL_TURNS)] += 1
    s[L.S_EMPTIED] = 0
    if s[pl(seat, L.PL_STATUS)] == L.DESTROYED and not _reenter(s, p, seat, a, buf):
        _end_turn(s, p, seat, -1)
        return L.OK
    if a[L.A_BUY] != L.BUY_NONE:
        buy(s, p, seat, a, buf)
        _end_turn(s, p, seat, -1)
        return L.OK
    hit = _move_and_shoot(s, p, seat, a)
    if s[L.S_STATUS] == L.RUNNING and s[pl(seat, L.PL_STATUS)] == L.ACTIVE:
        if a[L.A_MINE] and s[L.S_MINE_ALIVE]:
            move_mine(s, p, seat, a[L.A_MINE_ROW])
        _end_of_turn_descent(s, p, seat)
    _end_turn(s, p, seat, hit)
    return L.OK


@jit
def _reenter(s, p, seat, a, buf):
    """A destroyed fighter returns (GoS 219). False if the turn ends here."""
    if not bottom_has_room(s, p):
        if p[L.P_NO_ROOM_OUT]:  # the switch: no cell to come back on, the player is out
            s[pl(seat, L.PL_STATUS)] = L.OUT
        return False  # ruling: waits for a free cell
    if a[L.A_REENTER_COL] < 0 or not cheapest_payment(s, p, seat, p[L.P_REENTRY_COST], buf):
        s[pl(seat, L.PL_STATUS)] = L.OUT
        return False
    pay(s, p, seat, buf)
    put_fighter(s, seat, a[L.A_REENTER_COL], 0)
    s[pl(seat, L.PL_REENTRIES)] += 1
    return True


@jit_inline
def _fly(s, seat, c1, r1):
    """Move the fighter straight to (c1, r1), stopping before a cell that is no longer empty."""
    c0, r0 = s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)]
    _, sc, sr = line_of(c0, r0, c1, r1)
    c, r = c0, r0
    while (c != c1 or r != r1) and s[at(c + sc, r + sr)] == L.EMPTY:
        c += sc
        r += sr
    set_cell(s, c0, r0, L.EMPTY)
    set_cell(s, c, r, L.FIGHTER + seat)
    s[pl(seat, L.PL_COL)] = c
    s[pl(seat, L.PL_ROW)] = r


@jit_inline
def _move_and_shoot(s, p, seat, a):
    """Move (with power-up shots on the way) and fire. Returns 1 if anything was hit."""
    missile = a[L.A_MISSILE] == 1
    hit = 0
    if a[L.A_PU_COL] >= 0:
        _fly(s, seat, a[L.A_PU_COL], a[L.A_PU_ROW])
        if not p[L.P_POWER_PERMANENT]:
            s[pl(seat, L.PL_POWER)] = L.USED
        s[pl(seat, L.PL_POWER_UPS_USED)] += 1
        for _ in range(s[pl(seat, L.PL_LEVEL)]):
            if not _can_fire(s, seat):
                return hit
            hit |= fire(s, p, seat, missile)
            missile = False
    if not _can_fire(s, seat):
        return hit
    _fly(s, seat, a[L.A_DEST_COL], a[L.A_DEST_ROW])
    for _ in range(s[pl(seat, L.PL_LEVEL)]):
        if not _can_fire(s, seat):
            return hit
        hit |= fire(s, p, seat, missile)
        missile = False
    return hit


@jit_inline
def _can_fire(s, seat):
    return s[L.S_STATUS] == L.RUNNING and s[pl(seat, L.PL_STATUS)] == L.ACTIVE


@jit_inline
def _end_of_turn_descent(s, p, seat):
    if s[L.S_EMPTIED] and s[L.S_STATUS] == L.RUNNING:
        s[L.S_EMPTIED] = 0
        descend(s, p, seat)
        check_victory(s, p)


@jit_inline
def _end_turn(s, p, seat, hit):
    """Stall bookkeeping (hit: 1 hit, 0 missed, -1 not a shooting turn) and the next seat."""
    s[L.S_TURN] += 1
    if s[L.S_STATUS] != L.RUNNING:
        return
    in_game = players_in_game(s)
    if in_game == 0:
        s[L.S_STATUS] = L.RAID  # nobody is left to defend the planet (ruling)
        return
    if hit == 1:
        s[L.S_STALL_RUN] = 0
    elif hit == 0:
        s[L.S_STALL_RUN] += 1
        limit = p[L.P_STALL_TURNS] if p[L.P_STALL_TURNS] > 0 else in_game
        if s[L.S_STALL_RUN] >= limit:
            s[L.S_STATUS] = L.STALL
            return
    if s[L.S_TURN] >= p[L.P_TURN_CAP]:
        s[L.S_STATUS] = L.CAP
        return
    n = s[L.S_N_PLAYERS]
    nxt = seat
    for _ in range(n):
        nxt = nxt + 1 if nxt + 1 < n else 0  # no division on every turn
        if s[pl(nxt, L.PL_STATUS)] != L.OUT:
            break
    if nxt <= seat:
        s[L.S_ROUND] += 1  # the seat order wrapped round
    s[L.S_TO_MOVE] = nxt


@jit
def winners_mask(s, p):
    """Bit k set if seat k wins: top score among players not out; none after a raid or cap."""
    if s[L.S_STATUS] != L.VICTORY and s[L.S_STATUS] != L.STALL:
        return 0
    best = -1
    mask = 0
    for seat in range(s[L.S_N_PLAYERS]):
        if s[pl(seat, L.PL_STATUS)] == L.OUT:
            continue
        pts = reserve_points(s, p, seat)
        if pts > best:
            best, mask = pts, 1 << seat
        elif pts == best:
            mask |= 1 << seat
    return mask
