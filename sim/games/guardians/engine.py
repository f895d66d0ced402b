"""The rules of the Guardians of Space family as compiled functions on plain arrays.

`s` is the state (int32, layout.S_*), `p` the params (int64, layout.P_*), `a` one turn's action
(int32, layout.A_*). Nothing here allocates per cell; a turn is validated in full before any
change, so a refused turn leaves the state untouched. Rules and rulings: docs/rules.md.
"""

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.rng import shuffle_range
from sim.jit import jit, jit_allocating, jit_inline

# --- small accessors ---------------------------------------------------------------------


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


@jit
def reserve_points(s, p, seat):
    total = 0
    for k in range(1, L.N_KINDS):
        total += s[pl(seat, L.PL_RESERVE + k)] * kind_points(p, k)
    return total


@jit_inline
def players_in_game(s):
    n = 0
    for seat in range(s[L.S_N_PLAYERS]):
        if s[pl(seat, L.PL_STATUS)] != L.OUT:
            n += 1
    return n


# --- setup ---------------------------------------------------------------------------------


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
    if c < 0 or c >= p[L.P_COLS] or s[at(c, 0)] != L.EMPTY:
        return L.E_PLACE_CELL
    _put_fighter(s, seat, c, 0)
    return L.OK


@jit
def place_mine(s, p, r):
    """Setup: the last placer puts the mine on mine space row r (GoS 79)."""
    if not p[L.P_MINE_ENABLED]:
        return L.OK
    c = p[L.P_MINE_COL]
    if r < p[L.P_MINE_ROW_FIRST] or r > p[L.P_MINE_ROW_LAST] or s[at(c, r)] != L.EMPTY:
        return L.E_MINE_START_CELL
    set_cell(s, c, r, L.MINE)
    s[L.S_MINE_ALIVE] = 1
    s[L.S_MINE_COL] = c
    s[L.S_MINE_ROW] = r
    return L.OK


@jit
def _put_fighter(s, seat, c, r):
    set_cell(s, c, r, L.FIGHTER + seat)
    s[pl(seat, L.PL_COL)] = c
    s[pl(seat, L.PL_ROW)] = r
    s[pl(seat, L.PL_STATUS)] = L.ACTIVE


# --- tokens on the board -------------------------------------------------------------------


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
def _to_box(s, v):
    s[L.S_BOX + token_kind(v)] += 1


@jit_inline
def _take(s, p, seat, v):
    """The shooter collects token v; returns its points."""
    k = token_kind(v)
    s[pl(seat, L.PL_RESERVE + k)] += 1
    s[pl(seat, L.PL_TAKEN + k)] += 1
    return kind_points(p, k)


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
    _to_box(s, v)
    if dst == L.MINE:
        set_cell(s, c, r - 1, L.EMPTY)
        s[L.S_MINE_ALIVE] = 0
        s[pl(actor, L.PL_MINE_EXPLOSIONS)] += 1
    else:
        destroy_fighter(s, p, dst - L.FIGHTER)
    # ruling: the colliding invader is gone and does not raid; the switch reads SD 87 literally
    return not (r - 1 == 0 and p[L.P_RAID_ENTER_BOTTOM] and p[L.P_RAID_ON_COLLISION])


@jit
def _drop_rows_from(s, p, r_from, actor):
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
    _drop_rows_from(s, p, 0, actor)
    if s[L.S_STATUS] == L.RUNNING:
        reinforce(s, p)


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


# --- paying ------------------------------------------------------------------------------


@jit_allocating
def cheapest_payment(s, p, seat, price, out):
    """Fill out[1..6] with the tokens to pay `price`: least overpayment, then fewest tokens,
    then keep the most high-valued tokens. Returns False if the reserve is worth too little.
    """
    for k in range(L.N_KINDS):
        out[k] = 0
    if price <= 0:
        return True
    if reserve_points(s, p, seat) < price:
        return False
    top = price + max(p[L.P_SHIP_POINTS], 5)  # a minimal overpayment is below price + max value
    big = 1 << 20
    # best[k, t]: fewest tokens of kinds 1..k summing to exactly t
    best = np.full((L.N_KINDS, top + 1), big, np.int64)
    best[0, 0] = 0
    for k in range(1, L.N_KINDS):
        v = kind_points(p, k)
        have = s[pl(seat, L.PL_RESERVE + k)]
        for t in range(top + 1):
            m = best[k - 1, t]
            j = 1
            while j <= have and j * v <= t:
                cand = best[k - 1, t - j * v] + j
                if cand < m:
                    m = cand
                j += 1
            best[k, t] = m
    total = -1
    for t in range(price, top + 1):
        if best[L.N_KINDS - 1, t] < big:
            total = t
            break
    if total < 0:
        return False
    # walk back from the most valuable kind, using as few of it as the optimum allows
    rem = total
    for k in range(L.N_KINDS - 1, 0, -1):
        v = kind_points(p, k)
        goal = best[k, rem]
        j = 0
        while best[k - 1, rem - j * v] + j != goal:
            j += 1
        out[k] = j
        rem -= j * v
    return True


