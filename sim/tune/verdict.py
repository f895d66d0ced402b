"""A target's verdict: met, missed, or not distinguishable at this size.

A target is a band [low, high] (a single value has low = high) and a tolerance, in the
measure's own units. The target is *met* when the estimate's 95% interval lies inside the band
widened by the tolerance on each side (an equivalence test: two one-sided tests at 2.5%
each), *missed* when the interval lies wholly outside that widened band, and *not
distinguishable* otherwise; then the games that would likely settle it are estimated from the
current standard error (the interval shrinks as 1/sqrt(games)), unless the estimate lies so
near an edge that a hundred times the games would not do.

This is the project's three-valued verdict (holds / the opposite holds / not settled at this
size), applied to "the target is met". `judge` is the one place the tune asks for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.measures.core import Value
from sim.stats.intervals import Z95

MET, MISSED, UNSETTLED = "met", "missed", "not distinguishable"
MAX_GROWTH = 100  # games to settle are said only up to this many times the games played


@dataclass(frozen=True)
class Verdict:
    kind: str  # MET | MISSED | UNSETTLED
    games_to_settle: int | None = None  # per arm, for UNSETTLED when it can be estimated

    def __str__(self) -> str:
        return self.kind


def judge(value: Value, low: float, high: float, tolerance: float) -> Verdict:
    """The verdict on `value` against the band [low, high] +- tolerance."""
    if not all(math.isfinite(x) for x in (value.value, value.low, value.high)):
        return Verdict(UNSETTLED)
    floor, ceiling = low - tolerance, high + tolerance
    if floor <= value.low and value.high <= ceiling:
        return Verdict(MET)
    if value.high < floor or value.low > ceiling:
        return Verdict(MISSED)
    return Verdict(UNSETTLED, _games_to_settle(value, floor, ceiling))


def _games_to_settle(value: Value, floor: float, ceiling: float) -> int | None:
    """Games at which an interval of the same centre would clear the nearer edge it crosses:
    inside the band, the room to the nearer edge; outside, the distance to the band."""
    if not (math.isfinite(value.se) and value.se > 0 and value.n > 0):
        return None
    v = value.value
    room = min(v - floor, ceiling - v) if floor <= v <= ceiling else max(floor - v, v - ceiling)
    needed = value.n * (Z95 * value.se / room) ** 2 if room > 0 else math.inf
    if needed > MAX_GROWTH * value.n:
        return None  # about on the edge: more games would hardly settle it
    return int(math.ceil(needed))
