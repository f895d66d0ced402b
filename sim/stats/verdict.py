"""Three-valued verdicts: a claim holds (shown), its opposite holds (shown), or the data do not
settle it at this size, with the games per arm that would likely settle it.

A verdict reads an estimate's confidence interval against the designer's tolerance, in the
estimate's own units (a price within 1 point, a seat advantage within 1 pp...). Two claims:

- ``equivalence``: "the effect is zero, give or take the tolerance" (the seats are fair, a rule
  change has no effect, a card is priced right, the answer is the same at every skill level).
  HOLDS when the whole interval lies inside +-tolerance: two one-sided tests (TOST), each at
  half the interval's error rate. OPPOSITE when the interval excludes zero: an effect is
  shown. UNSETTLED otherwise. Not detecting an effect is never a reason for HOLDS.
- ``positive``: "the effect is above zero" (a level is harder than the one below it). HOLDS
  when the interval lies above zero; OPPOSITE when it lies below +tolerance (the effect is at
  most negligible); UNSETTLED otherwise. For "below zero", pass the negated interval.

In both, the claim's own evidence is read first: an interval inside +-tolerance that also
excludes zero is an effect too small to matter, so the equivalence HOLDS.

``games_to_settle``: when UNSETTLED, the games per arm after which the same question would be
settled with 80% probability if the truth were the current estimate (toward whichever side:
the estimate then lands where the interval lies inside the tolerance or clear of zero). The
standard error is read off the interval, (high - low) / (2 z), and shrinks as
1 / sqrt(games); the estimate is taken as normal. Rounded up to two significant figures. None
when the interval is open-ended (an estimate beyond the range tried) or the games are not
known.

``all_of``: the verdict on a family of claims that must all hold (every seat fair, every pair
of skill levels alike): HOLDS when each holds (an intersection-union test needs no
correction), OPPOSITE when any is shown false, UNSETTLED otherwise.

Nothing here knows a report: the report framework (sim/report), the quality report and `sim
tune` word these verdicts in their own way. Tolerances' defaults: sim/stats/tolerances.py.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from statistics import NormalDist

from sim.stats.intervals import z_for

POWER = 0.80  # chance that the games to settle a question do settle it
_N = NormalDist()


class Outcome(Enum):
    HOLDS = "holds"
    OPPOSITE = "opposite"
    UNSETTLED = "not settled"


@dataclass(frozen=True)
class Verdict:
    """A claim read off an interval: the outcome, the tolerance it was read against, the
    interval it rests on and, when unsettled, the games per arm likely to settle it."""

    outcome: Outcome
    tolerance: float
    estimate: float
    low: float
    high: float
    games_to_settle: int | None = None

    @property
    def settled(self) -> bool:
        return self.outcome is not Outcome.UNSETTLED

    @property
    def holds(self) -> bool:
        return self.outcome is Outcome.HOLDS

    @property
    def opposite(self) -> bool:
        return self.outcome is Outcome.OPPOSITE


def equivalence(
    estimate: float,
    low: float,
    high: float,
    tolerance: float,
    *,
    games: int | None = None,
    level: float = 0.95,
    effect_shown: bool | None = None,
) -> Verdict:
    """Claim: the effect lies within +-tolerance of zero (see the module doc).

    effect_shown: the outcome of a better test of "there is an effect" when the caller has one
    (an omnibus test over a family, a multiplicity-corrected one); it replaces "the interval
    excludes zero" as the evidence for OPPOSITE."""
    _check(tolerance)
    if _missing(estimate, low, high):
        return Verdict(Outcome.UNSETTLED, tolerance, estimate, low, high)
    if -tolerance <= low and high <= tolerance:
        return Verdict(Outcome.HOLDS, tolerance, estimate, low, high)
    shown = (low > 0 or high < 0) if effect_shown is None else effect_shown
    if shown:
        return Verdict(Outcome.OPPOSITE, tolerance, estimate, low, high)

    def open_band(z: float, se: float) -> float:  # neither inside +-tol nor clear of zero
        inner = max(tolerance - z * se, 0.0)
        outer = z * se
        return _between(estimate, se, inner, outer) + _between(estimate, se, -outer, -inner)

    needed = _games(open_band, low, high, games, level)
    return Verdict(Outcome.UNSETTLED, tolerance, estimate, low, high, needed)


