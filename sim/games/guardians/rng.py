"""A small deterministic generator (splitmix64) usable from compiled and plain-Python code.

numpy's and numba's global generators differ, so games draw from this one: the same seed
gives the same game with or without the JIT. State is a uint64 array slot owned by the caller.
"""

import numpy as np

from sim.jit import jit, jit_inline

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S33 = np.uint64(33)


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


@jit
def uniform(rng, slot):
    """A float in [0, 1)."""
    return np.float64(next_u64(rng, slot) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def seed_streams(rng, seed):
    """Stream k starts from a mix of (seed, k): stream 0 shuffles, 1.. are the seats'."""
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
