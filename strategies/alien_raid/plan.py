"""Planning an attack as a knapsack: which of my ships go to which city within the fuel limit.

Every subset of the hand (at most 2**6) gets, at every city on the board, an expected value
(humans of the raid or the catch, won uncontested or after a battle, less the ship a lost
battle costs); a dynamic programme over the cities then picks disjoint subsets whose fuel fits.
Attack powers come from sim.games.alien_raid.cards (the engine's own rule functions).

Buffers: `fscratch` holds the values V[space * 64 + mask] (0..383), the programme's rows
(F_ROW, 2 x 64), per-subset fuel and the contest model (Q, THEIRS); `scratch` holds the
choices (CHOICE, 7 x 64), the hand and, from ALONE, the subsets' attacks per space, the spaces'
signatures, per subset its loss, size and classes, and the hand's traits left to the
companions (R_*). The army odds are the game's table (common.win_odds).

Each subset's attack at each city is the engine's sum (cards.group_attack), worked out once
where it cannot differ: a ship that ignores its companions once per city, one that ignores
the foe once for both foes, one that ignores the city once for the board, and a city whose
conditions hold as at an earlier space not at all (tests/games/alien_raid/test_plan.py
checks the sums against group_attack).
"""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import (
    RESIDUAL,
    catch_humans,
    cf,
    class_bit,
    companions,
    mf,
    model_attack,
    price,
    raid_humans,
    residual_attack,
    setting_attack,
    task_counts_city,
)
from sim.jit import jit, jit_inline
from strategies.alien_raid.common import catch_from_win, me, p_win_duel
from strategies.alien_raid.tables import CONDS, model_conditions, model_kinds, win_odds

MASKS = 1 << L.MAX_HAND
V_BASE = 0  # fscratch: V[space * MASKS + mask]
F_ROW = L.MAX_BOARD * MASKS  # fscratch: two rows of the programme
FUEL = F_ROW + 2 * MASKS  # fscratch: fuel of each subset (as a float)
Q = FUEL + MASKS  # fscratch: chance each space is contested
THEIRS = Q + L.MAX_BOARD  # fscratch: the opposing attack power expected there
CHOICE = 0  # scratch: the subset chosen per (space, mask after)
HAND_M = CHOICE + (L.MAX_BOARD + 1) * MASKS  # scratch: own models ...
HAND_S = HAND_M + L.MAX_HAND  # ... and their slots
GROUP = HAND_S + L.MAX_HAND  # scratch: one subset's models
ALONE = GROUP + 2 * L.MAX_HAND  # scratch (after tactics.TMP): each own ship's attack at a city,
# for those that do not look at the group
BATTLE = ALONE + L.MAX_HAND  # scratch: per space, every subset's attack there (subset_attacks)
VS_ARMY = BATTLE + L.MAX_BOARD * MASKS  # ... and against armies
SIGNATURE = VS_ARMY + L.MAX_BOARD * MASKS  # scratch: per space, city_signature
COST = SIGNATURE + L.MAX_BOARD  # scratch: per subset, what a lost fight costs (loss_cost)
ALONE_ARMY = COST + MASKS  # scratch: as ALONE, against an army
SHARED = ALONE_ARMY + L.MAX_HAND  # scratch: per subset, its ships' attacks alike at every city
SHARED_ARMY = SHARED + MASKS  # ... against an army (shared_attacks)
SIZE = SHARED_ARMY + MASKS  # scratch: every subset's size, ...
CLASSES = SIZE + MASKS  # ... its ships' classes as bits (cards.group_classes) ...
TWICE = CLASSES + MASKS  # ... and those held by two ships or more
HAND_BIT = TWICE + MASKS  # scratch: each own ship's class as a bit
LEFT = L.MAX_TRAITS * RESIDUAL  # a ship's traits left to its companions (cards.setting_attack)
R_TOTAL = HAND_BIT + L.MAX_HAND  # scratch: per own ship, its setting_attack at a city ...
R_COUNT = R_TOTAL + L.MAX_HAND  # ... how many traits it left to the companions ...
R_LEFT = R_COUNT + L.MAX_HAND  # ... and those traits (LEFT words a ship)
R_ARMY = R_LEFT + L.MAX_HAND * LEFT  # scratch: the same three against an army
NEG = -1e18


