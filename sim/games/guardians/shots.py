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
    token_kind,
)
from sim.games.guardians.descent import descend, drop_rows_from, refill_pending, reinforce
from sim.jit import jit, jit_inline


@jit
def missile_error(s, p, seat, c, r):
    """The missile fired from (c, r), with the shooter's fighter standing at (c, r)."""
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
        if v <= 5 or v == L.SHIP_DAMAGED:
            take(s, p, seat, v)
        else:
            to_box(s, v)  # an intact ship loses the half hit, no points (GoS 120)
        if remove_invader(s, c, tr):
            s[L.S_EMPTIED] = 1
            if not p[L.P_DESCENT_END_OF_TURN]:
                s[L.S_EMPTIED] = 0
                descend(s, p, seat)
    if s[L.S_INVADERS] == 0 and s[L.S_STATUS] == L.RUNNING and not refill_pending(s, p):
        s[L.S_STATUS] = L.VICTORY
    return 1


@jit_inline
def take(s, p, seat, v):
    """The shooter collects token v; returns its points."""
    k = token_kind(v)
    s[pl(seat, L.PL_RESERVE + k)] += 1
    s[pl(seat, L.PL_TAKEN + k)] += 1
    return kind_points(p, k)


@jit_inline
def steal(s, p, thief, victim):
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
def fire_missile(s, p, seat, tr):
    """The whole row tr goes to the shooter; rows above drop; reinforcements (GoS 231-239)."""
    s[pl(seat, L.PL_MISSILE)] = L.USED
    s[pl(seat, L.PL_MISSILES_FIRED)] += 1
    points = 0
    for c in range(p[L.P_COLS]):
        v = s[at(c, tr)]
        if not is_invader(v):
            continue
        if v == L.SHIP_L:  # one half to the shooter, the other to the box (GoS 236)
            points += take(s, p, seat, L.SHIP_DAMAGED)
            to_box(s, L.SHIP_R)
            remove_invader(s, c + 1, tr)
            set_cell(s, c, tr, L.SHIP_DAMAGED)  # its partner is gone: remove it as a lone half
        else:
            points += take(s, p, seat, v)
        remove_invader(s, c, tr)
    s[pl(seat, L.PL_MISSILE_POINTS)] += points
    drop_rows_from(s, p, tr + 1, seat)
    if s[L.S_STATUS] == L.RUNNING:
        reinforce(s, p)
