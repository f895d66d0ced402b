"""Decisions after the reveal, from expected humans: fight or retreat from the win chance,
raid or catch from the catch's expected value, fight an army or retreat, which station or
card to play after a roll, which ship to lose, transfers. Shared by value, planner, strong.
Attack powers are the engine's (cards.group_attack / ship_attack) on what the captain sees:
after the reveal every attacking ship is public (FAQ 329).
"""

from numpy import int64 as I64

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import (
    catch_humans,
    cf,
    group_attack,
    mf,
    raid_humans,
    ship_attack,
)
from sim.games.alien_raid.observe import op
from sim.jit import jit, jit_inline
from strategies.alien_raid.common import (
    attack_card,
    boost_station,
    catch_from_win,
    cheapest_loss,
    first_fighting,
    me,
    p_beat_army,
    p_win_duel,
)
from strategies.alien_raid.plan import GROUP, loss_cost, task_bonus
from strategies.alien_raid.tables import win_odds

TMP = GROUP + L.MAX_HAND  # scratch: another captain's group


@jit_inline
def group_models(obs, k, space, scratch, base):
    """Captain k's visible ships at `space` into scratch[base:]; returns how many. Pasted:
    one compiled `_group_models` for every caller (a literal captain or base, or an int32
    captain, is a type of its own; numba compiled it four times)."""
    return _group_models(obs, I64(k), I64(space), scratch, I64(base))


@jit
def _group_models(obs, k, space, scratch, base):
    n = 0
    for i in range(L.MAX_HAND):
        m = obs[op(k, L.OP_HAND + i)]
        if m >= 0 and obs[op(k, L.OP_TARGET + i)] == space:
            scratch[base + n] = m
            n += 1
    return n


@jit
def power_at(obs, p, k, space, vs_army, scratch):
    n = group_models(obs, k, space, scratch, TMP)
    return group_attack(p, scratch[TMP:], n, obs[L.O_BOARD + space], vs_army)


@jit
def ship_cost_at(obs, p, space, scratch):
    """The price of my cheapest ship at `space` that a lost fight would destroy."""
    n = group_models(obs, obs[L.O_SEAT], space, scratch, GROUP)
    return loss_cost(p, scratch, n)


@jit
def catch_worth(p, scratch, fscratch, city, army, ship_cost):
    """Expected humans of a catch at `city` fought to the end by a group of attack `army`
    whose cheapest ship at risk costs `ship_cost` (common.catch_from_win)."""
    win = win_odds(p, scratch, fscratch, army, cf(p, city, L.CT_ARMIES))
    return catch_from_win(win, catch_humans(p, city), ship_cost)


@jit
def reward_value(obs, p, scratch, fscratch, city, army, ship_cost, task_weight):
    """A city's worth to a group of attack `army` against armies whose cheapest ship at risk
    costs `ship_cost`: the better of raid and catch, and the tasks it counts for."""
    catch = catch_worth(p, scratch, fscratch, city, army, ship_cost)
    return max(float(raid_humans(p, city)), catch) + task_bonus(obs, p, city, task_weight)


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_fight(obs, p, scratch, fscratch, a, loss_weight, comp_value, task_weight):
    """Fight when the win chance against every captain still in makes it worth a ship."""
    seat, space = obs[L.O_SEAT], obs[L.O_CITY]
    city = obs[L.O_BOARD + space]
    n = group_models(obs, seat, space, scratch, GROUP)  # my ships there (read once)
    mine = group_attack(p, scratch[GROUP:], n, city, False)
    win = 1.0
    for k in range(obs[L.O_N_PLAYERS]):
        if k == seat or obs[L.O_DECIDED + k] == 2:
            continue
        theirs = group_models(obs, k, space, scratch, TMP)
        if theirs:
            win *= p_win_duel(mine, group_attack(p, scratch[TMP:], theirs, city, False))
    ship_cost = loss_cost(p, scratch, n)
    army = group_attack(p, scratch[GROUP:], n, city, True)
    reward = reward_value(obs, p, scratch, fscratch, city, army, ship_cost, task_weight)
    cost = ship_cost * loss_weight - comp_value
    a[L.A_YES] = 1 if win * reward - (1.0 - win) * cost > 0 else 0


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_reward(obs, p, scratch, fscratch, a):
    """Catch when its expected humans (armies fought to the end) beat the raid's."""
    seat, space = obs[L.O_SEAT], obs[L.O_CITY]
    city = obs[L.O_BOARD + space]
    army = power_at(obs, p, seat, space, True, scratch)
    cost = ship_cost_at(obs, p, space, scratch)
    catch = catch_worth(p, scratch, fscratch, city, army, cost)
    a[L.A_YES] = 1 if catch > raid_humans(p, city) else 0


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_army(obs, p, scratch, a):
    """Fight on when beating every army still to come is worth the ship at risk."""
    seat, space = obs[L.O_SEAT], obs[L.O_CITY]
    mine = obs[L.O_F_TOTAL + seat]
    chain = 1.0
    for i in range(obs[L.O_F_ARMY_INDEX], L.MAX_CATCH):
        card = obs[L.O_F_CATCH + i]
        if card >= 0 and p[L.P_ARMY_ATTACK + card] > 0:
            chain *= p_beat_army(mine, p[L.P_ARMY_ATTACK + card])
    cost = ship_cost_at(obs, p, space, scratch)
    humans = catch_humans(p, obs[L.O_BOARD + space])
    a[L.A_YES] = 1 if chain * humans - (1.0 - chain) * cost > 0 else 0


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_scan(obs, p, scratch, a):
    """Discard the strongest army drawn."""
    best, best_attack = -1, 0
    for i in range(L.MAX_CATCH):
        card = obs[L.O_F_CATCH + i]
        if card >= 0 and p[L.P_ARMY_ATTACK + card] > best_attack:
            best, best_attack = i, p[L.P_ARMY_ATTACK + card]
    if best >= 0:
        a[L.A_USE] = boost_station(obs, p, L.ST_SCAN)
        a[L.A_T_CITY] = best


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_lose(obs, p, a):
    """Lose the cheapest ship that can be destroyed."""
    a[L.A_SLOT] = cheapest_loss(obs, p)


