"""Fights: a battle between captains (rulebook lines 96-102, 248-269) or a captain against a
human army (lines 116-122, 281-295); stations and attack cards after the roll (the Paris
example, lines 154-158); losing a ship; compensation cards (lines 190-194)."""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import (
    class_bit,
    companions,
    destroyable,
    group_classes,
    mf,
    model_attack,
)
from sim.games.alien_raid.options import cash_one
from sim.games.alien_raid.planning import group_of, use_station
from sim.games.alien_raid.state import discard_ship, draw_comp, emit, kept_differs, pl, touched
from sim.jit import jit, jit_inline


@jit_inline  # small: pasted (as a call numba compiled it once per mix of argument types)
def clear_fight(s, space, army):
    """A new fight at `space`: army attack, or -1 for a battle between captains."""
    s[L.S_F_CITY] = space
    s[L.S_F_ARMY] = army
    s[L.S_F_KEPT] = 0
    for seat in range(L.MAX_PLAYERS):
        s[L.S_F_IN + seat] = 0
        s[L.S_F_ROLL + seat] = 0
        s[L.S_F_JAMMED + seat] = 0
        s[L.S_F_WEAKEN + seat] = 0
        for i in range(L.MAX_HAND):
            s[L.S_F_BOOST + seat * L.MAX_HAND + i] = 0


@jit
def clear_catch(s):
    s[L.S_F_N_CATCH] = 0
    for i in range(L.MAX_CATCH):
        s[L.S_F_CATCH + i] = -1


@jit
def fighter_total(s, p, seat, buf, slots):
    """The seat's attack in the fight in progress, with jams, weakening and boosts, plus its
    dice (line 99). Each ship counts at least 0; a jammed ship keeps its boosts unless
    fight.jam turns them off too. All but the dice is kept (S_F_SHIPS) until the fight, the
    captain's group, jams, weakening or boosts change it (clear_fight, state.touched,
    apply_boost)."""
    if (s[L.S_F_KEPT] >> seat) & 1:
        ships = s[L.S_F_SHIPS + seat]
        if s[L.S_CHECKING] and ships != ships_attack(s, p, seat, buf, slots):
            kept_differs(s, seat)
    else:
        ships = ships_attack(s, p, seat, buf, slots)
        s[L.S_F_SHIPS + seat] = ships
        s[L.S_F_KEPT] |= 1 << seat
    return s[L.S_F_ROLL + seat] + ships


@jit
def ships_attack(s, p, seat, buf, slots):
    """The seat's ships in the fight (group_of into buf, slots) without the dice: each ship's
    attack with jams and weakening, at least 0, plus its boosts."""
    n = group_of(s, seat, s[L.S_F_CITY], buf, slots)
    city = s[L.S_BOARD + s[L.S_F_CITY]]
    vs_army = s[L.S_F_ARMY] >= 0
    classes, twice = group_classes(p, buf, n)
    total = 0
    for j in range(n):
        jammed = (s[L.S_F_JAMMED + seat] >> slots[j]) & 1
        others = companions(classes, twice, class_bit(p, buf[j]))
        value = model_attack(p, buf[j], city, others, n, vs_army, jammed == 1)
        boost = s[L.S_F_BOOST + seat * L.MAX_HAND + slots[j]]
        if jammed == 1 and p[L.P_JAM_BOOSTS]:
            boost = 0
        total += max(value - s[L.S_F_WEAKEN + seat], 0) + boost
    return total


@jit_inline  # small: pasted (as a call numba compiled it once per mix of argument types)
def in_fight(s, seat, slot):
    """Whether the seat's ship in `slot` fights in the fight in progress."""
    if slot < 0 or slot >= L.MAX_HAND or s[L.S_F_IN + seat] == 0:
        return False
    return s[pl(seat, L.PL_HAND + slot)] >= 0 and s[pl(seat, L.PL_TARGET + slot)] == s[L.S_F_CITY]


@jit
def boost_usable(s, p, seat):
    """Whether the seat holds anything to play after the roll: an unused boost station (also
    jam or weaken against captains) or an attack card usable now."""
    vs_army = s[L.S_F_ARMY] >= 0
    for i in range(L.MAX_STATIONS):
        m = s[pl(seat, L.PL_STATIONS + i)]
        if m < 0 or s[pl(seat, L.PL_STATION_USED + i)]:
            continue
        e = mf(p, m, L.M_EFFECT)
        if e == L.ST_BOOST or (not vs_army and (e == L.ST_JAM or e == L.ST_WEAKEN)):
            return True
    for k in range(L.MAX_COMP_MODELS):
        if s[pl(seat, L.PL_COMPS + k)] > 0 and p[L.P_COMP_EFFECT + k] == L.CP_ATTACK:
            return True
    return False