@jit
def _explicit_payment_ok(s, p, seat, a, price):
    worth = 0
    for k in range(1, L.N_KINDS):
        n = a[L.A_PAY + k]
        if n < 0 or n > s[pl(seat, L.PL_RESERVE + k)]:
            return False
        worth += n * kind_points(p, k)
    return worth >= price


@jit
def _pay(s, p, seat, tokens):
    for k in range(1, L.N_KINDS):
        n = tokens[k]
        s[pl(seat, L.PL_RESERVE + k)] -= n
        s[L.S_BOX + k] += n
        s[pl(seat, L.PL_POINTS_PAID)] += n * kind_points(p, k)


# --- validation --------------------------------------------------------------------------


@jit
def bottom_has_room(s, p):
    for c in range(p[L.P_COLS]):
        if s[at(c, 0)] == L.EMPTY:
            return True
    return False


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
    sc, sr = np.sign(dc), np.sign(dr)
    steps = max(abs(dc), abs(dr))
    for i in range(1, steps + 1):
        if s[at(c0 + i * sc, r0 + i * sr)] != L.EMPTY:
            return L.E_MOVE_BLOCKED
    return L.OK


@jit
def on_path(c0, r0, c1, r1, c, r):
    """Whether (c, r) lies on the straight segment from (c0, r0) to (c1, r1), ends included."""
    steps = max(abs(c1 - c0), abs(r1 - r0))
    sc, sr = np.sign(c1 - c0), np.sign(r1 - r0)
    for i in range(steps + 1):
        if c0 + i * sc == c and r0 + i * sr == r:
            return True
    return False


@jit_inline
def first_object_row(s, p, c, r):
    """Row of the first object above (c, r), or -1 (r may be -1: from below the board)."""
    above = s[L.S_OCCUPIED + c] >> (r + 1)
    if above == 0:
        return -1
    return r + 1 + lowest_bit(above)


@jit
def _missile_error(s, p, seat, c, r):
    """The missile fired from (c, r), with the shooter's fighter standing at (c, r)."""
    tr = first_object_row(s, p, c, r)
    if tr < 0 or not is_invader(s[at(c, tr)]):
        return L.E_MISSILE_NO_INVADER
    for cc in range(p[L.P_COLS]):
        v = s[at(cc, tr)]
        if v >= L.FIGHTER and v != L.FIGHTER + seat:
            return L.E_MISSILE_ROW_FIGHTER
    return L.OK


@jit
def _mine_error(s, p, seat, a, fc, fr):
    """The mine move, with the mover's fighter at (fc, fr) instead of where it stands now."""
    if not s[L.S_MINE_ALIVE]:
        return L.E_MINE_NONE
    c, r = s[L.S_MINE_COL], s[L.S_MINE_ROW]
    for _ in range(p[L.P_MINE_STEP]):
        wrapped = c + 1 >= p[L.P_COLS]
        if wrapped:
            c, r = p[L.P_MINE_COL], a[L.A_MINE_ROW]
            if r < p[L.P_MINE_ROW_FIRST] or r > p[L.P_MINE_ROW_LAST]:
                return L.E_MINE_REENTER_ROW
        else:
            c += 1
        v = s[at(c, r)]
        if (c == fc and r == fr) or (v >= L.FIGHTER and v != L.FIGHTER + seat):
            return L.E_MINE_INTO_FIGHTER
        if is_invader(v) or wrapped:
            return L.OK  # it explodes, or has re-entered: the move ends
    return L.OK


