"""The compiled game loop: whole games, many at a time, on caller-made buffers.

`play_batch` runs games with the built-in strategies. `kernel_for(policy)` returns the same
loop compiled around another policy with the built-in signature (user strategies combined
with the built-ins); it is compiled per process, the built-in one is cached on disk. Seat k's
strategy is lineup row `seat_lineup[g, k]`: kind `lineup_kind[j]` with parameters
`lineup_params[j]`.
"""

import types

import numpy as np
from numba import njit

from sim.games.guardians.engine import (
    census_ok,
    new_game,
    pl,
    place_fighter,
    place_mine,
    play_turn,
    reserve_points,
    winners_mask,
)
from sim.games.guardians.layout import (
    A_DEST_COL,
    A_MINE_ROW,
    ACTION_SIZE,
    E_CENSUS,
    HASHED_SIZE,
    MAX_PLAYERS,
    N_KINDS,
    OK,
    PL_SIZE,
    RUNNING,
    S_DESCENTS,
    S_INVADERS,
    S_N_PLAYERS,
    S_PILE_LEN,
    S_PILE_TOP,
    S_REINFORCED,
    S_ROUND,
    S_STATUS,
    S_TO_MOVE,
    S_TURN,
    STATE_SIZE,
)
from sim.games.guardians.rng import seed_streams
from sim.jit import jit, jit_allocating, jit_inline
from strategies.guardians.common import MINE_START, PLACE, SCRATCH_SIZE, TURN, reset_action
from strategies.guardians.dispatch import builtin_policy as policy

# per-game result columns
G_OUTCOME, G_TURNS, G_ROUNDS, G_DESCENTS, G_REINFORCED = 0, 1, 2, 3, 4
G_WINNERS, G_PILE_LEFT, G_INVADERS_LEFT, G_ERROR, G_ERROR_SEAT, G_HASH = 5, 6, 7, 8, 9, 10
GAME_COLUMNS = (
    "outcome", "turns", "rounds", "descents", "reinforced",
    "winners_mask", "pile_left", "invaders_left", "error", "error_seat", "trace_hash",
)  # fmt: skip
# per-seat result columns: the score, then the player's whole block of the state
SEAT_SCORE = 0
SEAT_BLOCK = 1
SEAT_SIZE = 1 + PL_SIZE

_FNV_PRIME = np.uint64(0x100000001B3)
_FNV_OFFSET = np.uint64(0xCBF29CE484222325)


@jit
def state_hash(s, h):
    """Fold the state into the running hash h (FNV-1a over the int32 words; the derived
    board index after HASHED_SIZE is left out)."""
    for i in range(HASHED_SIZE):
        h = (h ^ np.uint64(np.uint32(s[i]))) * _FNV_PRIME
    return h


@jit_inline
def _decide(kind, phase, s, p, seat, sp, rng, a, scratch):
    reset_action(s, seat, a)
    policy(kind, phase, s, p, seat, sp, rng, a, scratch)


@jit
def play_one(p, n_players, kinds, params, seed, s, a, rng, scratch, buf, out, trace):
    """Play one game from `seed` to its end; fill `out` (G_* columns). kinds/params: per seat.
    With `trace`, hash the state after every turn and check the token census."""
    seed_streams(rng, seed)
    new_game(s, p, n_players, rng)
    for seat in range(n_players):
        _decide(kinds[seat], PLACE, s, p, seat, params[seat], rng, a, scratch)
        err = place_fighter(s, p, seat, a[A_DEST_COL])
        if err != OK:
            out[G_ERROR], out[G_ERROR_SEAT] = err, seat
            return
    last = n_players - 1
    _decide(kinds[last], MINE_START, s, p, last, params[last], rng, a, scratch)
    err = place_mine(s, p, a[A_MINE_ROW])
    if err != OK:
        out[G_ERROR], out[G_ERROR_SEAT] = err, last
        return
    h = _FNV_OFFSET
    if trace:
        h = state_hash(s, h)
    while s[S_STATUS] == RUNNING:
        seat = s[S_TO_MOVE]
        _decide(kinds[seat], TURN, s, p, seat, params[seat], rng, a, scratch)
        err = play_turn(s, p, a, buf)
        if err != OK:
            out[G_ERROR], out[G_ERROR_SEAT] = err, seat
            return
        if trace:
            h = state_hash(s, h)
            if not census_ok(s, p):
                out[G_ERROR], out[G_ERROR_SEAT] = E_CENSUS, seat
                return
    out[G_OUTCOME] = s[S_STATUS]
    out[G_TURNS] = s[S_TURN]
    out[G_ROUNDS] = s[S_ROUND]
    out[G_DESCENTS] = s[S_DESCENTS]
    out[G_REINFORCED] = s[S_REINFORCED]
    out[G_WINNERS] = winners_mask(s, p)
    out[G_PILE_LEFT] = s[S_PILE_LEN] - s[S_PILE_TOP]
    out[G_INVADERS_LEFT] = s[S_INVADERS]
    out[G_HASH] = np.int64(h)


@jit_allocating
def play_batch(p, n_players, seeds, seat_lineup, lineup_kind, lineup_params, games, seats, trace):
    """Play len(seeds) games. games: int64[n, len(GAME_COLUMNS)]; seats: int64[n, players,
    SEAT_SIZE]. Returns the number of games refused by an illegal move (see G_ERROR)."""
    s = np.zeros(STATE_SIZE, np.int32)
    a = np.zeros(ACTION_SIZE, np.int32)
    rng = np.zeros(MAX_PLAYERS + 1, np.uint64)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    buf = np.zeros(N_KINDS, np.int64)
    kinds = np.zeros(n_players, np.int64)
    params = np.zeros((n_players, lineup_params.shape[1]), np.float64)
    errors = 0
    for g in range(seeds.shape[0]):
        for seat in range(n_players):
            j = seat_lineup[g, seat]
            kinds[seat] = lineup_kind[j]
            params[seat, :] = lineup_params[j, :]
        games[g, :] = 0
        play_one(p, n_players, kinds, params, seeds[g], s, a, rng, scratch, buf,
                 games[g], trace)  # fmt: skip
        if games[g, G_ERROR] != OK:
            errors += 1
        for seat in range(s[S_N_PLAYERS]):
            seats[g, seat, SEAT_SCORE] = reserve_points(s, p, seat)
            for f in range(PL_SIZE):
                seats[g, seat, SEAT_BLOCK + f] = s[pl(seat, f)]
    return errors


def kernel_for(other_policy):
    """`play_batch` compiled around `other_policy` instead of the built-in dispatch.

    The clones get names of their own: compiled code is linked by symbol name, and a clone
    sharing the built-in loop's names could be bound in its place."""
    global _clone_count
    _clone_count += 1
    suffix = f"_with_policy_{_clone_count}"
    clones: dict = {}
    for fn in (_decide, play_one, play_batch):  # callees before callers
        scope = dict(fn.py_func.__globals__, policy=other_policy, **clones)
        scope["__name__"] = f"{__name__}{suffix}"
        clone = types.FunctionType(fn.py_func.__code__, scope, fn.py_func.__name__ + suffix)
        clone.__qualname__ = fn.py_func.__qualname__ + suffix
        clones[fn.py_func.__name__] = njit(clone)
    return clones["play_batch"]


_clone_count = 0
