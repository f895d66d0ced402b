"""Fights: a battle between captains (rulebook lines 96-102, 248-269) or a captain against a
human army (lines 116-122, 281-295); stations and attack cards after the roll (the Paris
example, lines 154-158); losing a ship; compensation cards (lines 190-194)."""

from sim.games.alien_raid.cards import destroyable, mf, ship_attack
from sim.games.alien_raid.layout import (
    A_T_PLAYER,
    A_T_SLOT,
    A_USE,
    A_USE_CARD,
    CP_ATTACK,
    CP_HUMANS,
    E_BOOST_TARGET,
    E_CARD_USE,
    E_LOSE_SLOT,
    E_STATION_USE,
    EV_BOOST,
    EV_COMP_HUMANS,
    M_EFFECT,
    M_EFFECT_VALUE,
    MAX_CATCH,
    MAX_COMP_MODELS,
    MAX_HAND,
    MAX_PLAYERS,
    MAX_STATIONS,
    OK,
    P_COMP_EFFECT,
    P_COMP_VALUE,
    PL_COMP_HUMANS,
    PL_COMPS,
    PL_COMPS_NEW,
    PL_COMPS_RECEIVED,
    PL_HAND,
    PL_HUMANS,
    PL_KNOWN,
    PL_SHIPS_LOST,
    PL_STATION_USED,
    PL_STATIONS,
    PL_TARGET,
    S_BOARD,
    S_COMP_DISCARD,
    S_F_ARMY,
    S_F_BOOST,
    S_F_CATCH,
    S_F_CITY,
    S_F_IN,
    S_F_JAMMED,
    S_F_N_CATCH,
    S_F_ROLL,
    S_F_WEAKEN,
    ST_BOOST,
    ST_JAM,
    ST_WEAKEN,
)
from sim.games.alien_raid.planning import group_of, use_station
from sim.games.alien_raid.state import discard_ship, draw_comp, emit, pl
from sim.jit import jit


@jit
def clear_fight(s, space, army):
    """A new fight at `space`: army attack, or -1 for a battle between captains."""
    s[S_F_CITY] = space
    s[S_F_ARMY] = army
    for seat in range(MAX_PLAYERS):
        s[S_F_IN + seat] = 0
        s[S_F_ROLL + seat] = 0
        s[S_F_JAMMED + seat] = 0
        s[S_F_WEAKEN + seat] = 0
        for i in range(MAX_HAND):
            s[S_F_BOOST + seat * MAX_HAND + i] = 0


@jit
def clear_catch(s):
    s[S_F_N_CATCH] = 0
    for i in range(MAX_CATCH):
        s[S_F_CATCH + i] = -1


@jit
def fighter_total(s, p, seat, buf, slots):
    """The seat's attack in the fight in progress, with jams, weakening and boosts, plus its
    dice (line 99). Each ship counts at least 0."""
    space = s[S_F_CITY]
    n = group_of(s, seat, space, buf, slots)
    city = s[S_BOARD + space]
    vs_army = s[S_F_ARMY] >= 0
    total = s[S_F_ROLL + seat]
    for j in range(n):
        jammed = (s[S_F_JAMMED + seat] >> slots[j]) & 1
        value = ship_attack(p, buf, n, j, city, vs_army, jammed == 1) - s[S_F_WEAKEN + seat]
        total += max(value, 0) + s[S_F_BOOST + seat * MAX_HAND + slots[j]]
    return total


@jit
def in_fight(s, seat, slot):
    """Whether the seat's ship in `slot` fights in the fight in progress."""
    if slot < 0 or slot >= MAX_HAND or s[S_F_IN + seat] == 0:
        return False
    return s[pl(seat, PL_HAND + slot)] >= 0 and s[pl(seat, PL_TARGET + slot)] == s[S_F_CITY]


@jit
def boost_usable(s, p, seat):
    """Whether the seat holds anything to play after the roll: an unused boost station (also
    jam or weaken against captains) or an attack card usable now."""
    vs_army = s[S_F_ARMY] >= 0
    for i in range(MAX_STATIONS):
        m = s[pl(seat, PL_STATIONS + i)]
        if m < 0 or s[pl(seat, PL_STATION_USED + i)]:
            continue
        e = mf(p, m, M_EFFECT)
        if e == ST_BOOST or (not vs_army and (e == ST_JAM or e == ST_WEAKEN)):
            return True
    for k in range(MAX_COMP_MODELS):
        if s[pl(seat, PL_COMPS + k)] > 0 and p[P_COMP_EFFECT + k] == CP_ATTACK:
            return True
    return False