@jit
def _buy_error(s, p, seat, a):
    kind = a[L.A_BUY]
    if a[L.A_DEST_COL] != s[pl(seat, L.PL_COL)] or a[L.A_DEST_ROW] != s[pl(seat, L.PL_ROW)]:
        return L.E_BUY_TAKES_TURN
    if a[L.A_MISSILE] or a[L.A_MINE] or a[L.A_PU_COL] >= 0:
        return L.E_BUY_TAKES_TURN
    if kind == L.BUY_MISSILE:
        if not p[L.P_MISSILE_ENABLED]:
            return L.E_BUY_DISABLED
        if s[pl(seat, L.PL_MISSILE)] != L.NONE:
            return L.E_BUY_LIMIT
    elif kind == L.BUY_UPGRADE:
        if not p[L.P_UPGRADE_ENABLED]:
            return L.E_BUY_DISABLED
        if s[pl(seat, L.PL_LEVEL)] >= p[L.P_MAX_LEVEL]:
            return L.E_BUY_LIMIT
    else:
        if not p[L.P_POWER_ENABLED]:
            return L.E_BUY_DISABLED
        if s[pl(seat, L.PL_POWER)] != L.NONE:
            return L.E_BUY_LIMIT
    price = price_of(p, kind)
    if a[L.A_PAY_EXPLICIT]:
        return L.OK if _explicit_payment_ok(s, p, seat, a, price) else L.E_PAY_INVALID
    return L.OK if reserve_points(s, p, seat) >= price else L.E_CANNOT_PAY


@jit
def price_of(p, kind):
    if kind == L.BUY_MISSILE:
        return p[L.P_MISSILE_COST]
    if kind == L.BUY_UPGRADE:
        return p[L.P_UPGRADE_COST]
    return p[L.P_POWER_COST]


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
        err = _missile_error(s, p, seat, sc, sr)
        set_cell(s, c0, r0, home)
        if err != L.OK:
            return err
    if a[L.A_MINE]:
        return _mine_error(s, p, seat, a, c1, r1)
    return L.OK


@jit_allocating
def _buy_after_reentry_error(s, p, seat, a, c0):
    """A purchase on a re-entry turn, checked as if the fighter stood at (c0, 0) and had
    paid for its return already."""
    fee = np.zeros(L.N_KINDS, np.int64)
    cheapest_payment(s, p, seat, p[L.P_REENTRY_COST], fee)
    for k in range(1, L.N_KINDS):
        s[pl(seat, L.PL_RESERVE + k)] -= fee[k]
    s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)] = c0, 0
    err = _buy_error(s, p, seat, a)
    s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)] = -1, 0
    for k in range(1, L.N_KINDS):
        s[pl(seat, L.PL_RESERVE + k)] += fee[k]
    return err


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
        if not bottom_has_room(s, p) or a[L.A_REENTER_COL] < 0:
            return L.OK  # the player waits, or declines and is out
        if reserve_points(s, p, seat) < p[L.P_REENTRY_COST]:
            return L.OK  # cannot pay: out (GoS 219)
        c0, r0 = a[L.A_REENTER_COL], 0
        if c0 >= p[L.P_COLS] or s[at(c0, 0)] != L.EMPTY:
            return L.E_REENTER_CELL
    elif a[L.A_REENTER_COL] >= 0:
        return L.E_REENTER_NOT_DESTROYED
    if a[L.A_BUY] != L.BUY_NONE:
        if status == L.DESTROYED:
            return _buy_after_reentry_error(s, p, seat, a, c0)
        return _buy_error(s, p, seat, a)
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
        _buy(s, p, seat, a, buf)
        _end_turn(s, p, seat, -1)
        return L.OK
    hit = _move_and_shoot(s, p, seat, a)
    if s[L.S_STATUS] == L.RUNNING and s[pl(seat, L.PL_STATUS)] == L.ACTIVE:
        if a[L.A_MINE] and s[L.S_MINE_ALIVE]:
            _move_mine(s, p, seat, a[L.A_MINE_ROW])
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
    _pay(s, p, seat, buf)
    _put_fighter(s, seat, a[L.A_REENTER_COL], 0)
    s[pl(seat, L.PL_REENTRIES)] += 1
    return True


@jit
def _buy(s, p, seat, a, buf):
    kind = a[L.A_BUY]
    if a[L.A_PAY_EXPLICIT]:
        for k in range(L.N_KINDS):
            buf[k] = a[L.A_PAY + k] if k > 0 else 0
    else:
        cheapest_payment(s, p, seat, price_of(p, kind), buf)
    _pay(s, p, seat, buf)
    if kind == L.BUY_MISSILE:
        s[pl(seat, L.PL_MISSILE)] = L.HELD
        s[pl(seat, L.PL_MISSILES_BOUGHT)] += 1
    elif kind == L.BUY_UPGRADE:
        s[pl(seat, L.PL_LEVEL)] += 1
        s[pl(seat, L.PL_UPGRADES_BOUGHT)] += 1
    else:
        s[pl(seat, L.PL_POWER)] = L.CHARGED
        s[pl(seat, L.PL_POWER_UPS_BOUGHT)] += 1