@jit
def boost_passes(a):
    return a[L.A_USE] < 0 and a[L.A_USE_CARD] < 0


@jit
def apply_boost(s, p, seat, a, log):
    """Play one station (a[A_USE]) or attack card (a[A_USE_CARD]) in the fight in progress."""
    space = s[L.S_F_CITY]
    who, ship = a[L.A_T_PLAYER], a[L.A_T_SLOT]
    if a[L.A_USE] >= 0 and a[L.A_USE_CARD] >= 0:
        return L.E_STATION_USE
    if a[L.A_USE_CARD] >= 0:
        k = a[L.A_USE_CARD]
        if (
            k >= L.MAX_COMP_MODELS
            or s[pl(seat, L.PL_COMPS + k)] <= 0
            or p[L.P_COMP_EFFECT + k] != L.CP_ATTACK
        ):
            return L.E_CARD_USE
        if who != seat or not in_fight(s, seat, ship):
            return L.E_BOOST_TARGET
        touched(s, seat)
        s[pl(seat, L.PL_COMPS + k)] -= 1
        s[L.S_COMP_DISCARD + k] += 1
        s[L.S_F_BOOST + seat * L.MAX_HAND + ship] += p[L.P_COMP_VALUE + k]
        emit(log, s, L.EV_BOOST, seat, space, 100 + L.CP_ATTACK, who, ship, 0)
        return L.OK
    slot = a[L.A_USE]
    if (
        slot >= L.MAX_STATIONS
        or s[pl(seat, L.PL_STATIONS + slot)] < 0
        or s[pl(seat, L.PL_STATION_USED + slot)]
    ):
        return L.E_STATION_USE
    m = s[pl(seat, L.PL_STATIONS + slot)]
    effect, value = mf(p, m, L.M_EFFECT), mf(p, m, L.M_EFFECT_VALUE)
    vs_army = s[L.S_F_ARMY] >= 0
    if effect == L.ST_BOOST:
        if who != seat or not in_fight(s, seat, ship):
            return L.E_BOOST_TARGET
        s[L.S_F_BOOST + seat * L.MAX_HAND + ship] += value
        s[L.S_F_KEPT] &= ~(1 << seat)
    elif effect == L.ST_JAM and not vs_army:
        if who == seat or who < 0 or who >= L.MAX_PLAYERS or not in_fight(s, who, ship):
            return L.E_BOOST_TARGET
        s[L.S_F_JAMMED + who] |= 1 << ship
        s[L.S_F_KEPT] &= ~(1 << who)
    elif effect == L.ST_WEAKEN and not vs_army:
        for other in range(L.MAX_PLAYERS):
            if other != seat and s[L.S_F_IN + other]:
                s[L.S_F_WEAKEN + other] += value
                s[L.S_F_KEPT] &= ~(1 << other)
    else:
        return L.E_STATION_USE
    use_station(s, seat, slot)
    emit(log, s, L.EV_BOOST, seat, space, effect, who, ship, 0)
    return L.OK


@jit
def destroyable_in_fight(s, p, seat):
    """(how many of the seat's fighting ships can be destroyed, the first such slot)."""
    n, first = 0, -1
    for i in range(L.MAX_HAND):
        if in_fight(s, seat, i) and destroyable(p, s[pl(seat, L.PL_HAND + i)]):
            n += 1
            if first < 0:
                first = i
    return n, first


@jit
def check_lose(s, p, seat, slot):
    if not in_fight(s, seat, slot) or not destroyable(p, s[pl(seat, L.PL_HAND + slot)]):
        return L.E_LOSE_SLOT
    return L.OK


@jit
def destroy(s, seat, slot):
    """The ship goes to the discarded ships (line 100)."""
    discard_ship(s, s[pl(seat, L.PL_HAND + slot)])
    touched(s, seat)
    s[pl(seat, L.PL_HAND + slot)] = -1
    s[pl(seat, L.PL_TARGET + slot)] = -1
    s[pl(seat, L.PL_KNOWN + slot)] = 0
    s[pl(seat, L.PL_SHIPS_LOST)] += 1


@jit
def give_compensation(s, p, rng, seat, log):
    """One compensation card per battle lost (line 192), usable from the next turn; a
    bonus-humans card is usable at once (the captain may cash it: options.py), or cashed at
    once under compensation.bonus_humans at_once. Returns the card's model (-1: none left)."""
    k = draw_comp(s, rng)
    if k < 0:
        return -1
    touched(s, seat)
    s[pl(seat, L.PL_COMPS_RECEIVED)] += 1
    s[pl(seat, L.PL_COMPS_NEW + k)] += 1
    if p[L.P_COMP_EFFECT + k] == L.CP_HUMANS and p[L.P_BONUS_AT_ONCE]:
        cash_one(s, p, seat, k, log)
    return k
