"""What one captain may see, copied into an observation array before each decision.

Public: humans (the humans track), credits taken, cards held (their number), stations (face
up), city cards won, discarded ships and armies (face up, FAQ 361-363), the ships of every
attack from its reveal on (FAQ 329) and what each captain spent on ships this turn (line 329:
"calculations based on your expenses"). Private: the captain's own ships, compensation cards
and offered cards. Never visible: other hands' unrevealed ships, any deck's order.
"""

from sim.games.alien_raid.cards import cf
from sim.games.alien_raid.fighting import fighter_total
from sim.games.alien_raid.layout import (
    CT_REGION,
    CT_TYPE,
    MAX_ARMY_MODELS,
    MAX_BOARD,
    MAX_CATCH,
    MAX_COMP_MODELS,
    MAX_DRAWN,
    MAX_HAND,
    MAX_MODELS,
    MAX_PLAYERS,
    MAX_REGIONS,
    MAX_STATIONS,
    MAX_TASKS,
    MAX_TYPES,
    O_ARMY_DISCARD,
    O_ARMY_LEFT,
    O_BOARD,
    O_CITY,
    O_CREDITS_LEFT,
    O_DECIDED,
    O_DRAWN,
    O_F_ARMY,
    O_F_ARMY_INDEX,
    O_F_CATCH,
    O_F_IN,
    O_F_N_CATCH,
    O_F_ROLL,
    O_F_TOTAL,
    O_FUEL,
    O_N_BOARD,
    O_N_PLAYERS,
    O_N_TASKS,
    O_OWN_COMPS,
    O_OWN_COMPS_NEW,
    O_PHASE,
    O_PLAYERS,
    O_PROBES,
    O_REDRAWS,
    O_SEAT,
    O_SHIP_DISCARD,
    O_TASKS,
    O_TURN,
    OBS_PLAYER_SIZE,
    OBS_SIZE,
    OP_BOUGHT_TURN,
    OP_CREDITS,
    OP_HAND,
    OP_HUMANS,
    OP_N_COMPS,
    OP_N_SHIPS,
    OP_N_WON,
    OP_REGIONS,
    OP_SHIPS_BOUGHT_TURN,
    OP_SLOT_USED,
    OP_SPENT_TURN,
    OP_STATION_USED,
    OP_STATIONS,
    OP_TARGET,
    OP_TYPES,
    PL_BOUGHT_TURN,
    PL_COMPS,
    PL_COMPS_NEW,
    PL_CP_TURN,
    PL_CREDITS,
    PL_DRAWN,
    PL_HAND,
    PL_HUMANS,
    PL_KNOWN,
    PL_N_WON,
    PL_PROBE_CARD,
    PL_REDRAWS,
    PL_RP_ARMIES,
    PL_SHIPS_BOUGHT_TURN,
    PL_SPENT_TURN,
    PL_STATION_USED,
    PL_STATIONS,
    PL_TARGET,
    PL_WON,
    S_ARMY_DISCARD,
    S_ARMY_END,
    S_ARMY_TOP,
    S_BOARD,
    S_CREDITS_LEFT,
    S_F_ARMY,
    S_F_ARMY_INDEX,
    S_F_CATCH,
    S_F_IN,
    S_F_N_CATCH,
    S_F_ROLL,
    S_N_BOARD,
    S_N_PLAYERS,
    S_N_TASKS,
    S_SHIP_DISCARD,
    S_TASKS,
    S_TURN,
)
from sim.games.alien_raid.planning import fuel_available
from sim.games.alien_raid.state import pl
from sim.jit import jit


@jit
def op(k, field):
    """Index of field OP_* of captain k in an observation."""
    return O_PLAYERS + k * OBS_PLAYER_SIZE + field


