"""Three-valued verdicts: a difference lies within the designer's tolerance (shown), beyond it
(shown), or the data do not settle which at this size, with the games per arm that would likely
settle it.

A verdict reads an estimate's confidence interval against the designer's tolerance, in the
estimate's own units (a price within 1 point, a seat advantage within 1 pp, a length within 2
turns). One rule for every claim (docs/reports.md, "The verdict vocabulary"):

- WITHIN the tolerance: the whole interval lies inside it;
- BEYOND the tolerance: the whole interval lies outside it, on one side;
- NOT SETTLED otherwise. A difference whose interval excludes zero but reaches past the
  tolerance is real (`Verdict.real`), yet not settled: it may be smaller than the tolerance.

Not detecting an effect is never a reason for WITHIN, and detecting one is never a reason for
BEYOND: an effect too small to matter is within the tolerance even when it excludes zero.

The claims, each read with that rule:

- ``equivalence``: "the effect is zero, give or take the tolerance" (the seats are fair, a rule
  change has no effect, a card is priced right, the answer is the same at every skill level).
  HOLDS when the interval lies inside +-tolerance; OPPOSITE when it lies wholly beyond it (a
  difference worth the name is shown); UNSETTLED otherwise.
- ``in_band``: "the value lies in the band [a, b], give or take the tolerance" (a target is
  met; a one-point band is a target value). HOLDS inside the widened band; OPPOSITE wholly
  outside it (missed by more than the tolerance); UNSETTLED otherwise.
- ``positive``: "the effect is above the tolerance" (skill decides; a level is harder than
  the one below it). HOLDS when the interval lies above +tolerance; OPPOSITE when it lies
  below it (at most the tolerance: negligible, or the other way); UNSETTLED otherwise. For
  "below", pass the negated interval.

``games_to_settle``: when UNSETTLED, the games per arm after which the same question would be
settled with 80% probability if the truth were the current estimate (toward whichever side).
The standard error is read off the interval, (high - low) / (2 z), and shrinks as
1 / sqrt(games); the estimate is taken as normal. Rounded up to two significant figures. None
when the interval is open-ended (an estimate beyond the range tried), the games are not known,
or it would take more than MAX_GROWTH times the games played (an estimate on the very edge of
its tolerance: more games alone would hardly do).

``all_of``: the verdict on a family of claims that must all hold (every seat fair, every pair
of skill levels alike): HOLDS when each holds (an intersection-union test needs no
correction), OPPOSITE when any is shown false, UNSETTLED otherwise.

Nothing here knows a report: the words are sim/report/verdicts.py's (the report, `--compare`,
`sim tune`, `sim screen`). Tolerances' defaults: sim/stats/tolerances.py.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from sim.stats.intervals import z_for

POWER = 0.80  # chance that the games to settle a question do settle it
MAX_GROWTH = 100  # games to settle are said only up to this many times the games played
_SQRT2 = math.sqrt(2.0)


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

    @property
    def real(self) -> bool:
        """The interval excludes zero: a difference is shown to exist (whatever its size)."""
        return not _missing(self.low, self.high) and (self.low > 0.0 or self.high < 0.0)


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
    """Claim: the effect lies within +-tolerance of zero; its opposite: it lies wholly beyond
    it (see the module doc).

    effect_shown: the outcome of a better test of "there is an effect" when the caller has one
    (an omnibus test over a family, a multiplicity-corrected one): OPPOSITE also needs it, so
    an interval beyond the tolerance that the family's test does not back stays open."""
    _check(tolerance)
    return _decide(estimate, low, high, tolerance, tolerance, tolerance, games, level,
                   effect_shown)  # fmt: skip


def in_band(
    estimate: float,
    low: float,
    high: float,
    band: tuple[float, float],
    tolerance: float,
    *,
    games: int | None = None,
    level: float = 0.95,
) -> Verdict:
    """Claim: the value lies in the band [band_low, band_high], give or take the tolerance (a
    target met; a band of one point is a target value). HOLDS when the whole interval lies
    inside the band widened by the tolerance; OPPOSITE when it lies wholly outside that
    widened band (missed by more than the tolerance); UNSETTLED otherwise."""
    _check(tolerance)
    band_low, band_high = band
    if not band_low <= band_high:
        raise ValueError(f"a band runs from low to high, got {band}")
    mid, reach = (band_low + band_high) / 2.0, (band_high - band_low) / 2.0 + tolerance
    v = _decide(estimate - mid, low - mid, high - mid, reach, reach, tolerance, games, level)
    return Verdict(v.outcome, tolerance, estimate, low, high, v.games_to_settle)


def _decide(
    estimate: float,
    low: float,
    high: float,
    reach: float,
    clear: float,
    tolerance: float,
    games: int | None,
    level: float,
    effect_shown: bool | None = None,
) -> Verdict:
    """HOLDS when the interval lies inside +-reach; OPPOSITE when it lies wholly outside
    +-clear (0 <= clear <= reach) and `effect_shown`, when given, backs it; UNSETTLED
    otherwise, with the games that would likely settle it."""
    if _missing(estimate, low, high):
        return Verdict(Outcome.UNSETTLED, tolerance, estimate, low, high)
    if -reach <= low and high <= reach:
        return Verdict(Outcome.HOLDS, tolerance, estimate, low, high)
    if (low > clear or high < -clear) and effect_shown is not False:
        return Verdict(Outcome.OPPOSITE, tolerance, estimate, low, high)

    def open_band(z: float, se: float) -> float:  # neither inside +-reach nor clear of +-clear
        inner = max(reach - z * se, 0.0)
        outer = clear + z * se
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
    """Claim: the effect lies above +tolerance; its opposite: at most +tolerance (see the
    module doc)."""
    _check(tolerance)
    if _missing(estimate, low, high):
        return Verdict(Outcome.UNSETTLED, tolerance, estimate, low, high)
    if low > tolerance:
        return Verdict(Outcome.HOLDS, tolerance, estimate, low, high)
    if high <= tolerance:
        return Verdict(Outcome.OPPOSITE, tolerance, estimate, low, high)

    def open_band(z: float, se: float) -> float:  # the interval straddles +tol
        return _between(estimate, se, tolerance - z * se, tolerance + z * se)

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
    growth = (se / lo) ** 2 if lo > 0.0 else math.inf
    if growth > MAX_GROWTH:
        return None  # on an edge: more games would hardly settle it
    return _round_up(games * growth)


def _between(d: float, se: float, a: float, b: float) -> float:
    """P(a < X <= b) for X normal with mean d and standard deviation se (0 if b <= a)."""
    if b <= a or se <= 0:
        return 0.0
    return _cdf((b - d) / se) - _cdf((a - d) / se)


def _cdf(x: float) -> float:
    """The standard normal's P(X <= x), as statistics.NormalDist().cdf computes it, without
    its method calls: the search for the games to settle reads it some 240 times a verdict."""
    return 0.5 * (1.0 + math.erf(x / _SQRT2))


def _round_up(x: float) -> int:
    """Up to two significant figures: 12,345 -> 13,000."""
    step = 10 ** max(int(math.floor(math.log10(x))) - 1, 0)
    return int(math.ceil(x / step) * step)


def _missing(*values: float) -> bool:
    return any(v is None or math.isnan(v) for v in values)


def _check(tolerance: float) -> None:
    if not tolerance >= 0 or math.isinf(tolerance):
        raise ValueError(f"a tolerance is a finite number >= 0, got {tolerance}")


__all__ = ["Outcome", "Verdict", "all_of", "equivalence", "in_band", "positive"]
