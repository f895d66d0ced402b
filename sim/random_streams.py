"""Deterministic random streams (splitmix64) for compiled games, the same compiled or with
NUMBA_DISABLE_JIT=1: a seed gives the same game either way (numpy's and numba's global
generators differ, so a game draws from these instead).

A game owns a uint64 array of streams, one slot each, made by its caller; `seed_streams`
starts every slot from the game's seed. A game keeps its draws apart by stream (for example
stream 0 for shuffles and 1 + seat for each seat's draws), so one seat's draws never shift
another's. Every function works on plain arrays; the small ones are pasted into their callers
(`jit_inline`), the hot path of a turn.
"""

import math

import numpy as np

from sim.jit import jit, jit_inline

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S33 = np.uint64(33)
_S11 = np.uint64(11)


@jit_inline
def next_u64(rng, slot):
    """Advance stream `slot` of `rng` and return 64 random bits."""
    z = rng[slot] + _GOLDEN
    rng[slot] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit_inline
def below(rng, slot, n):
    """A uniform integer in [0, n) for 0 < n < 2**31 (bias below 2**-31 * n)."""
    r = np.int64(next_u64(rng, slot) >> _S33)  # 31 bits
    return (r * n) >> 31


@jit_inline
def uniform(rng, slot):
    """A float in [0, 1)."""
    return np.float64(next_u64(rng, slot) >> _S11) * (1.0 / 9007199254740992.0)


@jit_inline
def normal_pair(rng, slot):
    """Two independent standard normal deviates (Box-Muller)."""
    u = 1.0 - uniform(rng, slot)  # (0, 1]: the logarithm stays finite
    v = uniform(rng, slot)
    radius = math.sqrt(-2.0 * math.log(u))
    angle = 2.0 * math.pi * v
    return radius * math.cos(angle), radius * math.sin(angle)


@jit
def seed_streams(rng, seed):
    """Stream k starts from a mix of (seed, k)."""
    for k in range(rng.shape[0]):
        rng[k] = np.uint64(seed) ^ (np.uint64(k + 1) * _MIX2)
        next_u64(rng, k)


@jit_inline
def shuffle_range(rng, slot, arr, start, stop):
    """Fisher-Yates shuffle of arr[start:stop] in place, drawing from stream `slot`."""
    for i in range(stop - 1, start, -1):
        j = start + below(rng, slot, i - start + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
