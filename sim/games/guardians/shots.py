"""Shots: what a shot hits and takes, the steal, the missile (GoS 103-141, 231-239)."""

from sim.games.guardians import layout as L
from sim.games.guardians.board import (
    at,
    first_object_row,
    is_invader,
    kind_points,
    pl,
    remove_invader,
    reserve_points,
    set_cell,
    to_box,
)
from sim.games.guardians.descent import check_victory, descend, drop_rows_from, reinforce
from sim.jit import jit, jit_inline

# --- what a shot takes: the queries the turn and the strategies' predictions share ---------


@jit_inline
def shot_take(v):
    """The kind of token a shot takes from the object v it hits: a monster's own (its eyes),
    a lone ship half's (KIND_SHIP); 0 for a half of an intact ship, which goes to the box
    without points (GoS 111-131), and for anything that is not an invader."""
    if v <= 5:
        return v
    if v == L.SHIP_DAMAGED:
        return L.KIND_SHIP
    return 0


@jit_inline
def stolen_kind(s, p, victim):
    """The kind a shot at `victim`'s fighter takes from its reserve: its lowest-valued token,
    or by the switch its highest (GoS 136); the first such kind on ties, 0 when it has none."""
    best = 0
    for k in range(1, L.N_KINDS):
        if s[pl(victim, L.PL_RESERVE + k)] == 0:
            continue
        if (
            best == 0
            or p[L.P_STEAL_HIGHEST]
            and kind_points(p, k) > kind_points(p, best)
            or not p[L.P_STEAL_HIGHEST]
            and kind_points(p, k) < kind_points(p, best)
        ):
            best = k
    return best


@jit_inline
def missile_take(v):
    """The kind the missile takes from the cell v of its row (GoS 231-239): a monster's, or
    KIND_SHIP for a lone half and for an intact ship's left half (one half of each ship goes
    to the shooter, the other to the box, GoS 236); 0 for a right half (taken with its left
    one) and for anything that is not an invader."""
    if v <= 5:
        return v
    if v == L.SHIP_L or v == L.SHIP_DAMAGED:
        return L.KIND_SHIP
    return 0


@jit
def missile_error(s, p, seat, c, r):
    """Whether the missile may be fired from (c, r), the shooter's fighter standing there:
    the first object up the column must be an invader, and no other fighter may be in its
    row, which the missile takes whole (GoS 231-239)."""
    tr = first_object_row(s, p, c, r)
    if tr < 0 or not is_invader(s[at(c, tr)]):
        return L.E_MISSILE_NO_INVADER
    for cc in range(p[L.P_COLS]):
        v = s[at(cc, tr)]
        if v >= L.FIGHTER and v != L.FIGHTER + seat:
            return L.E_MISSILE_ROW_FIGHTER
    return L.OK


@jit_inline
def fire(s, p, seat, missile):
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
        fire_missile(s, p, seat, tr)
    elif v >= L.FIGHTER:
        steal(s, p, seat, v - L.FIGHTER)
    else:
        kind = shot_take(v)
        if kind:
            take(s, p, seat, kind)
        else:
            to_box(s, v)  # an intact ship loses the half hit, no points (GoS 120)
        if remove_invader(s, c, tr):
            s[L.S_EMPTIED] = 1
            if not p[L.P_DESCENT_END_OF_TURN]:
                s[L.S_EMPTIED] = 0
                descend(s, p, seat)
    check_victory(s, p)
    return 1


@jit_inline
def take(s, p, seat, kind):
    """The shooter collects a token of `kind`; returns its points."""
    s[pl(seat, L.PL_RESERVE + kind)] += 1
    s[pl(seat, L.PL_TAKEN + kind)] += 1
    return kind_points(p, kind)


@jit_inline
def steal(s, p, thief, victim):
    """Take the victim's lowest (or, by the switch, highest) valued token (GoS 136)."""
    s[pl(thief, L.PL_STEALS_MADE)] += 1
    s[pl(victim, L.PL_STEALS_SUFFERED)] += 1
    kind = stolen_kind(s, p, victim)
    if kind > 0:
        s[pl(victim, L.PL_RESERVE + kind)] -= 1
        s[pl(thief, L.PL_RESERVE + kind)] += 1


@jit
def fire_missile(s, p, seat, tr):
    """The whole row tr goes to the shooter; rows above drop; reinforcements (GoS 231-239)."""
    s[pl(seat, L.PL_MISSILE)] = L.USED
    s[pl(seat, L.PL_MISSILES_FIRED)] += 1
    points = 0
    for c in range(p[L.P_COLS]):
        v = s[at(c, tr)]
        if not is_invader(v):
            continue  # (a right half is never reached: its left half, met first, takes it)
        points += take(s, p, seat, missile_take(v))
        if v == L.SHIP_L:  # the other half goes to the box (GoS 236)
            to_box(s, L.SHIP_R)
            remove_invader(s, c + 1, tr)
            set_cell(s, c, tr, L.SHIP_DAMAGED)  # its partner is gone: remove it as a lone half
        remove_invader(s, c, tr)
    s[pl(seat, L.PL_MISSILE_POINTS)] += points
    drop_rows_from(s, p, tr + 1, seat)
    if s[L.S_STATUS] == L.RUNNING:
        reinforce(s, p)
