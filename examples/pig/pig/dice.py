"""The dice of a game, from its seed: the lab's splitmix64 stream (sim/random_streams.py,
stream 0) in plain Python, so that a game played here and the same game played by the
compiled loop roll the same faces (tests/examples/test_pig_engine.py checks it draw for draw).
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


class Dice:
    """Rolls of a fair die numbered 1..faces, the same sequence for the same seed."""

    def __init__(self, seed: int) -> None:
        self.state = (int(seed) ^ _MIX2) & _MASK  # random_streams.seed_streams, stream 0
        self._next()

    def _next(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def roll(self, faces: int) -> int:
        return ((self._next() >> 33) * faces >> 31) + 1  # random_streams.below(faces) + 1
