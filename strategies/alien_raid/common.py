"""What every alien-raid strategy shares: the default answer to each decision, reading the
observation (a captain's own view; strategies never see the state), dice odds and the
expected humans of a catch.

A strategy is a module (its name is the strategy's) with PARAMS (name -> default; the first
three are the report probes, see probes.py) and a compiled `policy` of the signature the rules
call (sim/games/alien_raid/decision.py), which ends with the probes (`apply_probes`). See
docs/games/alien_raid/strategies.md.
"""

import numpy as np

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import cf, destroyable, is_station, mf, price, usable_station
from sim.games.alien_raid.decision import fighting_slot, me
from sim.jit import jit, jit_inline

# P(2d6 >= k) for k = -20..40 at index k + 20
_AT_LEAST = np.zeros(61, np.float64)
# P(X - Y = d) for two 2d6 rolls, d = -10..10 at index d + 10
_DIFF = np.zeros(21, np.float64)
for _a in range(1, 7):
    for _b in range(1, 7):
        for _k in range(61):
            if _a + _b >= _k - 20:
                _AT_LEAST[_k] += 1.0 / 36.0
        for _c in range(1, 7):
            for _d in range(1, 7):
                _DIFF[_a + _b - _c - _d + 10] += 1.0 / 1296.0


@jit
def cheapest_loss(obs, p):
    """The fighting ship that can be destroyed and cost the least."""
    best, best_price = -1, 1 << 40
    for i in range(L.MAX_HAND):
        m = obs[me(obs, L.OP_HAND + i)]
        if fighting_slot(obs, i) and destroyable(p, m) and price(p, m) < best_price:
            best, best_price = i, price(p, m)
    return best


# --- dice ----------------------------------------------------------------------------------


@jit_inline
def p_at_least(k):
    """P(2d6 >= k)."""
    if k <= 2:
        return 1.0
    if k > 12:
        return 0.0
    return _AT_LEAST[k + 20]


@jit
def p_beat_army(attack, army):
    """The chance a fleet of `attack` beats an army (2d6 + attack >= army, line 289)."""
    return p_at_least(army - attack)


def _duel_table() -> np.ndarray:
    """P(win) of a two-captain battle by attack difference -12..12 (index d + 12), ties
    rerolled (FAQ 351): P(X - Y > -d) / (1 - P(X - Y = -d)) for two 2d6 rolls X, Y."""
    table = np.zeros(25, np.float64)
    for d in range(-12, 13):
        win = sum(_DIFF[k] for k in range(21) if k - 10 + d > 0)
        tie = sum(_DIFF[k] for k in range(21) if k - 10 + d == 0)
        table[d + 12] = win / (1.0 - tie)
    return table


_DUEL = _duel_table()


@jit_inline
def p_win_duel(mine, theirs):
    """The chance to win a battle of two with these attack powers (ties rerolled)."""
    d = int(round(mine - theirs))
    if d <= -11:
        return 0.0
    if d >= 11:
        return 1.0
    return _DUEL[d + 12]


@jit
def army_odds(p, attack):
    """The chance to beat one army card drawn at random from the catalog's armies deck."""
    total, good = 0.0, 0.0
    for k in range(p[L.P_N_ARMY_MODELS]):
        n = p[L.P_ARMY_COUNT + k]
        total += n
        good += n * p_beat_army(attack, p[L.P_ARMY_ATTACK + k])
    return good / total if total > 0 else 1.0


@jit_inline
def catch_from_win(win, catch, ship_cost):
    """Expected humans of a catch fought to the end with the chance `win` to beat all its army
    cards (army_odds ** armies: tables.win_odds): beating them brings `catch`; a lost fight
    costs a ship worth `ship_cost`."""
    return win * catch - (1.0 - win) * ship_cost


# --- buying --------------------------------------------------------------------------------


@jit
def own_ships(obs):
    return obs[me(obs, L.OP_N_SHIPS)]


@jit
def own_stations(obs):
    n = 0
    for i in range(L.MAX_STATIONS):
        n += obs[me(obs, L.OP_STATIONS + i)] >= 0
    return n


@jit
def holds_station(obs, m):
    for i in range(L.MAX_STATIONS):
        if obs[me(obs, L.OP_STATIONS + i)] == m:
            return True
    return False


@jit
def buyable_alone(obs, p, i):
    """Whether offered card i can be bought on its own without making room."""
    m = obs[L.O_DRAWN + i]
    if m < 0 or price(p, m) > obs[me(obs, L.OP_HUMANS)] or p[L.P_BUY_MAX] < 1:
        return False
    if is_station(p, m):
        return own_stations(obs) < p[L.P_HAND_STATIONS] and not holds_station(obs, m)
    return own_ships(obs) < p[L.P_HAND_SHIPS]


