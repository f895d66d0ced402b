"""The compiled game loop: whole games, many at a time, on caller-made buffers.

`play_batch` plays len(seeds) games with any compiled strategies: it takes their policies
as a tuple of function pointers (decision.POLICY_TYPE), so the loop is compiled once and
each policy once, on its own, and a run compiles only the policies its seats use. Seat k of
game g plays lineup row `seat_lineup[g, k]`: policy `policies[lineup_policy[j]]` with
parameters `lineup_params[j]` (whose first entry is the seat's dexterity factor). The tuple
has a fixed number of slots (unused ones repeat a policy), so one compiled loop serves every
lineup of up to POLICY_SLOTS strategies. The loop knows no strategy: it imports none.
"""

import numpy as np
from numba import types
from numba.core import config

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.decision import (
    ACTION_T,
    PARAMS_T,
    POLICY_TYPE,
    RNG_T,
    SCRATCH_SIZE,
    SCRATCH_T,
    STATE_T,
    STRATEGY_PARAMS_T,
    WORK_T,
    reset_action,
)
from sim.games.space_invaders.engine import begin_turn, pl, step
from sim.games.space_invaders.rounds import end_round, new_game, next_round, turn_seat
from sim.jit import jit, jit_inline
from sim.random_streams import seed_streams

# per-game result columns
GAME_COLUMNS = (
    "outcome",
    "rounds",
    "turns",
    "planet_left",
    "ufo_left",
    "score",
    "ufo_hits",
    "destroyed",
    "bonus_kills",
    "crashed",
    "returned",
    "damage",
    "healed",
    "reinforced",
    "launches",
    "final_assault",
    "deck_left",
    "error",
    "error_seat",
    "trace_hash",
    "planet_low",
)
(
    G_OUTCOME,
    G_ROUNDS,
    G_TURNS,
    G_PLANET,
    G_UFO,
    G_SCORE,
    G_UFO_HITS,
    G_DESTROYED,
    G_BONUS_KILLS,
    G_CRASHED,
    G_RETURNED,
    G_DAMAGE,
    G_HEALED,
    G_REINFORCED,
    G_LAUNCHES,
    G_ASSAULT,
    G_DECK_LEFT,
    G_ERROR,
    G_ERROR_SEAT,
    G_HASH,
    G_PLANET_LOW,
) = range(len(GAME_COLUMNS))
_FROM_STATE = (
    (G_ROUNDS, L.S_ROUND),
    (G_TURNS, L.S_TURNS),
    (G_PLANET, L.S_PLANET),
    (G_UFO, L.S_UFO),
    (G_SCORE, L.S_SCORE),
    (G_UFO_HITS, L.S_UFO_HITS),
    (G_DESTROYED, L.S_DESTROYED),
    (G_BONUS_KILLS, L.S_BONUS_KILLS),
    (G_CRASHED, L.S_CRASHED),
    (G_RETURNED, L.S_RETURNED),
    (G_DAMAGE, L.S_DAMAGE),
    (G_HEALED, L.S_HEALED),
    (G_REINFORCED, L.S_REINFORCED),
    (G_LAUNCHES, L.S_LAUNCHES),
    (G_ASSAULT, L.S_ASSAULT),
)

_FNV_PRIME = np.uint64(0x100000001B3)
_FNV_OFFSET = np.uint64(0xCBF29CE484222325)


@jit
def state_hash(s, h):
    """Fold the state (without the turn in progress) into the running FNV-1a hash h."""
    for i in range(L.HASHED_SIZE):
        h = (h ^ np.uint64(np.uint32(s[i]))) * _FNV_PRIME
    return h


@jit_inline
def _decide(policies, which, phase, s, p, w, seat, sp, rng, a, scratch):
    reset_action(a)
    policy = policies[which]
    policy(np.int64(phase), s, p, w, np.int64(seat), sp, rng, a, scratch)


@jit
def play_turn(s, p, w, a, rng, script, seat, policies, which, sp, scale, scratch, log):
    """One seat's whole turn (policy slot `which`, parameters `sp`); returns OK or the
    refusal of a decision."""
    begin_turn(s, seat)
    while s[L.S_PHASE] != L.PH_DONE:
        _decide(policies, which, s[L.S_PHASE], s, p, w, seat, sp, rng, a, scratch)
        err = step(s, p, w, a, rng, script, scale, log)
        if err != L.OK:
            return err
    return L.OK


@jit
def play_one(policies, p, n, which, params, scales, seed, s, w, a, rng, scratch, crashed, script,
             log, out, trace):  # fmt: skip
    """Play one game of `n` seats from `seed` to its end; fill `out` (G_* columns).
    which/params/scales: per seat, the policy slot, the parameters and the dexterity factor."""
    seed_streams(rng, seed)
    new_game(s, p, n, rng)
    h = _FNV_OFFSET
    low = s[L.S_PLANET]  # the planet's lowest health at the end of a round
    while s[L.S_STATUS] == L.RUNNING and next_round(s, p):
        for k in range(n):
            seat = turn_seat(s, k)
            err = play_turn(s, p, w, a, rng, script, seat, policies, which[seat], params[seat],
                            scales[seat], scratch, log)  # fmt: skip
            if err != L.OK:
                out[G_ERROR], out[G_ERROR_SEAT] = err, seat
                return
            if trace:
                h = state_hash(s, h)
            if s[L.S_ROUND_OVER] != 0:
                break
        err = end_round(s, p, w, rng, script, scales, log, crashed)
        if err != L.OK:
            out[G_ERROR], out[G_ERROR_SEAT] = err, 0
            return
        low = min(low, s[L.S_PLANET])
        if trace:
            h = state_hash(s, h)
    out[G_PLANET_LOW] = low
    out[G_OUTCOME] = s[L.S_STATUS]
    for i in range(len(_FROM_STATE)):
        out[_FROM_STATE[i][0]] = s[_FROM_STATE[i][1]]
    out[G_DECK_LEFT] = s[L.S_DECK_LEN] - s[L.S_DECK_TOP]
    out[G_HASH] = np.int64(h)


