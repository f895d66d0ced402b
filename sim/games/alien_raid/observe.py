"""What one captain may see, copied into an observation array before each decision (for the
next captain of a simultaneous phase, on the same state, only that captain's own part; in a
game, only the captains' public parts the rules marked as changed since the last one:
observe_kept).

Public: humans (the humans track), credits taken, cards held (their number), stations (face
up), city cards won, discarded ships and armies (face up, FAQ 361-363), the ships of every
attack from its reveal on (FAQ 329) and what each captain spent on ships this turn (line 329:
"calculations based on your expenses"). Private: the captain's own ships, compensation cards
and offered cards. Never visible: other hands' unrevealed ships, any deck's order.
"""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import cf
from sim.games.alien_raid.fighting import fighter_total
from sim.games.alien_raid.planning import fuel_available
from sim.games.alien_raid.state import kept_differs, pl
from sim.jit import jit

KEPT_SIZE = 1 + L.OBS_SIZE  # observe_kept's bookkeeping in the ctx


@jit
def op(k, field):
    """Index of field OP_* of captain k in an observation."""
    return L.O_PLAYERS + k * L.OBS_PLAYER_SIZE + field


@jit
def observe(s, p, seat, phase, space, decided, obs, buf, slots):
    """Fill `obs` with what `seat` may see when deciding `phase` about board `space`;
    `decided[k]` is captain k's fight-or-retreat answer so far (0 none, 1 fight, 2 retreat)."""
    observe_table(s, p, phase, space, decided, obs, buf, slots)
    observe_own(s, p, seat, obs)


@jit
def observe_own(s, p, seat, obs):
    """The part of an observation that is `seat`'s alone: its seat, fuel, offered cards,
    compensation cards, probes, and its own ships (the others' revealed ones are in their
    public parts). With the state unchanged since an observation of another captain, this
    alone turns that observation into `seat`'s (the captains of a simultaneous phase): that
    captain's ships are hidden again."""
    last = obs[L.O_SEAT]
    if last != seat and 0 <= last < s[L.S_N_PLAYERS]:
        _observe_hand(s, last, obs, False)
    _observe_hand(s, seat, obs, True)
    obs[L.O_SEAT] = seat
    obs[L.O_FUEL] = fuel_available(s, p, seat)
    for i in range(L.MAX_DRAWN):
        obs[L.O_DRAWN + i] = s[pl(seat, L.PL_DRAWN + i)]
    obs[L.O_REDRAWS] = s[pl(seat, L.PL_REDRAWS)]
    for k in range(L.MAX_COMP_MODELS):
        obs[L.O_OWN_COMPS + k] = s[pl(seat, L.PL_COMPS + k)]
        obs[L.O_OWN_COMPS_NEW + k] = s[pl(seat, L.PL_COMPS_NEW + k)]
    probes = 1 if s[pl(seat, L.PL_PROBE_CARD)] >= 0 else 0
    probes |= 2 if s[pl(seat, L.PL_RP_ARMIES)] >= 0 else 0
    probes |= 4 if s[pl(seat, L.PL_CP_TURN)] > 0 else 0
    obs[L.O_PROBES] = probes


@jit
def _observe_hand(s, k, obs, own):
    """Captain k's ships as its owner sees them (`own`) or as the others do: once revealed."""
    for i in range(L.MAX_HAND):
        m = s[pl(k, L.PL_HAND + i)]
        visible = m >= 0 and (own or s[pl(k, L.PL_KNOWN + i)] == 1)
        obs[op(k, L.OP_HAND + i)] = m if visible else -1


@jit
def observe_answered(s, p, seat, last, decided, obs, buf, slots):
    """The observation of captain `last`'s decision made `seat`'s for the same decision after
    `last` answered, the state changed only in `last`'s part (fight or retreat): the answers
    so far, `last`'s captain block and `seat`'s own part again."""
    n = s[L.S_N_PLAYERS]
    for k in range(n):
        obs[L.O_DECIDED + k] = decided[k]
    _observe_player(s, p, last, obs[L.O_CITY], obs, buf, slots)
    observe_own(s, p, seat, obs)


@jit
def observe_table(s, p, phase, space, decided, obs, buf, slots):
    """What every captain sees alike (observe_own adds the rest)."""
    for i in range(L.OBS_SIZE):
        obs[i] = -1
    _observe_shared(s, phase, space, decided, obs)
    for k in range(s[L.S_N_PLAYERS]):
        _observe_player(s, p, k, space, obs, buf, slots)


@jit
def _observe_shared(s, phase, space, decided, obs):
    """The table: board, tasks, discards, the fight's cards and the answers so far."""
    n = s[L.S_N_PLAYERS]
    obs[L.O_N_PLAYERS], obs[L.O_TURN], obs[L.O_PHASE] = n, s[L.S_TURN], phase
    obs[L.O_N_BOARD], obs[L.O_CITY] = s[L.S_N_BOARD], space
    for k in range(L.MAX_BOARD):
        obs[L.O_BOARD + k] = s[L.S_BOARD + k]
    for k in range(L.MAX_TASKS):
        obs[L.O_TASKS + k] = s[L.S_TASKS + k] if k < s[L.S_N_TASKS] else -1
    obs[L.O_N_TASKS] = s[L.S_N_TASKS]
    obs[L.O_CREDITS_LEFT] = s[L.S_CREDITS_LEFT]
    for m in range(L.MAX_MODELS):
        obs[L.O_SHIP_DISCARD + m] = s[L.S_SHIP_DISCARD + m]
    for a in range(L.MAX_ARMY_MODELS):
        obs[L.O_ARMY_DISCARD + a] = s[L.S_ARMY_DISCARD + a]
    obs[L.O_ARMY_LEFT] = s[L.S_ARMY_END] - s[L.S_ARMY_TOP]
    obs[L.O_F_ARMY] = s[L.S_F_ARMY] if space >= 0 else -1
    for k in range(L.MAX_CATCH):
        obs[L.O_F_CATCH + k] = s[L.S_F_CATCH + k]
    obs[L.O_F_N_CATCH] = s[L.S_F_N_CATCH]
    obs[L.O_F_ARMY_INDEX] = s[L.S_F_ARMY_INDEX]
    for k in range(L.MAX_PLAYERS):
        obs[L.O_DECIDED + k] = decided[k] if k < n else -1