@jit
def best_other(obs, seat):
    top = -1
    for k in range(obs[L.O_N_PLAYERS]):
        if k != seat and obs[L.O_F_IN + k] and obs[L.O_F_TOTAL + k] > top:
            top = obs[L.O_F_TOTAL + k]
    return top


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_boost(obs, p, scratch, a):
    """Play what makes me lead (against an army: reach it), the station before the card;
    against captains a jam or a weakening may do it instead. Nothing while I lead alone or
    reach the army (fight.stations_to anyone asks then too): a station is used once a turn."""
    seat = obs[L.O_SEAT]
    mine = obs[L.O_F_TOTAL + seat]
    ship = first_fighting(obs)
    army = obs[L.O_F_ARMY]
    need = army - mine if army >= 0 else best_other(obs, seat) + 1 - mine
    if need <= 0:
        return
    station = boost_station(obs, p, L.ST_BOOST)
    if (
        station >= 0
        and ship >= 0
        and mf(p, obs[me(obs, L.OP_STATIONS + station)], L.M_EFFECT_VALUE) >= need
    ):
        a[L.A_USE], a[L.A_T_PLAYER], a[L.A_T_SLOT] = station, seat, ship
        return
    card = attack_card(obs, p)
    if card >= 0 and ship >= 0 and p[L.P_COMP_VALUE + card] >= need:
        a[L.A_USE_CARD], a[L.A_T_PLAYER], a[L.A_T_SLOT] = card, seat, ship
        return
    if army >= 0:
        return
    _jam_or_weaken(obs, p, scratch, a, seat, mine)


@jit
def _jam_or_weaken(obs, p, scratch, a, seat, mine):
    space = obs[L.O_CITY]
    city = obs[L.O_BOARD + space]
    jam = boost_station(obs, p, L.ST_JAM)
    leader, top = -1, -1
    for k in range(obs[L.O_N_PLAYERS]):
        if k != seat and obs[L.O_F_IN + k] and obs[L.O_F_TOTAL + k] > top:
            leader, top = k, obs[L.O_F_TOTAL + k]
    if leader < 0:
        return
    if jam >= 0:
        n = group_models(obs, leader, space, scratch, TMP)
        best_slot, best_cut, j = -1, 0, 0
        for i in range(L.MAX_HAND):
            if obs[op(leader, L.OP_HAND + i)] >= 0 and obs[op(leader, L.OP_TARGET + i)] == space:
                full = ship_attack(p, scratch[TMP:], n, j, city, False, False)
                cut = full - ship_attack(p, scratch[TMP:], n, j, city, False, True)
                if cut > best_cut:
                    best_slot, best_cut = i, cut
                j += 1
        if best_slot >= 0 and top - best_cut < mine:
            a[L.A_USE], a[L.A_T_PLAYER], a[L.A_T_SLOT] = jam, leader, best_slot
            return
    weaken = boost_station(obs, p, L.ST_WEAKEN)
    if weaken >= 0:
        cut = mf(p, obs[me(obs, L.OP_STATIONS + weaken)], L.M_EFFECT_VALUE)
        n = group_models(obs, leader, space, scratch, TMP)
        if top - cut * n < mine:
            a[L.A_USE] = weaken


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_trophy(obs, p, a):
    """Take the city card when it counts for a task in play."""
    city = obs[L.O_BOARD + obs[L.O_CITY]]
    a[L.A_YES] = 1 if task_bonus(obs, p, city, 1.0) > 0 else 0


