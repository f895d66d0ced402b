"""The compiled half of sim/plugins/trajectory.py: a game loop records each seat's score after
every step (a round of the table) into a caller-made buffer, and `summarise` turns the buffer
into the trajectory columns at the game's end (the definitions are in trajectory.py).

The buffer (`score_track`) is int64[max_steps + 1, players]: row t holds every seat's score
after step t (row 0: the start). It is made once per chunk and overwritten game after game,
so memory does not grow with the games played.
"""

import numpy as np
from numba import types

from sim.jit import jit, jit_inline
from sim.plugins import trajectory

FRACTIONS = tuple((num, den) for _, num, den in trajectory.FRACTIONS)


_I64 = types.int64
# summarise's argument types, as the game loops call it (a game's row, its seats' rows)
SUMMARISE_TYPES = (types.Array(_I64, 2, "C"), _I64, _I64, types.Array(_I64, 1, "C"), _I64,
                   types.Array(_I64, 2, "C"), _I64)  # fmt: skip


def score_track(max_steps: int, players: int) -> np.ndarray:
    """A zeroed buffer for games of at most `max_steps` steps."""
    return np.zeros((max_steps + 1, players), np.int64)


@jit_inline
def leader(track, t, n):
    """The seat with the strictly highest score after step t, or -1 when the top is shared."""
    best, who = track[t, 0], 0
    for k in range(1, n):
        v = track[t, k]
        if v > best:
            best, who = v, k
        elif v == best:
            who = -1
    return who


@jit
def lead_changes(track, steps, n):
    """How often the leader changed over steps 1..steps (a shared top neither counts nor
    forgets the last leader)."""
    changes, last = 0, -1
    for t in range(1, steps + 1):
        who = leader(track, t, n)
        if who < 0:
            continue
        if last >= 0 and who != last:
            changes += 1
        last = who
    return changes


@jit
def summarise(track, steps, n, game_out, lead_col, seats_out, first_col):
    """Write `lead_changes` into game_out[lead_col] and, for each seat k, the scores at the
    fractions of the game and before the last round into seats_out[k, first_col + 0..3]."""
    game_out[lead_col] = lead_changes(track, steps, n)
    before = max(steps - 1, 0)  # the last step is the last round
    for k in range(n):
        for i in range(len(FRACTIONS)):
            num, den = FRACTIONS[i]
            seats_out[k, first_col + i] = track[(steps * num) // den, k]
        seats_out[k, first_col + len(FRACTIONS)] = track[before, k]
