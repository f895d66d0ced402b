"""Checking mode: every card of the game is somewhere, once (run after every turn when a batch
is traced; a failure is an engine bug, reported as the refusal `census`)."""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import cf, mf
from sim.games.alien_raid.state import pl
from sim.jit import jit


@jit
def ship_copies(s, p, m):
    """Where the cards of model m are: decks, discards, set aside, hands, stations, offers."""
    n = s[L.S_SHIP_DISCARD + m] + s[L.S_SHIP_ASIDE + m]
    for top, end in ((L.S_BLUE_TOP, L.S_BLUE_END), (L.S_RED_TOP, L.S_RED_END)):
        for i in range(s[top], s[end]):
            n += s[L.S_SHIPS + i] == m
    for seat in range(s[L.S_N_PLAYERS]):
        for i in range(L.MAX_HAND):
            n += s[pl(seat, L.PL_HAND + i)] == m
        for i in range(L.MAX_STATIONS):
            n += s[pl(seat, L.PL_STATIONS + i)] == m
        for i in range(L.MAX_DRAWN):
            n += s[pl(seat, L.PL_DRAWN + i)] == m
    return n


@jit
def census_ok(s, p):
    players = s[L.S_N_PLAYERS]
    for m in range(p[L.P_N_MODELS]):
        want = players if mf(p, m, L.M_DECK) == L.DECK_START else mf(p, m, L.M_COUNT)
        if mf(p, m, L.M_DECK) == L.DECK_START and mf(p, m, L.M_COUNT) == 0:
            want = 0
        if ship_copies(s, p, m) != want:
            return False
    kept = 0
    for c in range(p[L.P_N_CITIES]):
        kept += cf(p, c, L.CT_MIN_PLAYERS) <= players
    cities = s[L.S_CITY_END] - s[L.S_CITY_TOP] + s[L.S_CITIES_DISCARDED]
    for k in range(s[L.S_N_BOARD]):
        cities += s[L.S_BOARD + k] >= 0
    for seat in range(players):
        cities += s[pl(seat, L.PL_N_WON)]
    if cities != kept:
        return False
    for a in range(p[L.P_N_ARMY_MODELS]):
        n = s[L.S_ARMY_DISCARD + a]
        for i in range(s[L.S_ARMY_TOP], s[L.S_ARMY_END]):
            n += s[L.S_ARMY_DECK + i] == a
        if n != p[L.P_ARMY_COUNT + a]:
            return False
    for k in range(min(p[L.P_N_COMP_MODELS], L.MAX_COMP_MODELS)):
        n = s[L.S_COMP_DISCARD + k]
        for i in range(s[L.S_COMP_TOP], s[L.S_COMP_END]):
            n += s[L.S_COMP_DECK + i] == k
        for seat in range(players):
            n += s[pl(seat, L.PL_COMPS + k)] + s[pl(seat, L.PL_COMPS_NEW + k)]
        if n != p[L.P_COMP_COUNT + k]:
            return False
    return True
