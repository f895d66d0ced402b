"""`greedy`: take the most points this turn's shots can take.

Each reachable cell is scored by what its shots would take (the first objects up its column,
as many as the fighter's level, ignoring descents); a hit worth nothing (half of an intact
ship) beats a miss. Ties go to a uniformly random best cell. It re-enters where the shot is
best, never buys and leaves the mine alone.
"""

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, bottom_cell_free, first_object_row, kind_points, pl
from sim.games.guardians.engine import LINE_COL, LINE_ROW, lines
from sim.games.guardians.moves import steal_points
from sim.games.guardians.shots import shot_take
from sim.jit import jit, jit_inline
from strategies.guardians.common import better, opening, random_mine_row

PARAMS: dict[str, float] = {}


# scratch layout: what one decision has worked out already
_KEY = 0  # per column, the row of the object its remembered volley starts at (-2: none)
_VALUE = _KEY + L.MAX_COLS  # per column, that volley's value
_STEAL = _VALUE + L.MAX_COLS  # per seat, what a shot at its fighter takes (-1: not yet known)


@jit_inline
def _forget(p, scratch):
    for c in range(p[L.P_COLS]):
        scratch[_KEY + c] = -2
    for k in range(L.MAX_PLAYERS):
        scratch[_STEAL + k] = -1


@jit
def best_bottom_column(s, p, seat, sp, rng, slot, scratch):
    """The free bottom-row column whose shot takes the most (random among ties), or -1."""
    _forget(p, scratch)
    best, best_c, ties = -1, -1, 0
    for c in range(p[L.P_COLS]):
        if not bottom_cell_free(s, p, c):
            continue
        v = _volley(s, p, c, first_object_row(s, p, c, 0), seat, 1, scratch)
        take, best, ties = better(v, best, ties, rng, slot)
        if take:
            best_c = c
    return best_c


@jit_inline
def best_destination(s, p, seat, c0, r0, level, rng, slot, scratch):
    """The reachable cell whose shots take the most; random among ties.

    Cells are scored in the order moves.destinations lists them (the tie-break draws depend
    on it), as they are found. A volley's value depends only on the first object it meets,
    so each column remembers the last one it worked out, keyed by that object's row."""
    _forget(p, scratch)
    best_c, best_r, ties = c0, r0, 1
    best = _cell_value(s, p, seat, c0, r0, level, scratch)
    cols, rows = p[L.P_COLS], p[L.P_ROWS]
    for d in range(lines(p)):
        dc, dr = LINE_COL[d], LINE_ROW[d]
        c, r = c0 + dc, r0 + dr
        while 0 <= c < cols and 0 <= r < rows and s[at(c, r)] == L.EMPTY:
            v = _cell_value(s, p, seat, c, r, level, scratch)
            take, best, ties = better(v, best, ties, rng, slot)
            if take:
                best_c, best_r = c, r
            c += dc
            r += dr
    return best_c, best_r


@jit_inline
def _cell_value(s, p, seat, c, r, level, scratch):
    """What `level` shots from the empty cell (c, r) take."""
    first = first_object_row(s, p, c, r)
    if first < 0:
        return 0
    if scratch[_KEY + c] != first:
        scratch[_KEY + c] = first
        scratch[_VALUE + c] = _volley(s, p, c, first, seat, level, scratch)
    return scratch[_VALUE + c]


@jit_inline
def _volley(s, p, c, rr, seat, shots, scratch):
    """moves.volley_value in one pass up column c from its object at row rr (-1: none):
    2 per point, +1 per hit. A fighter or the mine stays where it is, so every remaining
    shot hits it again."""
    total = 0
    while rr >= 0:
        v = s[at(c, rr)]
        if v == L.MINE:
            return total
        if v >= L.FIGHTER:
            if v == L.FIGHTER + seat:
                return total
            victim = v - L.FIGHTER
            if scratch[_STEAL + victim] < 0:
                scratch[_STEAL + victim] = steal_points(s, p, victim)
            return total + shots * (2 * scratch[_STEAL + victim] + 1)
        total += 2 * kind_points(p, shot_take(v)) + 1
        shots -= 1
        if shots == 0:
            return total
        rr = first_object_row(s, p, c, rr)
    return total


@jit
def policy(phase, s, p, seat, sp, rng, a, scratch):
    decide(phase, s, p, seat, sp, rng, a, scratch)


@jit_inline
def decide(phase, s, p, seat, sp, rng, a, scratch):
    """The policy's decision (the miner calls the policy: compiled once, not pasted again
    there; the policy keeps it pasted, which gives the machine code it always had)."""
    if opening(phase, s, p, seat, sp, rng, a, scratch,
               best_bottom_column, random_mine_row, best_bottom_column):  # fmt: skip
        return
    c0, r0, level = a[L.A_DEST_COL], a[L.A_DEST_ROW], s[pl(seat, L.PL_LEVEL)]
    a[L.A_DEST_COL], a[L.A_DEST_ROW] = best_destination(s, p, seat, c0, r0, level, rng,
                                                        seat + 1, scratch)  # fmt: skip
