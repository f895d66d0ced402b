"""The compiled game loop: whole games, many at a time, on caller-made buffers.

Seat k of game g plays lineup row `seat_lineup[g, k]`: strategy kind `lineup_kind[j]` with
parameters `lineup_params[j]`. With `trace`, every turn's state is hashed (golden traces) and
the card census is checked (a card lost or duplicated stops the game with E_CENSUS).
"""

import numpy as np

from sim.games.alien_raid.checks import census_ok
from sim.games.alien_raid.flow import play_turn
from sim.games.alien_raid.layout import (
    ACTION_SIZE,
    E_CENSUS,
    MAX_HAND,
    MAX_PLAYERS,
    OBS_SIZE,
    OK,
    P_TURNS,
    PL_HUMANS,
    PL_SIZE,
    S_CITIES_DISCARDED,
    S_ERROR,
    S_ERROR_SEAT,
    S_FIRST_TIE,
    S_N_PLAYERS,
    S_TURN,
    STATE_SIZE,
)
from sim.games.alien_raid.rng import N_STREAMS, seed_streams
from sim.games.alien_raid.scoring import end_game, winners_mask
from sim.games.alien_raid.state import new_game, pl
from sim.jit import jit, jit_allocating
from strategies.alien_raid.common import FSCRATCH_SIZE, SCRATCH_SIZE
from strategies.alien_raid.script import SCRIPT_WIDTH

# per-game result columns
G_OUTCOME, G_TURNS, G_WINNERS, G_TOP, G_SECOND, G_DISCARDED, G_TIES = 0, 1, 2, 3, 4, 5, 6
G_ERROR, G_ERROR_SEAT, G_HASH = 7, 8, 9
GAME_COLUMNS = (
    "outcome",
    "turns",
    "winners_mask",
    "top_humans",
    "second_humans",
    "cities_discarded",
    "battle_ties",
    "error",
    "error_seat",
    "trace_hash",
)
OUTCOMES = ("win", "shared", "refused")
# per-seat result columns: final humans, then the player's whole block of the state
SEAT_SCORE, SEAT_BLOCK = 0, 1
SEAT_SIZE = 1 + PL_SIZE

_FNV_PRIME = np.uint64(0x100000001B3)
_FNV_OFFSET = np.uint64(0xCBF29CE484222325)


@jit
def state_hash(s, h):
    """Fold the state into the running hash h (FNV-1a over the int32 words)."""
    for i in range(s.shape[0]):
        h = (h ^ np.uint64(np.uint32(s[i]))) * _FNV_PRIME
    return h


@jit
def play_rest(s, p, rng, ctx, log, trace, h):
    """Play from the state's turn to the end; returns the trace hash."""
    while s[S_TURN] <= p[P_TURNS] and s[S_ERROR] == OK:
        play_turn(s, p, rng, ctx, log)
        if trace:
            h = state_hash(s, h)
            if s[S_ERROR] == OK and not census_ok(s, p):
                s[S_ERROR] = E_CENSUS
                s[S_ERROR_SEAT] = -1
    if s[S_ERROR] == OK:
        end_game(s, p, log)
    return h


@jit
def finish(s, p, out, h):
    """The per-game columns of a finished (or refused) game."""
    out[G_TURNS] = s[S_TURN] - 1
    out[G_ERROR], out[G_ERROR_SEAT] = s[S_ERROR], s[S_ERROR_SEAT]
    out[G_DISCARDED], out[G_TIES] = s[S_CITIES_DISCARDED], s[S_FIRST_TIE]
    out[G_HASH] = np.int64(h)
    if s[S_ERROR] != OK:
        out[G_OUTCOME] = 2
        return
    mask = winners_mask(s, p)
    out[G_WINNERS] = mask
    out[G_OUTCOME] = 0 if mask & (mask - 1) == 0 else 1
    top, second = -(1 << 40), -(1 << 40)
    for seat in range(s[S_N_PLAYERS]):
        v = s[pl(seat, PL_HUMANS)]
        if v > top:
            top, second = v, top
        elif v > second:
            second = v
    out[G_TOP], out[G_SECOND] = top, second


@jit_allocating
def make_ctx(params_width, script):
    """The decision buffers (see decide.py); `script` holds a scenario's decisions."""
    kinds = np.zeros(MAX_PLAYERS, np.int64)
    params = np.zeros((MAX_PLAYERS, max(params_width, 1)), np.float64)
    obs = np.zeros(OBS_SIZE, np.int32)
    a = np.zeros(ACTION_SIZE, np.int32)
    acts = np.zeros((MAX_PLAYERS, ACTION_SIZE), np.int32)
    decided = np.zeros(MAX_PLAYERS, np.int64)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    fscratch = np.zeros(FSCRATCH_SIZE, np.float64)
    buf = np.zeros(MAX_HAND, np.int64)
    slots = np.zeros(MAX_HAND, np.int64)
    totals = np.zeros(MAX_PLAYERS, np.int64)
    return (kinds, params, script, obs, a, acts, decided, scratch, fscratch, buf, slots, totals)


@jit_allocating
def play_batch(p, n_players, seeds, seat_lineup, lineup_kind, lineup_params, games, seats, trace):
    """Play len(seeds) games. games: int64[n, len(GAME_COLUMNS)]; seats: int64[n, players,
    SEAT_SIZE]. Returns the number of games stopped by a refused decision."""
    s = np.zeros(STATE_SIZE, np.int32)
    rng = np.zeros(N_STREAMS, np.uint64)
    log = np.zeros((1, 8), np.int32)
    ctx = make_ctx(lineup_params.shape[1], np.zeros((1, SCRIPT_WIDTH), np.int32))
    kinds, params = ctx[0], ctx[1]
    errors = 0
    for g in range(seeds.shape[0]):
        for seat in range(n_players):
            j = seat_lineup[g, seat]
            kinds[seat] = lineup_kind[j]
            params[seat, : lineup_params.shape[1]] = lineup_params[j, :]
        games[g, :] = 0
        seed_streams(rng, seeds[g])
        new_game(s, p, n_players, rng)
        h = state_hash(s, _FNV_OFFSET) if trace else _FNV_OFFSET
        h = play_rest(s, p, rng, ctx, log, trace, h)
        finish(s, p, games[g], h)
        errors += s[S_ERROR] != OK
        for seat in range(n_players):
            seats[g, seat, SEAT_SCORE] = s[pl(seat, PL_HUMANS)]
            for f in range(PL_SIZE):
                seats[g, seat, SEAT_BLOCK + f] = s[pl(seat, f)]
    return errors


@jit
def play_scenario(s, p, rng, ctx, log, turns, score):
    """A scenario: `turns` turns from the state's turn, then the end of the game if `score`."""
    for _ in range(turns):
        if s[S_ERROR] != OK or s[S_TURN] > p[P_TURNS]:
            break
        play_turn(s, p, rng, ctx, log)
    if score and s[S_ERROR] == OK:
        end_game(s, p, log)