@jit_inline  # pasted into decisions.common_policy, its one caller: LLVM compiles it once less
def decide_transfer(phase, obs, p, scratch, a):
    """After the reveal: a tractor station is played (PH_STATION_TRANSFER), a transferring
    ship outmatched where it is moves (PH_SHIP_TRANSFER)."""
    if phase == L.PH_STATION_TRANSFER:
        decide_station_transfer(obs, p, scratch, a)
    else:
        decide_ship_transfer(obs, p, scratch, a)


@jit_inline  # pasted into decide_transfer, its one caller: LLVM compiles it once less
def decide_station_transfer(obs, p, scratch, a):
    """Move the strongest enemy ship away from the city I attack where I am weakest against
    it, to a city I do not attack."""
    seat = obs[L.O_SEAT]
    slot = boost_station(obs, p, L.ST_TRANSFER)
    if slot < 0:
        return
    best_gap, who, ship, where = 0, -1, -1, -1
    for space in range(obs[L.O_N_BOARD]):
        if obs[L.O_BOARD + space] < 0 or group_models(obs, seat, space, scratch, GROUP) == 0:
            continue
        mine = power_at(obs, p, seat, space, False, scratch)
        for k in range(obs[L.O_N_PLAYERS]):
            if k == seat:
                continue
            theirs = power_at(obs, p, k, space, False, scratch)
            if theirs >= mine and theirs - mine + 1 > best_gap:
                strongest, top = -1, -1
                for i in range(L.MAX_HAND):
                    m = obs[op(k, L.OP_HAND + i)]
                    if (
                        m >= 0
                        and obs[op(k, L.OP_TARGET + i)] == space
                        and mf(p, m, L.M_ATTACK) > top
                    ):
                        strongest, top = i, mf(p, m, L.M_ATTACK)
                if strongest >= 0:
                    best_gap, who, ship, where = theirs - mine + 1, k, strongest, space
    dest = _free_space(obs, p, seat, where, scratch)
    if who >= 0 and dest >= 0:
        a[L.A_USE], a[L.A_T_PLAYER], a[L.A_T_SLOT], a[L.A_T_CITY] = slot, who, ship, dest


@jit
def _free_space(obs, p, seat, avoid, scratch):
    """The space with the smallest raid where I do not attack (other than `avoid`), or -1."""
    best, best_raid = -1, 1 << 40
    for space in range(obs[L.O_N_BOARD]):
        if space == avoid or obs[L.O_BOARD + space] < 0:
            continue
        if group_models(obs, seat, space, scratch, TMP) == 0:
            raid = cf(p, obs[L.O_BOARD + space], L.CT_RAID)
            if raid < best_raid:
                best, best_raid = space, raid
    return best


@jit_inline  # pasted into decide_transfer, its one caller: LLVM compiles it once less
def decide_ship_transfer(obs, p, scratch, a):
    """A transferring ship outmatched where it is moves to a city nobody attacks."""
    seat = obs[L.O_SEAT]
    for i in range(L.MAX_HAND):
        m = obs[me(obs, L.OP_HAND + i)]
        space = obs[me(obs, L.OP_TARGET + i)]
        if m < 0 or space < 0 or mf(p, m, L.M_TRANSFER) == 0:
            continue
        mine = power_at(obs, p, seat, space, False, scratch)
        threat = 0
        for k in range(obs[L.O_N_PLAYERS]):
            if k != seat:
                threat = max(threat, power_at(obs, p, k, space, False, scratch))
        if threat <= mine:
            continue
        for dest in range(L.MAX_BOARD):
            if dest < obs[L.O_N_BOARD] and obs[L.O_BOARD + dest] >= 0 and _nobody(obs, dest):
                a[L.A_TARGET + i] = dest
                break


@jit
def _nobody(obs, space):
    for k in range(obs[L.O_N_PLAYERS]):
        for i in range(L.MAX_HAND):
            if obs[op(k, L.OP_TARGET + i)] == space:
                return False
    return True