@jit
def observe(s, p, seat, phase, space, decided, obs, buf, slots):
    """Fill `obs` with what `seat` may see when deciding `phase` about board `space`;
    `decided[k]` is captain k's fight-or-retreat answer so far (0 none, 1 fight, 2 retreat)."""
    for i in range(OBS_SIZE):
        obs[i] = -1
    n = s[S_N_PLAYERS]
    obs[O_SEAT], obs[O_N_PLAYERS], obs[O_TURN], obs[O_PHASE] = seat, n, s[S_TURN], phase
    obs[O_FUEL] = fuel_available(s, p, seat)
    obs[O_N_BOARD], obs[O_CITY] = s[S_N_BOARD], space
    for k in range(MAX_BOARD):
        obs[O_BOARD + k] = s[S_BOARD + k]
    for k in range(MAX_TASKS):
        obs[O_TASKS + k] = s[S_TASKS + k] if k < s[S_N_TASKS] else -1
    obs[O_N_TASKS] = s[S_N_TASKS]
    obs[O_CREDITS_LEFT] = s[S_CREDITS_LEFT]
    for m in range(MAX_MODELS):
        obs[O_SHIP_DISCARD + m] = s[S_SHIP_DISCARD + m]
    for a in range(MAX_ARMY_MODELS):
        obs[O_ARMY_DISCARD + a] = s[S_ARMY_DISCARD + a]
    obs[O_ARMY_LEFT] = s[S_ARMY_END] - s[S_ARMY_TOP]
    for i in range(MAX_DRAWN):
        obs[O_DRAWN + i] = s[pl(seat, PL_DRAWN + i)]
    obs[O_REDRAWS] = s[pl(seat, PL_REDRAWS)]
    for k in range(MAX_COMP_MODELS):
        obs[O_OWN_COMPS + k] = s[pl(seat, PL_COMPS + k)]
        obs[O_OWN_COMPS_NEW + k] = s[pl(seat, PL_COMPS_NEW + k)]
    probes = 1 if s[pl(seat, PL_PROBE_CARD)] >= 0 else 0
    probes |= 2 if s[pl(seat, PL_RP_ARMIES)] >= 0 else 0
    probes |= 4 if s[pl(seat, PL_CP_TURN)] > 0 else 0
    obs[O_PROBES] = probes
    obs[O_F_ARMY] = s[S_F_ARMY] if space >= 0 else -1
    for k in range(MAX_CATCH):
        obs[O_F_CATCH + k] = s[S_F_CATCH + k]
    obs[O_F_N_CATCH] = s[S_F_N_CATCH]
    obs[O_F_ARMY_INDEX] = s[S_F_ARMY_INDEX]
    for k in range(MAX_PLAYERS):
        obs[O_DECIDED + k] = decided[k] if k < n else -1
    for k in range(n):
        _observe_player(s, p, seat, k, space, obs, buf, slots)


@jit
def _observe_player(s, p, seat, k, space, obs, buf, slots):
    obs[op(k, OP_HUMANS)] = s[pl(k, PL_HUMANS)]
    obs[op(k, OP_CREDITS)] = s[pl(k, PL_CREDITS)]
    ships = 0
    for i in range(MAX_HAND):
        m = s[pl(k, PL_HAND + i)]
        used = m >= 0
        ships += used
        obs[op(k, OP_SLOT_USED + i)] = used
        visible = used and (k == seat or s[pl(k, PL_KNOWN + i)] == 1)
        obs[op(k, OP_HAND + i)] = m if visible else -1
        obs[op(k, OP_BOUGHT_TURN + i)] = s[pl(k, PL_BOUGHT_TURN + i)] if used else -1
        obs[op(k, OP_TARGET + i)] = s[pl(k, PL_TARGET + i)] if used else -1
    obs[op(k, OP_N_SHIPS)] = ships
    for i in range(MAX_STATIONS):
        obs[op(k, OP_STATIONS + i)] = s[pl(k, PL_STATIONS + i)]
        obs[op(k, OP_STATION_USED + i)] = s[pl(k, PL_STATION_USED + i)]
    cards = 0
    for c in range(MAX_COMP_MODELS):
        cards += s[pl(k, PL_COMPS + c)] + s[pl(k, PL_COMPS_NEW + c)]
    obs[op(k, OP_N_COMPS)] = cards
    won = s[pl(k, PL_N_WON)]
    obs[op(k, OP_N_WON)] = won
    for r in range(MAX_REGIONS):
        obs[op(k, OP_REGIONS + r)] = 0
    for t in range(MAX_TYPES):
        obs[op(k, OP_TYPES + t)] = 0
    for i in range(won):
        c = s[pl(k, PL_WON + i)]
        obs[op(k, OP_REGIONS + cf(p, c, CT_REGION))] += 1
        obs[op(k, OP_TYPES + cf(p, c, CT_TYPE))] += 1
    obs[op(k, OP_SPENT_TURN)] = s[pl(k, PL_SPENT_TURN)]
    obs[op(k, OP_SHIPS_BOUGHT_TURN)] = s[pl(k, PL_SHIPS_BOUGHT_TURN)]
    fighting = space >= 0 and s[S_F_IN + k] == 1
    obs[O_F_IN + k] = 1 if fighting else 0
    obs[O_F_ROLL + k] = s[S_F_ROLL + k] if fighting else 0
    obs[O_F_TOTAL + k] = fighter_total(s, p, k, buf, slots) if fighting else 0
