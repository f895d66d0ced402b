"""The compiled game loop: whole games, many at a time, on caller-made buffers.

`play_batch` plays games with any compiled strategies, built-in or a user's: it takes their
policies as a tuple of function pointers (decision.POLICY_TYPE), so the loop is compiled once
and each policy once, on its own, and a run compiles only the policies its seats use. Seat k
of game g plays lineup row `seat_lineup[g, k]`: policy `policies[lineup_policy[j]]` with
parameters `lineup_params[j]`. The tuple has a fixed number of slots (unused ones repeat a
policy), so one compiled loop serves every lineup of up to POLICY_SLOTS strategies.

The turn itself (engine.play_turn) comes through a pointer too (TURN_TYPE): the loop then
compiles without it, in parallel with it, and an empty compile cache costs the longer of the
two instead of their sum.
"""

import numpy as np
from numba import types

from sim.games.guardians import layout as L
from sim.games.guardians.board import pl, points_in_reserve, reserve_points
from sim.games.guardians.census import census_ok
from sim.games.guardians.choice import WORK_T, choice_work, only_one_way
from sim.games.guardians.columns import GAME_TRAJECTORY, SEAT_TRAJECTORY
from sim.games.guardians.decision import (
    ACTION_T,
    MINE_START,
    PARAMS_T,
    PLACE,
    POLICY_TYPE,
    SCRATCH_SIZE,
    STATE_T,
    TURN,
    reset_action,
)
from sim.games.guardians.engine import winners_mask
from sim.games.guardians.start import new_game, place_fighter, place_mine
from sim.jit import compiled, jit, jit_inline
from sim.plugins.seating import seat_players
from sim.plugins.trajectory_kernel import score_track, summarise
from sim.random_streams import seed_streams

# per-game result columns
G_OUTCOME, G_TURNS, G_ROUNDS, G_DESCENTS, G_REINFORCED = 0, 1, 2, 3, 4
G_WINNERS, G_PILE_LEFT, G_INVADERS_LEFT, G_ERROR, G_ERROR_SEAT, G_HASH = 5, 6, 7, 8, 9, 10
G_LEAD = 11  # the trajectory's per-game column (GAME_TRAJECTORY)
GAME_COLUMNS = (
    "outcome", "turns", "rounds", "descents", "reinforced",
    "winners_mask", "pile_left", "invaders_left", "error", "error_seat", "trace_hash",
    *GAME_TRAJECTORY,
)  # fmt: skip
# per-seat result columns: the score, the player's whole block of the state, the trajectory
# (SEAT_TRAJECTORY) and the turns the seat could play only one way
SEAT_SCORE = 0
SEAT_BLOCK = 1
SEAT_TRAJ = SEAT_BLOCK + L.PL_SIZE
SEAT_NO_CHOICE = SEAT_TRAJ + len(SEAT_TRAJECTORY)
SEAT_SIZE = SEAT_NO_CHOICE + 1

# engine.play_turn(s, p, a, buf) as the loop calls it
TURN_SIGNATURE = types.int64(STATE_T, PARAMS_T, ACTION_T, PARAMS_T)
TURN_TYPE = types.FunctionType(TURN_SIGNATURE)

_FNV_PRIME = np.uint64(0x100000001B3)
_FNV_OFFSET = np.uint64(0xCBF29CE484222325)


@jit
def state_hash(s, h):
    """Fold the state into the running hash h (FNV-1a over the int32 words; the derived
    board index after HASHED_SIZE is left out)."""
    for i in range(L.HASHED_SIZE):
        h = (h ^ np.uint64(np.uint32(s[i]))) * _FNV_PRIME
    return h


@jit_inline
def _decide(policies, which, phase, s, p, seat, sp, rng, a, scratch):
    reset_action(s, seat, a)
    policy = policies[which]
    policy(np.int64(phase), s, p, np.int64(seat), sp, rng, a, scratch)