@jit_inline
def _fly(s, seat, c1, r1):
    """Move the fighter straight to (c1, r1), stopping before a cell that is no longer empty."""
    c0, r0 = s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)]
    sc, sr = np.sign(c1 - c0), np.sign(r1 - r0)
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
            hit |= _fire(s, p, seat, missile)
            missile = False
    if not _can_fire(s, seat):
        return hit
    _fly(s, seat, a[L.A_DEST_COL], a[L.A_DEST_ROW])
    for _ in range(s[pl(seat, L.PL_LEVEL)]):
        if not _can_fire(s, seat):
            return hit
        hit |= _fire(s, p, seat, missile)
        missile = False
    return hit


@jit_inline
def _can_fire(s, seat):
    return s[L.S_STATUS] == L.RUNNING and s[pl(seat, L.PL_STATUS)] == L.ACTIVE


@jit_inline
def _fire(s, p, seat, missile):
    """One shot (or the missile) up the fighter's column, then the empty-column check."""
    c, r = s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)]
    s[pl(seat, L.PL_SHOTS)] += 1
    tr = first_object_row(s, p, c, r)
    if tr < 0:
        return 0
    v = s[at(c, tr)]
    if v == L.MINE:
        return 0
    if v >= L.FIGHTER and p[L.P_EMPTY_FIGHTER_MISS] and reserve_points(s, p, v - L.FIGHTER) == 0:
        return 0  # shot.empty_fighter: miss (a what-if against endless games)
    s[pl(seat, L.PL_HITS)] += 1
    if missile:
        _missile(s, p, seat, tr)
    elif v >= L.FIGHTER:
        _steal(s, p, seat, v - L.FIGHTER)
    else:
        if v <= 5 or v == L.SHIP_DAMAGED:
            _take(s, p, seat, v)
        else:
            _to_box(s, v)  # an intact ship loses the half hit, no points (GoS 120)
        if remove_invader(s, c, tr):
            s[L.S_EMPTIED] = 1
            if not p[L.P_DESCENT_END_OF_TURN]:
                s[L.S_EMPTIED] = 0
                descend(s, p, seat)
    if s[L.S_INVADERS] == 0 and s[L.S_STATUS] == L.RUNNING and not refill_pending(s, p):
        s[L.S_STATUS] = L.VICTORY
    return 1


@jit_inline
def refill_pending(s, p):
    """Under end.victory: after_refill, an emptied board waits for the end-of-turn descent
    and refill (SD 67-73 read as judging after it); by the ruling it wins at once."""
    return p[L.P_VICTORY_AFTER_REFILL] and s[L.S_EMPTIED]


@jit_inline
def _steal(s, p, thief, victim):
    """Take the victim's lowest (or, by the switch, highest) valued token (GoS 136)."""
    s[pl(thief, L.PL_STEALS_MADE)] += 1
    s[pl(victim, L.PL_STEALS_SUFFERED)] += 1
    best = -1
    for k in range(1, L.N_KINDS):
        if s[pl(victim, L.PL_RESERVE + k)] == 0:
            continue
        if (
            best < 0
            or p[L.P_STEAL_HIGHEST]
            and kind_points(p, k) > kind_points(p, best)
            or not p[L.P_STEAL_HIGHEST]
            and kind_points(p, k) < kind_points(p, best)
        ):
            best = k
    if best > 0:
        s[pl(victim, L.PL_RESERVE + best)] -= 1
        s[pl(thief, L.PL_RESERVE + best)] += 1


