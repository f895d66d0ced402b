"""Checking mode: every card of the game is somewhere, once (run after every turn when a batch
is traced; a failure is an engine bug, reported as the refusal `census`)."""

from sim.games.alien_raid.cards import cf, mf
from sim.games.alien_raid.layout import (
    CT_MIN_PLAYERS,
    DECK_START,
    M_COUNT,
    M_DECK,
    MAX_COMP_MODELS,
    MAX_DRAWN,
    MAX_HAND,
    MAX_STATIONS,
    P_ARMY_COUNT,
    P_COMP_COUNT,
    P_N_ARMY_MODELS,
    P_N_CITIES,
    P_N_COMP_MODELS,
    P_N_MODELS,
    PL_COMPS,
    PL_COMPS_NEW,
    PL_DRAWN,
    PL_HAND,
    PL_N_WON,
    PL_STATIONS,
    S_ARMY_DECK,
    S_ARMY_DISCARD,
    S_ARMY_END,
    S_ARMY_TOP,
    S_BLUE_END,
    S_BLUE_TOP,
    S_BOARD,
    S_CITIES_DISCARDED,
    S_CITY_END,
    S_CITY_TOP,
    S_COMP_DECK,
    S_COMP_DISCARD,
    S_COMP_END,
    S_COMP_TOP,
    S_N_BOARD,
    S_N_PLAYERS,
    S_RED_END,
    S_RED_TOP,
    S_SHIP_ASIDE,
    S_SHIP_DISCARD,
    S_SHIPS,
)
from sim.games.alien_raid.state import pl
from sim.jit import jit


@jit
def ship_copies(s, p, m):
    """Where the cards of model m are: decks, discards, set aside, hands, stations, offers."""
    n = s[S_SHIP_DISCARD + m] + s[S_SHIP_ASIDE + m]
    for top, end in ((S_BLUE_TOP, S_BLUE_END), (S_RED_TOP, S_RED_END)):
        for i in range(s[top], s[end]):
            n += s[S_SHIPS + i] == m
    for seat in range(s[S_N_PLAYERS]):
        for i in range(MAX_HAND):
            n += s[pl(seat, PL_HAND + i)] == m
        for i in range(MAX_STATIONS):
            n += s[pl(seat, PL_STATIONS + i)] == m
        for i in range(MAX_DRAWN):
            n += s[pl(seat, PL_DRAWN + i)] == m
    return n


@jit
def census_ok(s, p):
    players = s[S_N_PLAYERS]
    for m in range(p[P_N_MODELS]):
        want = players if mf(p, m, M_DECK) == DECK_START else mf(p, m, M_COUNT)
        if mf(p, m, M_DECK) == DECK_START and mf(p, m, M_COUNT) == 0:
            want = 0
        if ship_copies(s, p, m) != want:
            return False
    kept = 0
    for c in range(p[P_N_CITIES]):
        kept += cf(p, c, CT_MIN_PLAYERS) <= players
    cities = s[S_CITY_END] - s[S_CITY_TOP] + s[S_CITIES_DISCARDED]
    for k in range(s[S_N_BOARD]):
        cities += s[S_BOARD + k] >= 0
    for seat in range(players):
        cities += s[pl(seat, PL_N_WON)]
    if cities != kept:
        return False
    for a in range(p[P_N_ARMY_MODELS]):
        n = s[S_ARMY_DISCARD + a]
        for i in range(s[S_ARMY_TOP], s[S_ARMY_END]):
            n += s[S_ARMY_DECK + i] == a
        if n != p[P_ARMY_COUNT + a]:
            return False
    for k in range(min(p[P_N_COMP_MODELS], MAX_COMP_MODELS)):
        n = s[S_COMP_DISCARD + k]
        for i in range(s[S_COMP_TOP], s[S_COMP_END]):
            n += s[S_COMP_DECK + i] == k
        for seat in range(players):
            n += s[pl(seat, PL_COMPS + k)] + s[pl(seat, PL_COMPS_NEW + k)]
        if n != p[P_COMP_COUNT + k]:
            return False
    return True