@jit
def clear_buy(a):
    for i in range(L.MAX_DRAWN):
        a[L.A_BUY + i] = 0
        a[L.A_ROOM + i] = -1
    a[L.A_PROBE] = 0


@jit
def plan_fuel(obs, p, a):
    total = 0
    for i in range(L.MAX_HAND):
        if a[L.A_TARGET + i] >= 0:
            total += mf(p, obs[me(obs, L.OP_HAND + i)], L.M_FUEL)
    return total


@jit
def can_add(obs, p, m, budget, ships, stations, other):
    """Whether card m can join the purchase: affordable from `budget`, room among `ships`
    and `stations` already counted, no second station of a kind (`other`: the card already
    chosen this turn, -1 none)."""
    if m < 0 or price(p, m) > budget:
        return False
    if is_station(p, m):
        return stations < p[L.P_HAND_STATIONS] and not holds_station(obs, m) and m != other
    return ships < p[L.P_HAND_SHIPS]


@jit
def choose_buy(obs, p, a, i, budget, ships, stations):
    """Mark offered card i as bought; returns the budget, ships and stations after it."""
    m = obs[L.O_DRAWN + i]
    a[L.A_BUY + i] = 1
    if is_station(p, m):
        return budget - price(p, m), ships, stations + 1
    return budget - price(p, m), ships + 1, stations


@jit
def boost_station(obs, p, effect):
    """Slot of an unused own station with that effect, or -1."""
    return usable_station(
        p, obs[me(obs, L.OP_STATIONS) :], obs[me(obs, L.OP_STATION_USED) :], effect
    )


@jit
def attack_card(obs, p):
    """An attack compensation card usable now, or -1."""
    for k in range(p[L.P_N_COMP_MODELS]):
        if obs[L.O_OWN_COMPS + k] > 0 and p[L.P_COMP_EFFECT + k] == L.CP_ATTACK:
            return k
    return -1


@jit
def first_fighting(obs):
    for i in range(L.MAX_HAND):
        if fighting_slot(obs, i):
            return i
    return -1


@jit
def behind(obs):
    """In the fight in progress, not alone in the lead (against an army: below its attack)."""
    seat = obs[L.O_SEAT]
    mine, army = obs[L.O_F_TOTAL + seat], obs[L.O_F_ARMY]
    if army >= 0:
        return mine < army
    for k in range(obs[L.O_N_PLAYERS]):
        if k != seat and obs[L.O_F_IN + k] and obs[L.O_F_TOTAL + k] >= mine:
            return True
    return False


@jit
def plain_boost(obs, p, a):
    """Play a boost station, else an attack card, on the first own fighting ship. Returns
    whether anything was played."""
    ship = first_fighting(obs)
    if ship < 0:
        return False
    station = boost_station(obs, p, L.ST_BOOST)
    if station >= 0:
        a[L.A_USE] = station
    else:
        card = attack_card(obs, p)
        if card < 0:
            return False
        a[L.A_USE_CARD] = card
    a[L.A_T_PLAYER] = obs[L.O_SEAT]
    a[L.A_T_SLOT] = ship
    return True


@jit
def best_raid_space(obs, p, taken):
    """The board space not in the bit mask `taken` whose raid gives the most humans, or -1."""
    best, best_v = -1, -1
    for k in range(obs[L.O_N_BOARD]):
        c = obs[L.O_BOARD + k]
        if c >= 0 and not (taken >> k) & 1 and cf(p, c, L.CT_RAID) > best_v:
            best, best_v = k, cf(p, c, L.CT_RAID)
    return best


@jit
def fuel_card_total(obs, p):
    """The extra fuel all own usable fuel cards give."""
    total = 0
    for k in range(p[L.P_N_COMP_MODELS]):
        if p[L.P_COMP_EFFECT + k] == L.CP_FUEL:
            total += obs[L.O_OWN_COMPS + k] * p[L.P_COMP_VALUE + k]
    return total


@jit
def use_fuel_cards(obs, p, a, need):
    """Discard fuel cards until they cover `need` fuel; returns how many."""
    used = 0
    for k in range(p[L.P_N_COMP_MODELS]):
        while (
            need > 0
            and p[L.P_COMP_EFFECT + k] == L.CP_FUEL
            and a[L.A_FUEL_CARDS + k] < obs[L.O_OWN_COMPS + k]
        ):
            a[L.A_FUEL_CARDS + k] += 1
            need -= p[L.P_COMP_VALUE + k]
            used += 1
    return used
