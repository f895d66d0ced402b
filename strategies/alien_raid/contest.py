"""Who will contest which city: the planner's model from public information.

Each other captain is expected to send about 60% of their ships as separate groups (at most
one per city), to the cities in proportion to their raids; a group's power is the captain's
known ships' expected attack plus, for each unrevealed ship, the average attack of the ships
of that deck nobody has seen yet, divided among the groups.
"""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import cf, mf
from sim.games.alien_raid.observe import op
from sim.jit import jit
from strategies.alien_raid.plan import THEIRS, Q
from strategies.alien_raid.shopping import expected_attack_kept, own_classes

UNSEEN = 2048  # scratch: unseen copies per model
DECK_POWER = 1024  # fscratch: unseen_attack per deck (start, blue, red)


@jit
def unseen_counts(obs, p, scratch):
    """Copies of each model nobody has seen: the catalog's count less the discards, the
    stations on the table and every ship revealed or in my hand."""
    for m in range(L.MAX_MODELS):
        scratch[UNSEEN + m] = mf(p, m, L.M_COUNT) if m < p[L.P_N_MODELS] else 0
        if m < p[L.P_N_MODELS]:
            scratch[UNSEEN + m] -= obs[L.O_SHIP_DISCARD + m]
    for k in range(obs[L.O_N_PLAYERS]):
        for i in range(L.MAX_HAND):
            m = obs[op(k, L.OP_HAND + i)]
            if m >= 0:
                scratch[UNSEEN + m] -= 1
        for i in range(L.MAX_STATIONS):
            m = obs[op(k, L.OP_STATIONS + i)]
            if m >= 0:
                scratch[UNSEEN + m] -= 1
    for m in range(L.MAX_MODELS):
        scratch[UNSEEN + m] = max(scratch[UNSEEN + m], 0)


@jit
def deck_of_purchase(p, turn):
    return L.DECK_RED if turn >= p[L.P_RED_FROM_TURN] else L.DECK_BLUE


@jit
def unseen_attack(obs, p, scratch, fscratch, deck, classes):
    """The average attack of the unseen ships of a deck (stations excluded); `classes`: the
    own ships' (shopping.own_classes)."""
    total, n = 0.0, 0
    for m in range(p[L.P_N_MODELS]):
        if mf(p, m, L.M_DECK) == deck and mf(p, m, L.M_ATTACK) > 0:
            total += scratch[UNSEEN + m] * expected_attack_kept(obs, p, scratch, fscratch, m,
                                                                classes)  # fmt: skip
            n += scratch[UNSEEN + m]
    return total / n if n > 0 else 4.0


@jit
def fleet_power(obs, p, scratch, fscratch, k, classes):
    """Captain k's expected total attack: known ships, and the unseen average for the rest
    (unseen_attack per deck, worked out once per public_contest: DECK_POWER, -1 until then);
    `classes`: the own ships' (shopping.own_classes)."""
    power = 0.0
    for i in range(L.MAX_HAND):
        if obs[op(k, L.OP_SLOT_USED + i)] == 0:
            continue
        m = obs[op(k, L.OP_HAND + i)]
        if m >= 0:
            power += expected_attack_kept(obs, p, scratch, fscratch, m, classes)
        else:
            deck = deck_of_purchase(p, obs[op(k, L.OP_BOUGHT_TURN + i)])
            if fscratch[DECK_POWER + deck] < 0.0:
                fscratch[DECK_POWER + deck] = unseen_attack(obs, p, scratch, fscratch, deck,
                                                            classes)  # fmt: skip
            power += fscratch[DECK_POWER + deck]
    return power


@jit
def public_contest(obs, p, scratch, fscratch, scale):
    unseen_counts(obs, p, scratch)
    total_raid = 0.0
    for s in range(obs[L.O_N_BOARD]):
        if obs[L.O_BOARD + s] >= 0:
            total_raid += cf(p, obs[L.O_BOARD + s], L.CT_RAID)
    for s in range(L.MAX_BOARD):
        fscratch[Q + s] = 1.0
        fscratch[THEIRS + s] = 0.0
    for deck in range(L.DECK_RED + 1):
        fscratch[DECK_POWER + deck] = -1.0
    seat = obs[L.O_SEAT]
    classes = own_classes(obs, p)
    for k in range(obs[L.O_N_PLAYERS]):
        if k == seat or obs[op(k, L.OP_N_SHIPS)] == 0:
            continue
        groups = max(1.0, 0.6 * min(obs[op(k, L.OP_N_SHIPS)], obs[L.O_N_BOARD]))
        per_group = fleet_power(obs, p, scratch, fscratch, k, classes) / groups
        for s in range(obs[L.O_N_BOARD]):
            if obs[L.O_BOARD + s] < 0 or total_raid <= 0:
                continue
            share = cf(p, obs[L.O_BOARD + s], L.CT_RAID) / total_raid
            chance = min(0.95, groups * share * scale)
            fscratch[Q + s] *= 1.0 - chance
            if chance > 0.1:
                fscratch[THEIRS + s] = max(fscratch[THEIRS + s], per_group)
    for s in range(L.MAX_BOARD):
        fscratch[Q + s] = 1.0 - fscratch[Q + s]