@jit
def _missile(s, p, seat, tr):
    """The whole row tr goes to the shooter; rows above drop; reinforcements (GoS 231-239)."""
    s[pl(seat, L.PL_MISSILE)] = L.USED
    s[pl(seat, L.PL_MISSILES_FIRED)] += 1
    points = 0
    for c in range(p[L.P_COLS]):
        v = s[at(c, tr)]
        if not is_invader(v):
            continue
        if v == L.SHIP_L:  # one half to the shooter, the other to the box (GoS 236)
            points += _take(s, p, seat, L.SHIP_DAMAGED)
            _to_box(s, L.SHIP_R)
            remove_invader(s, c + 1, tr)
            set_cell(s, c, tr, L.SHIP_DAMAGED)  # its partner is gone: remove it as a lone half
        else:
            points += _take(s, p, seat, v)
        remove_invader(s, c, tr)
    s[pl(seat, L.PL_MISSILE_POINTS)] += points
    _drop_rows_from(s, p, tr + 1, seat)
    if s[L.S_STATUS] == L.RUNNING:
        reinforce(s, p)


@jit
def _move_mine(s, p, seat, reenter_row):
    """The mine moves right; off the edge it re-enters; into an invader it explodes."""
    c, r = s[L.S_MINE_COL], s[L.S_MINE_ROW]
    for _ in range(p[L.P_MINE_STEP]):
        set_cell(s, c, r, L.EMPTY)
        wrapped = c + 1 >= p[L.P_COLS]
        c, r = (p[L.P_MINE_COL], reenter_row) if wrapped else (c + 1, r)
        if is_invader(s[at(c, r)]):
            _to_box(s, s[at(c, r)])
            if remove_invader(s, c, r) and p[L.P_DESCENT_ON_MINE]:
                s[L.S_EMPTIED] = 1
            s[L.S_MINE_ALIVE] = 0
            s[pl(seat, L.PL_MINE_EXPLOSIONS)] += 1
            break
        set_cell(s, c, r, L.MINE)
        if wrapped:
            break
    s[L.S_MINE_COL], s[L.S_MINE_ROW] = c, r
    if s[L.S_INVADERS] == 0 and not refill_pending(s, p):
        s[L.S_STATUS] = L.VICTORY


@jit_inline
def _end_of_turn_descent(s, p, seat):
    if s[L.S_EMPTIED] and s[L.S_STATUS] == L.RUNNING:
        s[L.S_EMPTIED] = 0
        descend(s, p, seat)
        if s[L.S_INVADERS] == 0 and s[L.S_STATUS] == L.RUNNING:
            s[L.S_STATUS] = L.VICTORY


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


# --- checking ----------------------------------------------------------------------------


@jit_allocating
def census_ok(s, p):
    """Every token is on the board, in the pile, beside the board, in a reserve or in the
    box, once; fighters, the mine, the running counts and the occupancy index agree with the
    board. For games started by new_game (a scenario's box is not tracked)."""
    counts = np.zeros(L.N_KINDS, np.int64)
    fighters = np.zeros(L.MAX_PLAYERS, np.int64)  # per seat: cells showing its fighter
    mines = 0
    invaders = 0
    for c in range(L.MAX_COLS):
        if occupancy_of(s, c) != s[L.S_OCCUPIED + c]:
            return False
    for c in range(p[L.P_COLS]):
        in_col = 0
        for r in range(p[L.P_ROWS]):
            v = s[at(c, r)]
            if is_invader(v):
                counts[token_kind(v)] += 1
                in_col += 1
            elif v == L.MINE:
                mines += 1
            elif v >= L.FIGHTER:
                seat = v - L.FIGHTER
                fighters[seat] += 1
                if s[pl(seat, L.PL_COL)] != c or s[pl(seat, L.PL_ROW)] != r:
                    return False
        if in_col != s[L.S_COL_COUNT + c]:
            return False
        invaders += in_col
    if invaders != s[L.S_INVADERS] or mines != s[L.S_MINE_ALIVE]:
        return False
    for i in range(s[L.S_PILE_TOP], s[L.S_PILE_LEN]):
        counts[token_kind(s[L.S_PILE + i])] += 1
    counts[L.KIND_SHIP] += s[L.S_ASIDE_L] + s[L.S_ASIDE_R] + 2 * s[L.S_ASIDE_SHIPS]
    for k in range(1, L.N_KINDS):
        counts[k] += s[L.S_BOX + k]
        for seat in range(s[L.S_N_PLAYERS]):
            counts[k] += s[pl(seat, L.PL_RESERVE + k)]
    for k in range(1, 6):
        if counts[k] != p[L.P_MONSTERS + k - 1]:
            return False
    if counts[L.KIND_SHIP] != 2 * p[L.P_SHIPS]:
        return False
    for seat in range(s[L.S_N_PLAYERS]):
        if fighters[seat] != (1 if s[pl(seat, L.PL_STATUS)] == L.ACTIVE else 0):
            return False
    return True