@jit
def own_hand(obs, scratch):
    """Own ships into scratch (models at HAND_M, slots at HAND_S); returns how many."""
    n = 0
    for i in range(L.MAX_HAND):
        m = obs[me(obs, L.OP_HAND + i)]
        if m >= 0:
            scratch[HAND_M + n] = m
            scratch[HAND_S + n] = i
            n += 1
    return n


@jit
def loss_cost(p, scratch, k):
    """What a lost fight costs: the cheapest ship of the group that can be destroyed."""
    best = 0
    for j in range(k):
        best = cheaper_loss(p, best, scratch[GROUP + j])
    return best


@jit_inline
def cheaper_loss(p, best, m):
    """loss_cost once ship m joins a group whose loss costs `best` (0: nothing to lose)."""
    if mf(p, m, L.M_INVULNERABLE) == 0 and (best == 0 or price(p, m) < best):
        return price(p, m)
    return best


@jit_inline  # pasted into fill_values' loop over every (city, subset)
def city_reward(raid, catch, win, ship_cost):
    """The better of a raid (`raid` humans, a float) and a catch of `catch` humans (fought to
    the end) with the chance `win` to beat all its army cards (common.win_odds)."""
    return max(raid, catch_from_win(win, catch, ship_cost))


@jit
def city_signature(p, scratch, n, city):
    """Which trait conditions of the hand hold at `city`, a bit each (ship j's from bit
    CONDS * j), asked with an empty group against a captain: only the city counts. Two
    spaces of one signature give every subset the same attacks."""
    signature = 0
    for j in range(n):
        signature |= model_conditions(p, scratch, scratch[HAND_M + j], city) << (CONDS * j)
    return signature


@jit
def board_signatures(obs, p, scratch, n):
    """Each space's city_signature (SIGNATURE); returns the bit mask of the hand's ships whose
    attack depends on the city: a condition of theirs is answered differently at two cities."""
    first, sited = -1, 0
    for k in range(obs[L.O_N_BOARD]):
        if obs[L.O_BOARD + k] < 0:
            continue
        scratch[SIGNATURE + k] = city_signature(p, scratch, n, obs[L.O_BOARD + k])
        if first < 0:
            first = scratch[SIGNATURE + k]
        for j in range(n):
            if ((scratch[SIGNATURE + k] ^ first) >> (CONDS * j)) & ((1 << CONDS) - 1):
                sited |= 1 << j
    return sited


@jit
def alike_space(obs, scratch, k):
    """An earlier space of the board whose city has space k's signature, else k."""
    for r in range(k):
        if obs[L.O_BOARD + r] >= 0 and scratch[SIGNATURE + r] == scratch[SIGNATURE + k]:
            return r
    return k


@jit
def hand_kinds(p, scratch, n):
    """Bit masks of the hand's ships whose attack depends on the group (cards.depends_on_group)
    and of those whose attack depends on the foe (depends_on_foe)."""
    grouped, foe = 0, 0
    for j in range(n):
        by_group, by_foe = model_kinds(p, scratch, scratch[HAND_M + j])
        if by_group:
            grouped |= 1 << j
        if by_foe:
            foe |= 1 << j
    return grouped, foe


@jit
def residuals(p, scratch, n, city, both, which, foe):
    """For each own ship of `which`: its cards.setting_attack at `city` against a captain
    (R_TOTAL, R_COUNT, R_LEFT) and, with `both` and where its attack depends on the foe, against
    an army (from R_ARMY): members_attack then needs only the subset's classes and size."""
    for j in range(n):
        if (which >> j) & 1:
            m = scratch[HAND_M + j]
            total, count = setting_attack(p, m, city, False, scratch[R_LEFT + j * LEFT :])
            scratch[R_TOTAL + j], scratch[R_COUNT + j] = total, count
            if both and (foe >> j) & 1:
                army = R_ARMY - R_TOTAL
                total, count = setting_attack(p, m, city, True, scratch[army + R_LEFT + j * LEFT :])
                scratch[army + R_TOTAL + j], scratch[army + R_COUNT + j] = total, count


