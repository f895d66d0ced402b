"""The compiled game loop: whole games, many at a time, on caller-made buffers.

`play_batch` plays games with any lineup of compiled policies: it reaches them through the
function pointers in its ctx (decide.py), so the loop and the rules are compiled once and each
policy once, on its own; a run compiles only the policies its seats use. With `trace`, every
turn's state is hashed (golden traces) and the card census is checked (a card lost or
duplicated stops the game with E_CENSUS).
"""

import numpy as np
from numba import types
from numba.core import config

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.checks import census_ok
from sim.games.alien_raid.columns import GAME_TRAJECTORY, SEAT_TRAJECTORY
from sim.games.alien_raid.decide import CTX_T, make_ctx
from sim.games.alien_raid.decision import PARAMS_T, RNG_T, game_scratch
from sim.games.alien_raid.flow import play_turn
from sim.games.alien_raid.scoring import end_game, winners_mask
from sim.games.alien_raid.state import new_game, pl
from sim.jit import jit, jit_inline
from sim.plugins.seating import seat_players
from sim.plugins.trajectory_kernel import score_track, summarise
from sim.random_streams import seed_streams

# per-game result columns
G_OUTCOME, G_TURNS, G_WINNERS, G_TOP, G_SECOND, G_DISCARDED, G_TIES = 0, 1, 2, 3, 4, 5, 6
G_ERROR, G_ERROR_SEAT, G_HASH, G_LEAD = 7, 8, 9, 10
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
    *GAME_TRAJECTORY,
)
OUTCOMES = ("win", "shared", "refused")
# per-seat result columns: final humans, the player's whole block of the state, then the
# trajectory (SEAT_TRAJECTORY)
SEAT_SCORE, SEAT_BLOCK = 0, 1
SEAT_TRAJ = SEAT_BLOCK + L.PL_SIZE
SEAT_SIZE = SEAT_TRAJ + len(SEAT_TRAJECTORY)

_FNV_PRIME = np.uint64(0x100000001B3)
_FNV_OFFSET = np.uint64(0xCBF29CE484222325)


@jit
def state_hash(s, h):
    """Fold the state into the running hash h (FNV-1a over the int32 words of the game, the
    bookkeeping after them left out)."""
    for i in range(L.S_OBSERVED):
        h = (h ^ np.uint64(np.uint32(s[i]))) * _FNV_PRIME
    return h


@jit
def _record(s, track, t):
    """Row t of the score track: every captain's humans after t turns (a turn is a round)."""
    for seat in range(s[L.S_N_PLAYERS]):
        track[t, seat] = s[pl(seat, L.PL_HUMANS)]


@jit_inline  # pasted into play_batch, its one caller: LLVM compiles its rules once less
def play_rest(s, p, rng, ctx, log, trace, h, track):
    """Play from the state's turn to the end; returns the trace hash. `track` gets every
    captain's humans after each turn, the last turn's row holding the final humans (after
    the tasks and the credits repaid)."""
    _record(s, track, s[L.S_TURN] - 1)
    while s[L.S_TURN] <= p[L.P_TURNS] and s[L.S_ERROR] == L.OK:
        play_turn(s, p, rng, ctx, log)
        _record(s, track, s[L.S_TURN] - 1)
        if trace:
            h = state_hash(s, h)
            if s[L.S_ERROR] == L.OK and not census_ok(s, p):
                s[L.S_ERROR] = L.E_CENSUS
                s[L.S_ERROR_SEAT] = -1
    if s[L.S_ERROR] == L.OK:
        end_game(s, p, log)
        _record(s, track, s[L.S_TURN] - 1)
    return h


@jit_inline  # pasted into play_batch, its one caller: LLVM compiles its rules once less
def finish(s, p, out, h):
    """The per-game columns of a finished (or refused) game."""
    out[G_TURNS] = s[L.S_TURN] - 1
    out[G_ERROR], out[G_ERROR_SEAT] = s[L.S_ERROR], s[L.S_ERROR_SEAT]
    out[G_DISCARDED], out[G_TIES] = s[L.S_CITIES_DISCARDED], s[L.S_FIRST_TIE]
    out[G_HASH] = np.int64(h)
    if s[L.S_ERROR] != L.OK:
        out[G_OUTCOME] = 2
        return
    mask = winners_mask(s, p)
    out[G_WINNERS] = mask
    out[G_OUTCOME] = 0 if mask & (mask - 1) == 0 else 1
    top, second = -(1 << 40), -(1 << 40)
    for seat in range(s[L.S_N_PLAYERS]):
        v = s[pl(seat, L.PL_HUMANS)]
        if v > top:
            top, second = v, top
        elif v > second:
            second = v
    out[G_TOP], out[G_SECOND] = top, second