@jit
def boost_passes(a):
    return a[A_USE] < 0 and a[A_USE_CARD] < 0


@jit
def apply_boost(s, p, seat, a, log):
    """Play one station (a[A_USE]) or attack card (a[A_USE_CARD]) in the fight in progress."""
    space = s[S_F_CITY]
    who, ship = a[A_T_PLAYER], a[A_T_SLOT]
    if a[A_USE] >= 0 and a[A_USE_CARD] >= 0:
        return E_STATION_USE
    if a[A_USE_CARD] >= 0:
        k = a[A_USE_CARD]
        if (
            k >= MAX_COMP_MODELS
            or s[pl(seat, PL_COMPS + k)] <= 0
            or p[P_COMP_EFFECT + k] != CP_ATTACK
        ):
            return E_CARD_USE
        if who != seat or not in_fight(s, seat, ship):
            return E_BOOST_TARGET
        s[pl(seat, PL_COMPS + k)] -= 1
        s[S_COMP_DISCARD + k] += 1
        s[S_F_BOOST + seat * MAX_HAND + ship] += p[P_COMP_VALUE + k]
        emit(log, s, EV_BOOST, seat, space, 100 + CP_ATTACK, who, ship, 0)
        return OK
    slot = a[A_USE]
    if (
        slot >= MAX_STATIONS
        or s[pl(seat, PL_STATIONS + slot)] < 0
        or s[pl(seat, PL_STATION_USED + slot)]
    ):
        return E_STATION_USE
    m = s[pl(seat, PL_STATIONS + slot)]
    effect, value = mf(p, m, M_EFFECT), mf(p, m, M_EFFECT_VALUE)
    vs_army = s[S_F_ARMY] >= 0
    if effect == ST_BOOST:
        if who != seat or not in_fight(s, seat, ship):
            return E_BOOST_TARGET
        s[S_F_BOOST + seat * MAX_HAND + ship] += value
    elif effect == ST_JAM and not vs_army:
        if who == seat or who < 0 or who >= MAX_PLAYERS or not in_fight(s, who, ship):
            return E_BOOST_TARGET
        s[S_F_JAMMED + who] |= 1 << ship
    elif effect == ST_WEAKEN and not vs_army:
        for other in range(MAX_PLAYERS):
            if other != seat and s[S_F_IN + other]:
                s[S_F_WEAKEN + other] += value
    else:
        return E_STATION_USE
    use_station(s, seat, slot)
    emit(log, s, EV_BOOST, seat, space, effect, who, ship, 0)
    return OK


@jit
def destroyable_in_fight(s, p, seat):
    """(how many of the seat's fighting ships can be destroyed, the first such slot)."""
    n, first = 0, -1
    for i in range(MAX_HAND):
        if in_fight(s, seat, i) and destroyable(p, s[pl(seat, PL_HAND + i)]):
            n += 1
            if first < 0:
                first = i
    return n, first


@jit
def check_lose(s, p, seat, slot):
    if not in_fight(s, seat, slot) or not destroyable(p, s[pl(seat, PL_HAND + slot)]):
        return E_LOSE_SLOT
    return OK


@jit
def destroy(s, seat, slot):
    """The ship goes to the discarded ships (line 100)."""
    discard_ship(s, s[pl(seat, PL_HAND + slot)])
    s[pl(seat, PL_HAND + slot)] = -1
    s[pl(seat, PL_TARGET + slot)] = -1
    s[pl(seat, PL_KNOWN + slot)] = 0
    s[pl(seat, PL_SHIPS_LOST)] += 1


@jit
def give_compensation(s, p, rng, seat, log):
    """One compensation card per battle lost (line 192); bonus humans count at once, the
    others are usable from the next turn. Returns the card's model (-1: none left)."""
    k = draw_comp(s, rng)
    if k < 0:
        return -1
    s[pl(seat, PL_COMPS_RECEIVED)] += 1
    if p[P_COMP_EFFECT + k] == CP_HUMANS:
        s[pl(seat, PL_HUMANS)] += p[P_COMP_VALUE + k]
        s[pl(seat, PL_COMP_HUMANS)] += p[P_COMP_VALUE + k]
        s[S_COMP_DISCARD + k] += 1
        emit(log, s, EV_COMP_HUMANS, seat, -1, p[P_COMP_VALUE + k], 0, 0, 0)
    else:
        s[pl(seat, PL_COMPS_NEW + k)] += 1
    return k