@jit
def members_attack(scratch, n, mask, both, which, foe):
    """The attacks of the ships `which` of subset `mask`, flying as that group at the city of
    the last `residuals`, against a captain and (with `both`) against an army."""
    g, classes, twice = scratch[SIZE + mask], scratch[CLASSES + mask], scratch[TWICE + mask]
    total, army = 0, 0
    for j in range(n):
        if (mask & which) >> j & 1:
            others = companions(classes, twice, scratch[HAND_BIT + j])
            left, count = R_LEFT + j * LEFT, scratch[R_COUNT + j]
            attack = residual_attack(scratch[R_TOTAL + j], scratch, left, count, others, g)
            total += attack
            if both:
                if (foe >> j) & 1:
                    at = R_ARMY - R_TOTAL
                    total_army, count = scratch[at + R_TOTAL + j], scratch[at + R_COUNT + j]
                    attack = residual_attack(total_army, scratch, at + left, count, others, g)
                army += attack
    return total, army


@jit
def shared_attacks(p, scratch, fscratch, n, city, both, fuel, fixed, foe):
    """scratch[SHARED + mask] (and SHARED_ARMY): the attacks of the ships `fixed` of every
    subset that fits `fuel`, asked at `city`: ships that look at their companions but not
    at the city, so these sums serve every city on the board (subset_attacks)."""
    residuals(p, scratch, n, city, both, fixed, foe)
    for mask in range(1 << n):
        if fscratch[FUEL + mask] > fuel:
            continue
        if mask & fixed:
            total, army = members_attack(scratch, n, mask, both, fixed, foe)
            scratch[SHARED + mask] = total
            scratch[SHARED_ARMY + mask] = army


@jit
def subset_attacks(p, scratch, fscratch, n, city, both, fuel, grouped, foe, sited, space):
    """The rows of board `space` at BATTLE (and with `both` at VS_ARMY, against armies): the
    attack of every subset of the hand at `city` whose fuel is at most `fuel` (a subset of one
    is too), the sums cards.group_attack makes. A ship whose traits do not look at its
    companions (cards.depends_on_group) adds the same attack to every subset it is in, so
    such a subset's sum is a smaller one's plus that ship's; the ships that look at their
    companions but not at the city come from shared_attacks, made once for the board; the
    others' attacks are asked of the subset itself. A ship whose attack does not depend on the
    foe is asked once for both sums. `grouped`, `foe`: hand_kinds; `sited`: board_signatures."""
    battle, vs_army = BATTLE + space * MASKS, VS_ARMY + space * MASKS
    for j in range(n):
        if (grouped >> j) & 1:
            continue
        m = scratch[HAND_M + j]  # its companions do not count: asked as a ship alone
        scratch[ALONE + j] = model_attack(p, m, city, 0, 1, False, False)
        if both:
            foes = (foe >> j) & 1
            scratch[ALONE_ARMY + j] = (
                model_attack(p, m, city, 0, 1, True, False) if foes else scratch[ALONE + j]
            )
    residuals(p, scratch, n, city, both, grouped & sited, foe)
    scratch[battle] = 0
    scratch[vs_army] = 0
    for mask in range(1, 1 << n):
        if fscratch[FUEL + mask] > fuel:
            continue
        if mask & grouped == 0:
            j = 0
            while (mask >> j) & 1 == 0:
                j += 1
            scratch[battle + mask] = scratch[battle + (mask & (mask - 1))] + scratch[ALONE + j]
            if both:
                rest = scratch[vs_army + (mask & (mask - 1))]
                scratch[vs_army + mask] = rest + scratch[ALONE_ARMY + j]
            continue
        total = scratch[battle + (mask & ~grouped)]
        army = scratch[vs_army + (mask & ~grouped)]
        if mask & grouped & ~sited:
            total += scratch[SHARED + mask]
            army += scratch[SHARED_ARMY + mask]
        if mask & grouped & sited:
            here, army_here = members_attack(scratch, n, mask, both, grouped & sited, foe)
            total += here
            army += army_here
        scratch[battle + mask] = total
        if both:
            scratch[vs_army + mask] = army