@jit
def play_batch(p, n_players, seeds, seat_lineup, lineup_policy, lineup_params, games, seats,
               trace, s, rng, log, ctx, track):  # fmt: skip
    """Play len(seeds) games. games: int64[n, len(GAME_COLUMNS)]; seats: int64[n, players,
    SEAT_SIZE]; s, rng, log, ctx and track: the work buffers `workspace` makes. Seat k of game g
    plays lineup row j = seat_lineup[g, k]: policy slot lineup_policy[j] of ctx's policies,
    with the parameters lineup_params[j]. Returns the number of games stopped by a refused
    decision."""
    which, params = ctx[0], ctx[1]
    errors = 0
    for g in range(seeds.shape[0]):
        seat_players(g, n_players, seat_lineup, lineup_policy, lineup_params, which, params)
        games[g, :] = 0
        seed_streams(rng, seeds[g])
        new_game(s, p, n_players, rng)
        s[L.S_CHECKING] = trace  # also every kept figure against one made anew
        game_scratch(ctx[7])
        h = state_hash(s, _FNV_OFFSET) if trace else _FNV_OFFSET
        h = play_rest(s, p, rng, ctx, log, trace, h, track)
        finish(s, p, games[g], h)
        errors += s[L.S_ERROR] != L.OK
        summarise(track, s[L.S_TURN] - 1, n_players, games[g], G_LEAD, seats[g], SEAT_TRAJ)
        for seat in range(n_players):
            seats[g, seat, SEAT_SCORE] = s[pl(seat, L.PL_HUMANS)]
            for f in range(L.PL_SIZE):
                seats[g, seat, SEAT_BLOCK + f] = s[pl(seat, f)]
    return errors


def workspace(policies: tuple, params_width: int, turns: int) -> tuple:
    """play_batch's work buffers: the state, the random streams, a log that keeps nothing,
    the decision buffers for `policies` and the score track of games of `turns` turns (made
    here so the loop allocates nothing)."""
    return (
        np.zeros(L.STATE_SIZE, np.int32),
        np.zeros(L.STREAMS, np.uint64),
        np.zeros((1, L.EV_SIZE), np.int32),
        make_ctx(policies, params_width),
        score_track(turns, L.MAX_PLAYERS),
    )


_I64 = types.int64
STATE_T = types.Array(types.int32, 1, "C")
LOG_T = types.Array(types.int32, 2, "C")
# play_batch's argument types, as simulate_chunk calls it
BATCH_TYPES = (
    PARAMS_T, _I64, types.Array(types.uint64, 1, "C"), types.Array(_I64, 2, "C"),
    types.Array(_I64, 1, "C"), types.Array(types.float64, 2, "C"), types.Array(_I64, 2, "C"),
    types.Array(_I64, 3, "C"), types.boolean, STATE_T, RNG_T, LOG_T, CTX_T,
    types.Array(_I64, 2, "C"),
)  # fmt: skip
# flow.play_turn's (sim play): state, params, streams, ctx, log
PLAY_TURN_TYPES = (STATE_T, PARAMS_T, RNG_T, CTX_T, LOG_T)
# play_scenario's: play_turn's, then the turns and whether to score the end
SCENARIO_TYPES = (*PLAY_TURN_TYPES, _I64, types.boolean)


def compiled(function, signature: tuple):
    """`function` compiled (or loaded from the cache) for `signature`, to call from Python
    with a ctx whose policies are compiled functions (a plain function without the JIT)."""
    if config.DISABLE_JIT:
        return function
    if signature not in function.overloads:  # compile() checks the types anew each call
        function.compile(signature)
    return function.overloads[signature].entry_point


@jit
def play_scenario(s, p, rng, ctx, log, turns, score):
    """A scenario: `turns` turns from the state's turn, then the end of the game if `score`."""
    for _ in range(turns):
        if s[L.S_ERROR] != L.OK or s[L.S_TURN] > p[L.P_TURNS]:
            break
        play_turn(s, p, rng, ctx, log)
    if score and s[L.S_ERROR] == L.OK:
        end_game(s, p, log)
