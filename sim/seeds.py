"""Per-game seeds: a pure function of (root seed, game index), the same in every arm.

    k0, k1 = numpy.random.SeedSequence(root).generate_state(2, numpy.uint64)
    seed_i = mix(mix(k0 + (i + 1) * GOLDEN) ^ k1)

with GOLDEN = 0x9E3779B97F4A7C15 and mix the splitmix64 finaliser

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    z =  z ^ (z >> 31)

all in wrapping uint64 arithmetic. Game i's seed depends on nothing else (not the arm, the chunk,
the worker or the number of games), so arms are compared on the same shuffles (common random
numbers) and any game can be replayed from the root seed and its index alone.
"""

from __future__ import annotations

import numpy as np

DERIVATION = (
    "k0, k1 = numpy.random.SeedSequence(root).generate_state(2, numpy.uint64); "
    "seed_i = mix(mix(k0 + (i + 1) * 0x9E3779B97F4A7C15) ^ k1) in uint64 arithmetic, "
    "mix = splitmix64 finaliser (see sim/seeds.py)"
)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def root_keys(root: int) -> tuple[int, int]:
    """The two 64-bit keys derived from the root seed."""
    if root < 0:
        raise ValueError("the root seed must be >= 0")
    k0, k1 = np.random.SeedSequence(root).generate_state(2, np.uint64)
    return int(k0), int(k1)


def _mix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def game_seeds(root: int | tuple[int, int], start: int, stop: int) -> np.ndarray:
    """uint64 seeds of games start..stop-1 (vectorised; chunk-independent)."""
    k0, k1 = root_keys(root) if isinstance(root, int) else root
    i = np.arange(start, stop, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(k0) + (i + np.uint64(1)) * _GOLDEN
        return _mix(_mix(z) ^ np.uint64(k1))


def game_seed(root: int, index: int) -> int:
    """The seed of one game, as stored in the `seed` column."""
    return int(game_seeds(root, index, index + 1)[0])
