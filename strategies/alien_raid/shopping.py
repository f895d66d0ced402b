"""Buying by value per price: what a card should bring over the turns left, against its price;
credits when they pay for a card worth more than the credit costs; redraws of two stations.

A ship's worth per turn is a value per ship sent (fewer when the hand already fills the
board) plus a value per point of expected attack (printed attack plus each trait's bonus
times the chance its conditions hold); a station's is a value per turn scaled by its effect.
"""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import is_station, mf, price
from sim.jit import jit, jit_inline
from strategies.alien_raid.common import can_add, me, own_ships, own_stations
from strategies.alien_raid.tables import EXPECT_FLAG, EXPECT_KEYS, EXPECTS

# indices of the shopping parameters in a strategy's parameter vector
ATTACK_WORTH, SHIP_WORTH, STATION_WORTH = 3, 4, 5


@jit
def own_classes(obs, p):
    """The classes of the own ships as bits: class c at bit c + 1 (bit 0: a ship of none)."""
    bits = 0
    for i in range(L.MAX_HAND):
        m = obs[me(obs, L.OP_HAND + i)]
        if m >= 0:
            bits |= 1 << (mf(p, m, L.M_CLASS) + 1)
    return bits


@jit_inline
def holds(classes, cls):
    """holds_class(obs, p, cls, -1) read from own_classes."""
    return 0 <= cls + 1 < 63 and (classes >> (cls + 1)) & 1 == 1


@jit
def condition_chance(p, cond, arg, classes):
    """A rough chance that a trait condition holds when the ship attacks (`classes`: the own
    ships', own_classes)."""
    if cond == L.C_NONE:
        return 1.0
    if cond == L.C_CITY_TYPE:
        return 1.0 / p[L.P_N_TYPES]
    if cond == L.C_CITY_NOT_TYPE:
        return 1.0 - 1.0 / p[L.P_N_TYPES]
    if cond == L.C_CITY_REGION:
        return 1.0 / p[L.P_N_REGIONS]
    if cond == L.C_CITY_NOT_REGION:
        return 1.0 - 1.0 / p[L.P_N_REGIONS]
    if cond == L.C_WITH:
        return 0.8 if holds(classes, arg) else 0.1
    if cond == L.C_WITHOUT:
        return 0.2 if holds(classes, arg) else 0.9
    if cond == L.C_ALONE or cond == L.C_GROUP_AT_LEAST:
        return 0.4
    if cond == L.C_VS_ARMY:
        return 0.4
    if cond == L.C_VS_CAPTAIN:
        return 0.6
    if cond == L.C_CITY_DECK:
        return 0.5
    return 0.5


@jit
def expected_attack(obs, p, m):
    """Model m's printed attack plus each trait's bonus times the chance its conditions hold
    for this captain (condition_chance)."""
    return expected_attack_of(p, m, own_classes(obs, p))


@jit
def expected_attack_of(p, m, classes):
    """expected_attack for a captain whose ships' classes are `classes` (own_classes)."""
    a = float(mf(p, m, L.M_ATTACK))
    for t in range(mf(p, m, L.M_N_TRAITS)):
        base = L.P_MODELS + m * L.MODEL_SIZE + L.M_TRAITS + t * L.TRAIT_SIZE
        chance = 1.0
        for k in range(L.MAX_CONDS):
            chance *= condition_chance(p, p[base + 1 + 2 * k], p[base + 2 + 2 * k], classes)
        a += p[base] * chance
    return a


@jit
def expected_attack_kept(obs, p, scratch, fscratch, m, classes):
    """expected_attack (`classes`: own_classes), kept per captain and model for the classes it
    was worked out for (tables.EXPECTS; cleared once a game: the params may differ)."""
    if scratch[EXPECT_FLAG] == 0:
        for i in range(L.MAX_PLAYERS * L.MAX_MODELS):
            scratch[EXPECT_KEYS + i] = 0
        scratch[EXPECT_FLAG] = 1
    i = obs[L.O_SEAT] * L.MAX_MODELS + m
    if not (0 <= m < L.MAX_MODELS and 0 <= i < L.MAX_PLAYERS * L.MAX_MODELS):
        return expected_attack_of(p, m, classes)
    if scratch[EXPECT_KEYS + i] != classes + 1:
        fscratch[EXPECTS + i] = expected_attack_of(p, m, classes)
        scratch[EXPECT_KEYS + i] = classes + 1
    return fscratch[EXPECTS + i]


@jit
def turns_left(obs, p):
    return p[L.P_TURNS] - obs[L.O_TURN] + 1