@jit
def observe_kept(s, p, seat, phase, space, decided, obs, buf, slots, kept):
    """observe() into the observation of the game's last decision: of the captains' public
    parts only those the rules marked as changed since (state.touched) are made again, the
    table, the fights and `seat`'s own part always. `kept` (the ctx's, KEPT_SIZE): [0] the
    captains whose part in `obs` is current (with the state's S_OBSERVED: a new game or a new
    ctx starts afresh), then room for an observation: in checking mode (S_CHECKING) every kept
    observation is compared with one made anew there (a difference stops the game, E_KEPT)."""
    n = s[L.S_N_PLAYERS]
    current = kept[0] & s[L.S_OBSERVED]
    if current == 0:
        observe(s, p, seat, phase, space, decided, obs, buf, slots)
    else:
        _observe_shared(s, phase, space, decided, obs)
        for k in range(n):
            if (current >> k) & 1:
                _observe_fight(s, p, k, space, obs, buf, slots)
            else:
                _observe_player(s, p, k, space, obs, buf, slots)
        observe_own(s, p, seat, obs)
        if s[L.S_CHECKING]:
            _check_kept(s, p, seat, phase, space, decided, obs, buf, slots, kept[1:])
    everyone = (1 << n) - 1
    kept[0] = everyone
    s[L.S_OBSERVED] = everyone


@jit
def _check_kept(s, p, seat, phase, space, decided, obs, buf, slots, anew):
    observe(s, p, seat, phase, space, decided, anew, buf, slots)
    for i in range(L.OBS_SIZE):
        if anew[i] != obs[i]:
            kept_differs(s, seat)


@jit
def _observe_player(s, p, k, space, obs, buf, slots):
    _observe_block(s, p, k, obs)
    _observe_fight(s, p, k, space, obs, buf, slots)


@jit
def _observe_block(s, p, k, obs):
    """Captain k's public part outside a fight (state.touched marks where it changes)."""
    _observe_hand(s, k, obs, False)
    obs[op(k, L.OP_HUMANS)] = s[pl(k, L.PL_HUMANS)]
    obs[op(k, L.OP_CREDITS)] = s[pl(k, L.PL_CREDITS)]
    ships = 0
    for i in range(L.MAX_HAND):
        used = s[pl(k, L.PL_HAND + i)] >= 0
        ships += used
        obs[op(k, L.OP_SLOT_USED + i)] = used
        obs[op(k, L.OP_BOUGHT_TURN + i)] = s[pl(k, L.PL_BOUGHT_TURN + i)] if used else -1
        obs[op(k, L.OP_TARGET + i)] = s[pl(k, L.PL_TARGET + i)] if used else -1
    obs[op(k, L.OP_N_SHIPS)] = ships
    for i in range(L.MAX_STATIONS):
        obs[op(k, L.OP_STATIONS + i)] = s[pl(k, L.PL_STATIONS + i)]
        obs[op(k, L.OP_STATION_USED + i)] = s[pl(k, L.PL_STATION_USED + i)]
    cards = 0
    for c in range(L.MAX_COMP_MODELS):
        cards += s[pl(k, L.PL_COMPS + c)] + s[pl(k, L.PL_COMPS_NEW + c)]
    obs[op(k, L.OP_N_COMPS)] = cards
    won = s[pl(k, L.PL_N_WON)]
    obs[op(k, L.OP_N_WON)] = won
    for r in range(L.MAX_REGIONS):
        obs[op(k, L.OP_REGIONS + r)] = 0
    for t in range(L.MAX_TYPES):
        obs[op(k, L.OP_TYPES + t)] = 0
    for i in range(won):
        c = s[pl(k, L.PL_WON + i)]
        obs[op(k, L.OP_REGIONS + cf(p, c, L.CT_REGION))] += 1
        obs[op(k, L.OP_TYPES + cf(p, c, L.CT_TYPE))] += 1
    obs[op(k, L.OP_SPENT_TURN)] = s[pl(k, L.PL_SPENT_TURN)]
    obs[op(k, L.OP_SHIPS_BOUGHT_TURN)] = s[pl(k, L.PL_SHIPS_BOUGHT_TURN)]


@jit
def _observe_fight(s, p, k, space, obs, buf, slots):
    """Captain k in the fight at board `space` (made at every observation)."""
    fighting = space >= 0 and s[L.S_F_IN + k] == 1
    obs[L.O_F_IN + k] = 1 if fighting else 0
    obs[L.O_F_ROLL + k] = s[L.S_F_ROLL + k] if fighting else 0
    obs[L.O_F_TOTAL + k] = fighter_total(s, p, k, buf, slots) if fighting else 0
