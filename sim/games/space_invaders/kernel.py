"""The compiled game loop: whole games, many at a time, on caller-made buffers.

`play_batch` plays len(seeds) games with the built-in strategies; seat k of game g plays
lineup row `seat_lineup[g, k]` (kind `lineup_kind[j]`, parameters `lineup_params[j]`, whose
first entry is the seat's dexterity factor).
"""

import numpy as np

from sim.games.space_invaders.engine import begin_turn, pl, step
from sim.games.space_invaders.layout import (
    ACTION_SIZE,
    CAP,
    HASHED_SIZE,
    LOG_SIZE,
    N_CELLS,
    OK,
    P_ROUND_CAP,
    PH_DONE,
    PL_SIZE,
    RUNNING,
    S_ASSAULT,
    S_BONUS_KILLS,
    S_CRASHED,
    S_DAMAGE,
    S_DECK_LEN,
    S_DECK_TOP,
    S_DESTROYED,
    S_HEALED,
    S_LAUNCHES,
    S_PHASE,
    S_PLANET,
    S_REINFORCED,
    S_RETURNED,
    S_ROUND,
    S_ROUND_OVER,
    S_SCORE,
    S_START_SEAT,
    S_STATUS,
    S_TURNS,
    S_UFO,
    S_UFO_HITS,
    STATE_SIZE,
    STREAMS,
    WORK_SIZE,
)
from sim.games.space_invaders.rounds import begin_round, end_round, new_game, score
from sim.jit import jit, jit_allocating, jit_inline
from sim.random_streams import seed_streams
from strategies.space_invaders.common import SCRATCH_SIZE, reset_action
from strategies.space_invaders.dispatch import builtin_policy as policy

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
) = range(len(GAME_COLUMNS))
_FROM_STATE = (
    (G_ROUNDS, S_ROUND),
    (G_TURNS, S_TURNS),
    (G_PLANET, S_PLANET),
    (G_UFO, S_UFO),
    (G_SCORE, S_SCORE),
    (G_UFO_HITS, S_UFO_HITS),
    (G_DESTROYED, S_DESTROYED),
    (G_BONUS_KILLS, S_BONUS_KILLS),
    (G_CRASHED, S_CRASHED),
    (G_RETURNED, S_RETURNED),
    (G_DAMAGE, S_DAMAGE),
    (G_HEALED, S_HEALED),
    (G_REINFORCED, S_REINFORCED),
    (G_LAUNCHES, S_LAUNCHES),
    (G_ASSAULT, S_ASSAULT),
)

_FNV_PRIME = np.uint64(0x100000001B3)
_FNV_OFFSET = np.uint64(0xCBF29CE484222325)


@jit
def state_hash(s, h):
    """Fold the state (without the turn in progress) into the running FNV-1a hash h."""
    for i in range(HASHED_SIZE):
        h = (h ^ np.uint64(np.uint32(s[i]))) * _FNV_PRIME
    return h


@jit_inline
def _decide(kind, phase, s, p, w, seat, sp, rng, a, scratch):
    reset_action(a)
    policy(kind, phase, s, p, w, seat, sp, rng, a, scratch)


@jit
def play_turn(s, p, w, a, rng, script, seat, kind, sp, scale, scratch, log):
    """One seat's whole turn; returns OK or the refusal of a decision."""
    begin_turn(s, seat)
    while s[S_PHASE] != PH_DONE:
        _decide(kind, s[S_PHASE], s, p, w, seat, sp, rng, a, scratch)
        err = step(s, p, w, a, rng, script, scale, log)
        if err != OK:
            return err
    return OK


@jit
def play_one(
    p, n, kinds, params, scales, seed, s, w, a, rng, scratch, crashed, script, log, out, trace
):
    """Play one game of `n` seats from `seed` to its end; fill `out` (G_* columns)."""
    seed_streams(rng, seed)
    new_game(s, p, n, rng)
    h = _FNV_OFFSET
    while s[S_STATUS] == RUNNING:
        if s[S_ROUND] >= int(p[P_ROUND_CAP]):
            s[S_STATUS] = CAP
            score(s, p)
            break
        begin_round(s)
        for k in range(n):
            seat = (s[S_START_SEAT] + k) % n
            err = play_turn(
                s, p, w, a, rng, script, seat, kinds[seat], params[seat], scales[seat], scratch, log
            )
            if err != OK:
                out[G_ERROR], out[G_ERROR_SEAT] = err, seat
                return
            if trace:
                h = state_hash(s, h)
            if s[S_ROUND_OVER] != 0:
                break
        err = end_round(s, p, w, rng, script, scales, log, crashed)
        if err != OK:
            out[G_ERROR], out[G_ERROR_SEAT] = err, 0
            return
        if trace:
            h = state_hash(s, h)
    out[G_OUTCOME] = s[S_STATUS]
    for i in range(len(_FROM_STATE)):
        out[_FROM_STATE[i][0]] = s[_FROM_STATE[i][1]]
    out[G_DECK_LEFT] = s[S_DECK_LEN] - s[S_DECK_TOP]
    out[G_HASH] = np.int64(h)


@jit_allocating
def play_batch(p, n, seeds, seat_lineup, lineup_kind, lineup_params, games, seats, trace):
    """Play len(seeds) games of `n` seats. games: int64[g, len(GAME_COLUMNS)]; seats:
    int64[g, n, PL_SIZE] (each seat's block of the state). Returns the refused games."""
    s = np.zeros(STATE_SIZE, np.int32)
    w = np.zeros(WORK_SIZE, np.float64)
    a = np.zeros(ACTION_SIZE, np.float64)
    rng = np.zeros(STREAMS, np.uint64)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    crashed = np.zeros(N_CELLS, np.int32)
    script = np.zeros((0, 2), np.float64)
    log = np.zeros((0, LOG_SIZE), np.float64)
    kinds = np.zeros(n, np.int64)
    params = np.zeros((n, lineup_params.shape[1]), np.float64)
    scales = np.ones(n, np.float64)
    errors = 0
    for g in range(seeds.shape[0]):
        for seat in range(n):
            j = seat_lineup[g, seat]
            kinds[seat] = lineup_kind[j]
            params[seat, :] = lineup_params[j, :]
            scales[seat] = lineup_params[j, 0]
        games[g, :] = 0
        play_one(
            p,
            n,
            kinds,
            params,
            scales,
            seeds[g],
            s,
            w,
            a,
            rng,
            scratch,
            crashed,
            script,
            log,
            games[g],
            trace,
        )
        if games[g, G_ERROR] != OK:
            errors += 1
        for seat in range(n):
            for f in range(PL_SIZE):
                seats[g, seat, f] = s[pl(seat, f)]
    return errors
