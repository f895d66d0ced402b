"""Chance for plain-Python games: the lab's splitmix64 streams (sim/random_streams.py) without
numba, draw for draw the same numbers, so a seed gives the same game in Python as it would in
a compiled loop (tests/plain/test_chance.py checks them against the compiled functions).

A game's rules draw from stream 0 of its seed; each seat's player from stream 1 + seat, so
that one seat's draws never shift the dice or another seat's choices. Splitmix64 is a
counter-based generator (output k is a mix of seed + k * golden), so the draws are computed
in blocks with numpy, and handed out one by one: that makes a draw about three times cheaper
than mixing 64-bit numbers in Python, the hot spot of a plain game's loop.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = 0x94D049BB133111EB
_FIRST_BLOCK = 32  # a short game draws little: its first block stays small
_BLOCK = 256
_STEPS = {n: np.arange(1, n + 1, dtype=np.uint64) * np.uint64(_GOLDEN) for n in (32, 256)}
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_U53 = 1.0 / 9007199254740992.0


class Chance:
    """Stream `stream` of `seed`: the draws `random_streams.seed_streams` and `below` /
    `uniform` give for that slot. Copy it (`copy`) to draw the same numbers twice."""

    __slots__ = ("_counter", "_block", "_next")

    def __init__(self, seed: int, stream: int = 0) -> None:
        start = (int(seed) ^ ((stream + 1) * _MIX2)) & _MASK
        self._counter = (start + _GOLDEN) & _MASK  # seed_streams draws once before any game
        self._block: list[int] = []
        self._next = 0

    def bits(self) -> int:
        """64 random bits (random_streams.next_u64)."""
        i = self._next
        if i == len(self._block):
            self._refill()
            i = 0
        self._next = i + 1
        return self._block[i]

    def below(self, n: int) -> int:
        """A whole number in 0..n-1, for 0 < n < 2**31 (random_streams.below)."""
        i = self._next
        if i == len(self._block):
            self._refill()
            i = 0
        self._next = i + 1
        return ((self._block[i] >> 33) * n) >> 31

    def uniform(self) -> float:
        """A number in [0, 1) (random_streams.uniform)."""
        return (self.bits() >> 11) * _U53

    def die(self, faces: int) -> int:
        """A fair die numbered 1..faces."""
        return self.below(faces) + 1

    def pick(self, options: Sequence[T]) -> T:
        """One of `options`, each as likely."""
        return options[self.below(len(options))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle `items` in place (random_streams.shuffle_range over the whole list). The
        draws are taken from the block at once: a search shuffles at every simulation."""
        draws = self._draws(max(len(items) - 1, 0))
        for i, draw in zip(range(len(items) - 1, 0, -1), draws, strict=True):
            j = ((draw >> 33) * (i + 1)) >> 31
            items[i], items[j] = items[j], items[i]

    def _draws(self, k: int) -> list[int]:
        """The next `k` draws of 64 bits, in order."""
        at = self._next
        drawn = self._block[at : at + k]
        self._next = at + len(drawn)
        while len(drawn) < k:
            self._refill()
            more = self._block[: k - len(drawn)]
            self._next = len(more)
            drawn += more
        return drawn

    def copy(self) -> Chance:
        twin = Chance.__new__(Chance)
        twin._counter, twin._block, twin._next = self._counter, self._block, self._next
        return twin

    def _refill(self) -> None:
        n = _FIRST_BLOCK if not self._block else _BLOCK
        with np.errstate(over="ignore"):
            z = np.uint64(self._counter) + _STEPS[n]
            z ^= z >> _S30
            z *= _MIX1
            z ^= z >> _S27
            z *= np.uint64(_MIX2)
            z ^= z >> _S31
        self._block = z.tolist()
        self._next = 0
        self._counter = (self._counter + n * _GOLDEN) & _MASK


class Scripted(Chance):
    """Chance that answers with the values a scenario lists, in order: a die's face, a number
    below n, one of the options picked, a shuffled list's new order. `RanOut` when the list
    is used up; `ValueError` for a value the draw cannot give."""

    __slots__ = ("values", "used")

    def __init__(self, values: Sequence[Any]) -> None:
        super().__init__(0)
        self.values, self.used = list(values), 0

    def _take(self, what: str) -> Any:
        if self.used == len(self.values):
            raise RanOut(f"the scenario's chance ran out at {what}")
        self.used += 1
        return self.values[self.used - 1]

    def below(self, n: int) -> int:
        value = self._take(f"a number below {n}")
        if not (isinstance(value, int) and 0 <= value < n):
            raise ValueError(f"chance value {value!r} is not a number in 0..{n - 1}")
        return value

    def die(self, faces: int) -> int:
        value = self._take(f"a die of {faces} faces")
        if not (isinstance(value, int) and 1 <= value <= faces):
            raise ValueError(f"chance value {value!r} is not a face of a {faces}-sided die")
        return value

    def pick(self, options: Sequence[T]) -> T:
        value = self._take("a pick")
        if value not in options:
            raise ValueError(f"chance value {value!r} is not among the options {list(options)}")
        return value

    def shuffle(self, items: MutableSequence[Any]) -> None:
        value = self._take("a shuffle")
        if not isinstance(value, list) or sorted(map(repr, value)) != sorted(map(repr, items)):
            raise ValueError(f"chance value {value!r} is not an order of {list(items)}")
        items[:] = value

    def bits(self) -> int:
        raise ValueError("a scenario cannot script raw bits; draw with below, die or pick")

    def uniform(self) -> float:
        value = self._take("a uniform number")
        if not (isinstance(value, int | float) and 0.0 <= value < 1.0):
            raise ValueError(f"chance value {value!r} is not a number in [0, 1)")
        return float(value)

    def copy(self) -> Scripted:
        twin = Scripted(self.values)
        twin.used = self.used
        return twin


class RanOut(Exception):
    """A scenario's scripted chance has no value left."""