@jit
def card_worth(obs, p, sp, m):
    """What card m should bring over the rest of the game, in humans."""
    left = turns_left(obs, p)
    if is_station(p, m):
        e, v = mf(p, m, L.M_EFFECT), mf(p, m, L.M_EFFECT_VALUE)
        scale = 0.0
        if e == L.ST_BOOST:
            scale = v / 3.0
        elif e == L.ST_JAM or e == L.ST_SCAN:
            scale = 0.8
        elif e == L.ST_TRANSFER:
            scale = 0.6
        elif e == L.ST_WEAKEN:
            scale = 0.7 * v
        elif e == L.ST_FUEL:
            scale = 0.5 * v
        return sp[STATION_WORTH] * scale * left
    crowded = own_ships(obs) >= p[L.P_CITIES_PER_TURN + obs[L.O_N_PLAYERS]]
    base = sp[SHIP_WORTH] * (0.4 if crowded else 1.0)
    if mf(p, m, L.M_FUEL) > obs[L.O_FUEL]:
        base *= 0.3  # cannot fly yet this turn
    return (base + sp[ATTACK_WORTH] * expected_attack(obs, p, m)) * left


@jit
def weakest_ship(obs, p, sp):
    """(slot, worth) of the held ship worth least (never an invulnerable one), slot -1 none."""
    slot, low = -1, 1e18
    for i in range(L.MAX_HAND):
        m = obs[me(obs, L.OP_HAND + i)]
        if m >= 0 and mf(p, m, L.M_INVULNERABLE) == 0:
            w = card_worth(obs, p, sp, m)
            if w < low:
                slot, low = i, w
    return slot, low


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def shop(obs, p, sp, a, budget):
    """Buy the offered cards whose worth beats their price, best value per price first; a
    full hand gives up its weakest ship when the new one is worth more than both."""
    ships, stations = own_ships(obs), own_stations(obs)
    done = -1
    for _ in range(L.MAX_DRAWN):
        best, best_ratio, room = -1, 1.0, -1
        for i in range(L.MAX_DRAWN):
            m = obs[L.O_DRAWN + i]
            if m < 0 or a[L.A_BUY + i] or m == done and is_station(p, m):
                continue
            net = card_worth(obs, p, sp, m) - price(p, m)
            ratio = (net + price(p, m)) / max(price(p, m), 1)
            slot = -1
            if not can_add(obs, p, m, budget, ships, stations, done):
                if is_station(p, m) or ships < p[L.P_HAND_SHIPS] or price(p, m) > budget:
                    continue
                slot, low = weakest_ship(obs, p, sp)
                if slot < 0 or a[L.A_ROOM] == slot or a[L.A_ROOM + 1] == slot:
                    continue
                net -= low
                ratio = (net + price(p, m)) / max(price(p, m), 1)
            if net > 0 and ratio > best_ratio:
                best, best_ratio, room = i, ratio, slot
        if best < 0:
            return
        m = obs[L.O_DRAWN + best]
        a[L.A_BUY + best] = 1
        a[L.A_ROOM + best] = room
        budget -= price(p, m)
        if is_station(p, m):
            stations += 1
            done = m
        elif room < 0:
            ships += 1


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_credit(obs, p, sp, a):
    """A credit when a card offered is worth more than the credit costs and cannot be paid
    without it."""
    humans = obs[me(obs, L.OP_HUMANS)]
    cost = p[L.P_CREDIT_REPAY] - p[L.P_CREDIT_AMOUNT]
    for i in range(L.MAX_DRAWN):
        m = obs[L.O_DRAWN + i]
        if m < 0 or price(p, m) <= humans or price(p, m) > humans + p[L.P_CREDIT_AMOUNT]:
            continue
        if card_worth(obs, p, sp, m) - price(p, m) > cost:
            a[L.A_CREDITS] = 1
            return


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_redraw(obs, p, sp, a):
    """Show the two stations and draw again unless one of them is worth its price."""
    for i in range(L.MAX_DRAWN):
        m = obs[L.O_DRAWN + i]
        if m >= 0 and card_worth(obs, p, sp, m) > price(p, m):
            return
    a[L.A_YES] = 1


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_cash(obs, p, a, hold):
    """With `hold`, a bonus-humans card received in a battle is kept until the next buying
    phase and cashed there, after the credit decision (a captain whose humans stay low may
    still take a credit, lines 184-186: measured to bring about 1,000 final humans,
    docs/games/alien_raid/strategies.md); in the last turn, with no later buying phase, and
    without `hold`, it is cashed as soon as it may be (the default answer)."""
    if hold > 0.5 and obs[L.O_CITY] >= 0 and obs[L.O_TURN] < p[L.P_TURNS]:
        for k in range(L.MAX_COMP_MODELS):
            a[L.A_CASH + k] = 0


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_repay(obs, p, a, early):
    """Credits are repaid at the end (the default answer: repaying sooner costs the same
    60,000 and only takes humans away from buying), or with `early` as soon as the humans
    cover them."""
    if early > 0.5:
        covered = obs[me(obs, L.OP_HUMANS)] // max(p[L.P_CREDIT_REPAY], 1)
        a[L.A_REPAY] = min(obs[me(obs, L.OP_CREDITS)], covered)