@jit
def task_bonus(obs, p, city, weight):
    """A city card's worth for the tasks in play: `weight` x the first reward per task."""
    bonus = 0.0
    for t in range(obs[L.O_N_TASKS]):
        if task_counts_city(p, obs[L.O_TASKS + t], city):
            bonus += weight * p[L.P_TASK_FIRST]
    return bonus


@jit_inline  # pasted into fill_values' loop over every (city, subset)
def contested_value(reward, mine, theirs, cost, comp):
    """Expected humans of a city fought for: win the reward, or lose a ship (less the value
    of the compensation card); retreating (0) when the odds are bad."""
    pw = p_win_duel(mine, theirs)
    return max(0.0, pw * reward - (1.0 - pw) * (cost - comp))


@jit
def hand_subsets(p, scratch, fscratch, n):
    """Every subset of the hand: its size (SIZE), its ships' classes (CLASSES, TWICE: as
    cards.group_classes), its fuel (FUEL) and what losing a fight costs it (COST, loss_cost),
    each from a smaller subset and its last ship; each own ship's class (HAND_BIT)."""
    fscratch[FUEL] = 0.0
    scratch[COST] = 0
    scratch[SIZE] = 0
    scratch[CLASSES] = 0
    scratch[TWICE] = 0
    for j in range(n):
        scratch[HAND_BIT + j] = class_bit(p, scratch[HAND_M + j])
    for mask in range(1, 1 << n):
        j = n - 1
        while (mask >> j) & 1 == 0:
            j -= 1
        rest, m, bit = mask ^ (1 << j), scratch[HAND_M + j], scratch[HAND_BIT + j]
        fscratch[FUEL + mask] = fscratch[FUEL + rest] + mf(p, m, L.M_FUEL)  # as group_fuel
        scratch[COST + mask] = cheaper_loss(p, scratch[COST + rest], m)  # as loss_cost
        scratch[SIZE + mask] = scratch[SIZE + rest] + 1
        scratch[TWICE + mask] = scratch[TWICE + rest] | (scratch[CLASSES + rest] & bit)
        scratch[CLASSES + mask] = scratch[CLASSES + rest] | bit


@jit
def fill_values(obs, p, scratch, fscratch, n, comp, task_weight, light, fuel):
    """V for every (space, subset) under a contest model: each city is contested with chance
    fscratch[Q + space] by an attack power fscratch[THEIRS + space]. `light` values a city by
    its raid alone (a quicker estimate, for predicting other captains). Only subsets whose
    fuel is at most `fuel` get a value: best_plan with at most that fuel reads no other (a
    ship's fuel is never negative, so a subset of a group that fits fits too)."""
    hand_subsets(p, scratch, fscratch, n)
    grouped, foe = hand_kinds(p, scratch, n)
    sited = board_signatures(obs, p, scratch, n)
    fixed = grouped & ~sited
    for k in range(obs[L.O_N_BOARD]):
        if fixed and obs[L.O_BOARD + k] >= 0:  # asked at one city, alike at all
            shared_attacks(p, scratch, fscratch, n, obs[L.O_BOARD + k], not light, fuel, fixed, foe)
            break
    for k in range(obs[L.O_N_BOARD]):
        fscratch[V_BASE + k * MASKS] = 0.0  # no ship sent there (programme adds it)
        city = obs[L.O_BOARD + k]
        if city < 0:  # nothing to win (best_plan reads the subsets of the hand only)
            for mask in range(1 << n):
                fscratch[V_BASE + k * MASKS + mask] = 0.0
            continue
        extra = 0.0 if light else task_bonus(obs, p, city, task_weight)
        q = fscratch[Q + k]
        space = alike_space(obs, scratch, k)  # whose attacks serve here
        if space == k:
            subset_attacks(p, scratch, fscratch, n, city, not light, fuel, grouped, foe, sited, k)
        battle, vs_army = BATTLE + space * MASKS, VS_ARMY + space * MASKS
        raid, theirs, row = float(raid_humans(p, city)), fscratch[THEIRS + k], V_BASE + k * MASKS
        armies, catch = cf(p, city, L.CT_ARMIES), catch_humans(p, city)
        for mask in range(1, 1 << n):
            if fscratch[FUEL + mask] > fuel:
                continue
            mine = scratch[battle + mask]
            cost = scratch[COST + mask]
            if light:
                reward = raid
            else:
                win = win_odds(p, scratch, fscratch, scratch[vs_army + mask], armies)
                reward = city_reward(raid, catch, win, cost) + extra
            fought = contested_value(reward, mine, theirs, cost, comp)
            fscratch[row + mask] = (1.0 - q) * reward + q * fought