def positive(
    estimate: float,
    low: float,
    high: float,
    tolerance: float,
    *,
    games: int | None = None,
    level: float = 0.95,
) -> Verdict:
    """Claim: the effect is above zero; its opposite: at most +tolerance (see the module doc)."""
    _check(tolerance)
    if _missing(estimate, low, high):
        return Verdict(Outcome.UNSETTLED, tolerance, estimate, low, high)
    if low > 0:
        return Verdict(Outcome.HOLDS, tolerance, estimate, low, high)
    if high < tolerance:
        return Verdict(Outcome.OPPOSITE, tolerance, estimate, low, high)

    def open_band(z: float, se: float) -> float:  # neither clear of zero nor below +tol
        return _between(estimate, se, tolerance - z * se, z * se)

    needed = _games(open_band, low, high, games, level)
    return Verdict(Outcome.UNSETTLED, tolerance, estimate, low, high, needed)


def all_of(verdicts: Iterable[Verdict]) -> Verdict:
    """The verdict on claims that must all hold; it carries the deciding member's interval
    (the first shown false; else the one needing the most games; else the one nearest its
    tolerance)."""
    found = list(verdicts)
    if not found:
        raise ValueError("all_of needs at least one verdict")
    against = [v for v in found if v.opposite]
    if against:
        return against[0]
    open_ = [v for v in found if not v.settled]
    if open_:
        known = [v.games_to_settle for v in open_]
        worst = max(
            open_, key=lambda v: math.inf if v.games_to_settle is None else v.games_to_settle
        )
        games = None if None in known else max(k for k in known if k is not None)
        return Verdict(Outcome.UNSETTLED, worst.tolerance, worst.estimate, worst.low, worst.high,
                       games)  # fmt: skip
    return max(found, key=lambda v: max(abs(v.low), abs(v.high)) - v.tolerance)


def _games(open_band, low: float, high: float, games: int | None, level: float) -> int | None:
    """Games per arm at which the chance that the question stays open, were the truth the
    current estimate, falls to 1 - POWER. `open_band(z, se)` is that chance for a standard
    error `se`; the standard error now is read off the interval and shrinks as 1/sqrt(games)."""
    if games is None or games <= 0 or not (math.isfinite(low) and math.isfinite(high)):
        return None
    z = z_for(level)
    se = (high - low) / (2.0 * z)
    if se <= 0:
        return None
    wanted = 1.0 - POWER
    if open_band(z, se) <= wanted:
        return _round_up(games + 1)
    lo, hi = 0.0, se  # open_band(z, hi) > wanted; find the largest se where it is <= wanted
    for _ in range(60):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if open_band(z, mid) <= wanted else (lo, mid)
    if lo <= 0.0:
        return None  # no sample size settles it (a zero tolerance for a zero estimate)
    return _round_up(games * (se / lo) ** 2)


def _between(d: float, se: float, a: float, b: float) -> float:
    """P(a < X <= b) for X normal with mean d and standard deviation se (0 if b <= a)."""
    if b <= a or se <= 0:
        return 0.0
    return _N.cdf((b - d) / se) - _N.cdf((a - d) / se)


def _round_up(x: float) -> int:
    """Up to two significant figures: 12,345 -> 13,000."""
    step = 10 ** max(int(math.floor(math.log10(x))) - 1, 0)
    return int(math.ceil(x / step) * step)


def _missing(*values: float) -> bool:
    return any(v is None or math.isnan(v) for v in values)


def _check(tolerance: float) -> None:
    if not tolerance >= 0 or math.isinf(tolerance):
        raise ValueError(f"a tolerance is a finite number >= 0, got {tolerance}")


__all__ = ["Outcome", "Verdict", "all_of", "equivalence", "positive"]
