"""A small deterministic generator (splitmix64) for compiled and plain-Python code alike.

numpy's and numba's global generators differ, so games draw from this one: the same seed gives
the same game with or without the JIT. Stream 0 is the game's (decks, dice, coin flips);
stream 1 + seat is that captain's strategy. State is a uint64 array owned by the caller.
"""

import numpy as np

from sim.jit import jit, jit_inline

N_STREAMS = 7  # the game, five captains, one spare
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@jit_inline
def next_u64(rng, slot):
    """Advance stream `slot` of `rng` and return 64 random bits."""
    z = rng[slot] + _GOLDEN
    rng[slot] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@jit_inline
def below(rng, slot, n):
    """A uniform integer in [0, n) for 0 < n < 2**31."""
    r = np.int64(next_u64(rng, slot) >> np.uint64(33))
    return (r * n) >> 31


@jit_inline
def uniform(rng, slot):
    """A float in [0, 1)."""
    return np.float64(next_u64(rng, slot) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def seed_streams(rng, seed):
    """Stream k starts from a mix of (seed, k)."""
    for k in range(rng.shape[0]):
        rng[k] = np.uint64(seed) ^ (np.uint64(k + 1) * _MIX2)
        next_u64(rng, k)


@jit
def shuffle_range(rng, slot, arr, start, stop):
    """Fisher-Yates shuffle of arr[start:stop] in place."""
    for i in range(stop - 1, start, -1):
        j = start + below(rng, slot, i - start + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