@jit
def play_batch(policies, p, n, seeds, seat_lineup, lineup_policy, lineup_params, games,
               seats, trace, s, w, a, rng, scratch, crashed, script, log, which, params,
               scales):  # fmt: skip
    """Play len(seeds) games of `n` seats. games: int64[g, len(GAME_COLUMNS)]; seats:
    int64[g, n, PL_SIZE] (each seat's block of the state); s to scales: the work buffers
    `workspace` makes. Returns the refused games."""
    errors = 0
    for g in range(seeds.shape[0]):
        for seat in range(n):
            j = seat_lineup[g, seat]
            which[seat] = lineup_policy[j]
            for k in range(params.shape[1]):
                params[seat, k] = lineup_params[j, k]
            scales[seat] = lineup_params[j, 0]
        games[g, :] = 0
        play_one(policies, p, n, which, params, scales, seeds[g], s, w, a, rng, scratch, crashed,
                 script, log, games[g], trace)  # fmt: skip
        if games[g, G_ERROR] != L.OK:
            errors += 1
        for seat in range(n):
            for f in range(L.PL_SIZE):
                seats[g, seat, f] = s[pl(seat, f)]
    return errors


def workspace(n: int, params_width: int, log_rows: int = 0) -> tuple:
    """play_batch's work buffers (made here so the loop allocates nothing): state, work,
    action, random streams, scratch, the round's crashed cards, an empty landing script, a
    launch log of `log_rows` rows, and per seat the policy slot, parameters and dexterity."""
    return (
        np.zeros(L.STATE_SIZE, np.int32),
        np.zeros(L.WORK_SIZE, np.float64),
        np.zeros(L.ACTION_SIZE, np.float64),
        np.zeros(L.STREAMS, np.uint64),
        np.zeros(SCRATCH_SIZE, np.int64),
        np.zeros(L.N_CELLS, np.int32),
        np.zeros((0, 2), np.float64),
        np.zeros((log_rows, L.LOG_SIZE), np.float64),
        np.zeros(n, np.int64),
        np.zeros((n, params_width), np.float64),
        np.ones(n, np.float64),
    )


# --- the compiled signatures (prepare() compiles exactly these) -----------------------------

POLICY_SLOTS = 4


def policy_slots(n_policies: int) -> int:
    """How many slots the loop for `n_policies` distinct policies takes (a multiple of 4)."""
    return POLICY_SLOTS * max(1, -(-n_policies // POLICY_SLOTS))


_I64, _F64, _BOOL = types.int64, types.float64, types.boolean
MATRIX_T = types.Array(_F64, 2, "C")  # the landing script, the log, the seats' parameters
INT_VECTOR = types.Array(_I64, 1, "C")
FLOAT_VECTOR = types.Array(_F64, 1, "C")
CRASHED_T = types.Array(types.int32, 1, "C")


def loop_signature(slots: int) -> tuple:
    """play_batch's argument types for a tuple of `slots` policies."""
    return (
        types.UniTuple(POLICY_TYPE, slots), PARAMS_T, _I64, types.Array(types.uint64, 1, "C"),
        types.Array(_I64, 2, "C"), INT_VECTOR, MATRIX_T, types.Array(_I64, 2, "C"),
        types.Array(_I64, 3, "C"), _BOOL,
        STATE_T, WORK_T, ACTION_T, RNG_T, SCRATCH_T, CRASHED_T, MATRIX_T, MATRIX_T, INT_VECTOR,
        MATRIX_T, FLOAT_VECTOR,
    )  # fmt: skip


def play_one_signature(slots: int) -> tuple:
    """play_one's argument types, as play_batch calls it."""
    return (
        types.UniTuple(POLICY_TYPE, slots), PARAMS_T, _I64, INT_VECTOR, MATRIX_T, FLOAT_VECTOR,
        types.uint64, STATE_T, WORK_T, ACTION_T, RNG_T, SCRATCH_T, CRASHED_T, MATRIX_T, MATRIX_T,
        INT_VECTOR, _BOOL,
    )  # fmt: skip


def play_turn_signature(slots: int) -> tuple:
    """play_turn's argument types, as play_one calls it."""
    return (
        STATE_T, PARAMS_T, WORK_T, ACTION_T, RNG_T, MATRIX_T, _I64,
        types.UniTuple(POLICY_TYPE, slots), _I64, STRATEGY_PARAMS_T, _F64, SCRATCH_T, MATRIX_T,
    )  # fmt: skip


def batch_loop(slots: int):
    """play_batch compiled (or loaded from the cache) for `slots` policies; call it with a
    tuple of that many compiled policies in first place."""
    return _entry(play_batch, loop_signature(slots))


def turn_function(slots: int):
    """play_turn as the loop calls it, for a caller that plays turn by turn (sim play)."""
    return _entry(play_turn, play_turn_signature(slots))


def _entry(dispatcher, signature: tuple):
    if config.DISABLE_JIT:
        return dispatcher
    dispatcher.compile(signature)
    return dispatcher.overloads[signature].entry_point