@jit
def _record(s, p, track, t):
    """Row t of the score track: each seat's points after t rounds (a step is a round). Not
    pasted into the loop: called once a round, it would slow every turn down."""
    for seat in range(s[L.S_N_PLAYERS]):
        track[t, seat] = points_in_reserve(s, p, seat)


@jit
def play_one(policies, turn, p, n_players, which, params, seed, s, a, rng, scratch, buf, out,
             trace, track, probe, forced):  # fmt: skip
    """Play one game from `seed` to its end; fill `out` (G_* columns). which/params: per seat,
    the policy slot and the parameters; turn: engine.play_turn. With `trace`, hash the state
    after every turn and check the token census. `track` gets every seat's points after every
    round (row 0: the start; the last row: the end, in the round the game ended in),
    `forced[seat]` the turns the seat could play only one way (`probe`: its scratch,
    choice.choice_work)."""
    seed_streams(rng, seed)
    new_game(s, p, n_players, rng)
    for seat in range(n_players):
        _decide(policies, which[seat], PLACE, s, p, seat, params[seat], rng, a, scratch)
        err = place_fighter(s, p, seat, a[L.A_DEST_COL])
        if err != L.OK:
            out[G_ERROR], out[G_ERROR_SEAT] = err, seat
            return
    last = n_players - 1
    _decide(policies, which[last], MINE_START, s, p, last, params[last], rng, a, scratch)
    err = place_mine(s, p, a[L.A_MINE_ROW])
    if err != L.OK:
        out[G_ERROR], out[G_ERROR_SEAT] = err, last
        return
    h = _FNV_OFFSET
    if trace:
        h = state_hash(s, h)
    _record(s, p, track, 0)
    rounds = 0
    while s[L.S_STATUS] == L.RUNNING:
        seat = s[L.S_TO_MOVE]
        if only_one_way(s, p, probe, buf, turn):
            forced[seat] += 1
        _decide(policies, which[seat], TURN, s, p, seat, params[seat], rng, a, scratch)
        err = turn(s, p, a, buf)
        if err != L.OK:
            out[G_ERROR], out[G_ERROR_SEAT] = err, seat
            return
        if s[L.S_ROUND] != rounds:  # the seat order wrapped: a round is complete
            rounds = s[L.S_ROUND]
            _record(s, p, track, rounds)
        if trace:
            h = state_hash(s, h)
            if not census_ok(s, p):
                out[G_ERROR], out[G_ERROR_SEAT] = L.E_CENSUS, seat
                return
    _record(s, p, track, rounds + 1)  # the end, in the round the game ended in
    out[G_OUTCOME] = s[L.S_STATUS]
    out[G_TURNS] = s[L.S_TURN]
    out[G_ROUNDS] = s[L.S_ROUND]
    out[G_DESCENTS] = s[L.S_DESCENTS]
    out[G_REINFORCED] = s[L.S_REINFORCED]
    out[G_WINNERS] = winners_mask(s, p)
    out[G_PILE_LEFT] = s[L.S_PILE_LEN] - s[L.S_PILE_TOP]
    out[G_INVADERS_LEFT] = s[L.S_INVADERS]
    out[G_HASH] = np.int64(h)


@jit
def play_batch(policies, turn, p, n_players, seeds, seat_lineup, lineup_policy, lineup_params,
               games, seats, trace, s, a, rng, scratch, buf, which, params, track, probe,
               forced):  # fmt: skip
    """Play len(seeds) games. games: int64[n, len(GAME_COLUMNS)]; seats: int64[n, players,
    SEAT_SIZE]; s to forced: the work buffers `workspace` makes. Returns the number of games
    refused by an illegal move (see G_ERROR)."""
    errors = 0
    for g in range(seeds.shape[0]):
        seat_players(g, n_players, seat_lineup, lineup_policy, lineup_params, which, params)
        games[g, :] = 0
        forced[:] = 0
        play_one(policies, turn, p, n_players, which, params, seeds[g], s, a, rng, scratch,
                 buf, games[g], trace, track, probe, forced)  # fmt: skip
        if games[g, G_ERROR] != L.OK:
            errors += 1
        summarise(track, s[L.S_ROUND] + 1, n_players, games[g], G_LEAD, seats[g], SEAT_TRAJ)
        for seat in range(s[L.S_N_PLAYERS]):
            seats[g, seat, SEAT_SCORE] = reserve_points(s, p, seat)
            for f in range(L.PL_SIZE):
                seats[g, seat, SEAT_BLOCK + f] = s[pl(seat, f)]
            seats[g, seat, SEAT_NO_CHOICE] = forced[seat]
    return errors