@jit
def best_plan(obs, scratch, fscratch, n, fuel, a):
    """The programme over the cities: disjoint subsets, total fuel <= fuel, most value.
    Writes the targets into `a` and returns the plan's value."""
    return read_plan(obs, scratch, fscratch, n, fuel, a, programme(obs, scratch, fscratch, n, fuel))


@jit
def programme(obs, scratch, fscratch, n, fuel):
    """best_plan's rows: per city, the most value of every group of ships sent so far whose
    fuel is at most `fuel`, and the subset it sent to that city (CHOICE). Returns where the
    last row is. A group's row and choices do not depend on `fuel` once it fits (they read
    its subsets only), so one programme serves read_plan with any smaller fuel too."""
    full = (1 << n) - 1
    cur, nxt = F_ROW, F_ROW + MASKS
    for mask in range(full + 1):
        fscratch[cur + mask] = NEG
    fscratch[cur + 0] = 0.0
    for k in range(obs[L.O_N_BOARD]):
        # each group of ships sent so far (`after`) whose fuel fits, from every smaller one
        # (`used`, ascending: on a tie the first stays) plus the ships sent to city k
        for after in range(full + 1):
            best, choice = NEG, 0
            if fscratch[FUEL + after] <= fuel:
                if k == 0:  # before the first city only the empty group was sent
                    best = 0.0 + fscratch[V_BASE + after]
                    choice = after
                else:  # every subset of a group that fits fits: its row holds a value
                    row = V_BASE + k * MASKS
                    used = 0
                    while True:
                        v = fscratch[cur + used] + fscratch[row + (after ^ used)]
                        if v > best:
                            best, choice = v, after ^ used
                        if used == after:
                            break
                        used = (used - after) & after  # the next subset of `after`
            fscratch[nxt + after] = best
            if best > NEG:
                scratch[CHOICE + (k + 1) * MASKS + after] = choice
        cur, nxt = nxt, cur
    return cur


@jit
def read_plan(obs, scratch, fscratch, n, fuel, a, last):
    """The best plan of total fuel <= fuel from a programme (row `last`) made with at least
    that fuel: its targets into `a`; returns its value."""
    best, best_mask = NEG, 0
    for mask in range(1 << n):
        if fscratch[FUEL + mask] <= fuel and fscratch[last + mask] > best:
            best, best_mask = fscratch[last + mask], mask
    mask = best_mask
    for k in range(obs[L.O_N_BOARD], 0, -1):
        sub = scratch[CHOICE + k * MASKS + mask]
        for j in range(n):
            if (sub >> j) & 1:
                a[L.A_TARGET + scratch[HAND_S + j]] = k - 1
        mask &= ~sub
    return best


@jit
def uniform_contest(obs, fscratch, chance, power):
    """The value strategy's contest model: every city contested with the same chance."""
    for k in range(L.MAX_BOARD):
        fscratch[Q + k] = chance if k < obs[L.O_N_BOARD] else 0.0
        fscratch[THEIRS + k] = power