def workspace(n_players: int, params_width: int, turn_cap: int) -> tuple:
    """play_batch's work buffers: state, action, random streams, scratch, a per-kind buffer,
    per seat the policy slot and parameters, the score track of games of at most `turn_cap`
    turns (a row per round, one for the start and one for the end), the scratch of the
    no-choice check and the per-seat count of turns without a choice (made here so the loop
    allocates nothing)."""
    return (
        np.zeros(L.STATE_SIZE, np.int32),
        np.zeros(L.ACTION_SIZE, np.int32),
        np.zeros(L.MAX_PLAYERS + 1, np.uint64),
        np.zeros(SCRATCH_SIZE, np.int64),
        np.zeros(L.N_KINDS, np.int64),
        np.zeros(n_players, np.int64),
        np.zeros((n_players, params_width), np.float64),
        score_track(turn_cap + 1, n_players),
        choice_work(),
        np.zeros(n_players, np.int64),
    )


POLICY_SLOTS = 8


def policy_slots(n_policies: int) -> int:
    """How many slots the loop for `n_policies` distinct policies takes (a multiple of 8)."""
    return POLICY_SLOTS * max(1, -(-n_policies // POLICY_SLOTS))


def loop_signature(slots: int) -> tuple:
    """play_batch's argument types for a tuple of `slots` policies."""
    i64 = types.int64
    return (
        types.UniTuple(POLICY_TYPE, slots),
        TURN_TYPE,
        PARAMS_T,
        i64,
        types.Array(types.uint64, 1, "C"),
        types.Array(i64, 2, "C"),
        types.Array(i64, 1, "C"),
        types.Array(types.float64, 2, "C"),
        types.Array(i64, 2, "C"),
        types.Array(i64, 3, "C"),
        types.boolean,
        *_WORKSPACE_TYPES,
    )


_WORKSPACE_TYPES = (
    types.Array(types.int32, 1, "C"),
    types.Array(types.int32, 1, "C"),
    types.Array(types.uint64, 1, "C"),
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 1, "C"),
    types.Array(types.int64, 1, "C"),
    types.Array(types.float64, 2, "C"),
    types.Array(types.int64, 2, "C"),
    types.Array(types.int32, 2, "C"),
    types.Array(types.int64, 1, "C"),
)


def play_one_signature(slots: int) -> tuple:
    """play_one's argument types, as play_batch calls it."""
    i64, vector = types.int64, lambda t: types.Array(t, 1, "C")
    return (types.UniTuple(POLICY_TYPE, slots), TURN_TYPE, PARAMS_T, i64, vector(i64),
            types.Array(types.float64, 2, "C"), types.uint64, vector(types.int32),
            vector(types.int32), vector(types.uint64), vector(i64), vector(i64), vector(i64),
            types.boolean, types.Array(i64, 2, "C"), types.Array(types.int32, 2, "C"),
            vector(i64))  # fmt: skip


def batch_loop(slots: int):
    """play_batch compiled (or loaded from the cache) for `slots` policies; call it with a
    tuple of that many compiled policies in first place, then engine.play_turn."""
    return compiled(play_batch, loop_signature(slots))


# choice.only_one_way as a caller in Python hands it engine.play_turn: through the pointer
ONE_WAY_TYPES = (STATE_T, PARAMS_T, WORK_T, PARAMS_T, TURN_TYPE)


def one_way_check():
    """choice.only_one_way compiled (or loaded from the cache) for the Python loop; call it
    with engine.play_turn last, as the loop does."""
    return compiled(only_one_way, ONE_WAY_TYPES)
