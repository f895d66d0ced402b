"""Data quality of an answer: the games it rests on, the smallest effect it could have found,
and warnings when the data say little about the question.

- ``mde(low, high)``: the minimum detectable effect at 80% power of a two-sided 5% test, from a
  95% interval: (z_0.975 + z_0.80) x the standard error, where the standard error is the
  interval's half-width / z_0.975. For a rate against a reference, ``mde_rate(p, n)``.
- ``share_warning(...)``: most games ended in a way that says nothing about the question (for
  example nobody won, so a win share cannot move).
- ``beyond_range(...)``: a break-even outside the swept range, with the sweep that would settle
  it (``settling_sweep``).

Nothing here knows a game: the sections say which outcomes are uninformative and in what words.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

from sim.report import fmt
from sim.stats.intervals import z_for

POWER = 0.80
MOST = 0.5  # "most games": more than this share says nothing about the question
CAP_WARN = 0.05  # a share of games cut at the turn cap worth a warning on its own


def mde(low: float, high: float, *, level: float = 0.95, power: float = POWER) -> float:
    """Minimum detectable effect at `power` for an estimate with this `level` interval.

    Unknown (NaN) for an interval of no width: a whole-number statistic such as a median of
    rounds whose resamples all agree gives no spread to read a power from (not "0 detectable").
    """
    if fmt.is_missing(low) or fmt.is_missing(high) or not math.isfinite(high - low):
        return float("nan")
    if high <= low:
        return float("nan")
    z = z_for(level)
    se = (high - low) / (2.0 * z)
    return (z + NormalDist().inv_cdf(power)) * se


def mde_rate(p: float, n: float, *, level: float = 0.95, power: float = POWER) -> float:
    """Smallest deviation of a rate from a reference p detectable with n observations."""
    if n <= 0 or not 0.0 < p < 1.0:
        return float("nan")
    z = z_for(level)
    return (z + NormalDist().inv_cdf(power)) * math.sqrt(p * (1.0 - p) / n)


@dataclass(frozen=True)
class Quality:
    """The data-quality line under an answer."""

    games: int  # games the answer rests on
    basis: str  # what those games are, e.g. "games with a winner"
    total: int | None = None  # all games, when the basis is a subset
    mde: float = float("nan")  # minimum detectable effect at 80% power
    mde_unit: str = "pp"  # 'pp' (x100, percentage points), 'num', or a word ("points")
    mde_of: str = "effect"  # what the minimum detectable effect is of ("seat advantage")
    warnings: tuple[str, ...] = field(default_factory=tuple)
    note: str = ""  # e.g. "per skill level: 3,200 to 4,100"

    def _mde_text(self) -> str:
        if fmt.is_missing(self.mde):
            return ""
        if self.mde_unit == "pp":
            value = f"{fmt.num(100 * self.mde)} pp"
        elif self.mde_unit == "num":
            value = fmt.num(self.mde, 2)
        else:
            value = f"{fmt.num(self.mde, 2)} {self.mde_unit}"
        return f"smallest {self.mde_of} detectable at 80% power: {value}"

    def summary(self) -> str:
        rest = f"Rests on {self.games:,} {self.basis}"
        if self.total is not None and self.total != self.games:
            rest += f" (of {self.total:,} games, {fmt.pct(self.games / self.total, 0)})"
        if self.note:
            rest += f"; {self.note}"
        m = self._mde_text()
        return rest + (f"; {m}." if m else ".")

    def text(self) -> str:
        return " ".join([self.summary(), *(f"Warning: {w}" for w in self.warnings)])

    def html(self) -> str:
        e = html.escape
        warns = "".join(f' <span class="warn"><b>Warning:</b> {e(w)}</span>' for w in self.warnings)
        cls = "quality warned" if self.warnings else "quality"
        return f'<p class="{cls}">{e(self.summary())}{warns}</p>'


def share_warning(
    counts: Mapping[str, float],
    uninformative: Mapping[str, str],
    about: str,
    *,
    threshold: float = MOST,
) -> str | None:
    """A warning when more than `threshold` of the games ended in an outcome of
    `uninformative` (outcome -> how to say it, e.g. 'raid' -> 'lost by everybody to a raid').
    `counts`: games by how they ended (any other key counts as informative)."""
    total = float(sum(counts.values()))
    if total <= 0:
        return None
    bad = {o: float(counts.get(o, 0)) for o in uninformative if counts.get(o, 0)}
    share = sum(bad.values()) / total
    if share <= threshold:
        return None
    ordered = sorted(bad, key=lambda o: -bad[o])
    how = " or ".join(uninformative[o] for o in ordered)
    rest = int(round(total - sum(bad.values())))
    return (
        f"{fmt.pct(share, 0)} of the games were {how}, which says nothing about {about}; "
        f"the answer rests on the other {fmt.pct(1 - share, 0)} ({rest:,} games)."
    )


def cap_warning(capped: float, total: float, phrase: str, *, threshold: float = CAP_WARN):
    """A warning when at least `threshold` of the games were cut short (e.g. at a turn cap)."""
    if total <= 0 or capped / total < threshold:
        return None
    return (
        f"{fmt.pct(capped / total, 0)} of the games were {phrase}: they were stopped before an "
        "ending, so they count as nobody winning."
    )


def settling_sweep(
    tried: Sequence[float], side: str, guess: float | None = None, *, points: int = 5
) -> list[float]:
    """Values to sweep next when a crossing lies beyond the tried range: from the last tried
    value outwards, past `guess` (an extrapolated crossing) when there is one, else four of
    the tried steps. Whole numbers when every tried value is whole; never below 0 when every
    tried value is at least 0."""
    xs = sorted(float(x) for x in tried)
    if len(xs) < 2:
        return []
    steps = [b - a for a, b in zip(xs, xs[1:], strict=False) if b > a]
    step = sorted(steps)[len(steps) // 2] if steps else 1.0
    if side == "above":
        start = xs[-1]
        step = max(step, xs[-1] - xs[-2])  # the sweep's own step at that end
        end = start + 4 * step
        if guess is not None and math.isfinite(guess) and guess > start:
            end = max(end, start + 1.25 * (guess - start))
    else:
        start = xs[0]
        step = max(step, xs[1] - xs[0])
        end = start - 4 * step
        if guess is not None and math.isfinite(guess) and guess < start:
            end = min(end, start - 1.25 * (start - guess))
        if xs[0] >= 0:
            end = max(end, 0.0)
    values = [start + (end - start) * i / (points - 1) for i in range(points)]
    if all(float(x).is_integer() for x in xs):
        values = [float(round(v)) for v in values]
    out: list[float] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out if side == "above" else sorted(out)


def beyond_range(
    key: str,
    tried: Sequence[float],
    side: str,
    guess: float | None = None,
    what: str = "the break-even lies",
) -> str:
    """'the break-even lies above the highest missile.cost tried (20): sweep missile.cost over
    [20, 25, 30, 35, 40] to settle it.'"""
    xs = sorted(float(x) for x in tried)
    edge = xs[-1] if side == "above" else xs[0]
    which = "highest" if side == "above" else "lowest"
    sweep = settling_sweep(xs, side, guess)
    listed = ", ".join(fmt.value(v) for v in sweep)
    tail = f": sweep {key} over [{listed}] to settle it" if sweep else ""
    return f"{what} {side} the {which} {key} tried ({fmt.value(edge)}){tail}."


def extrapolate_zero(x: Sequence[float], y: Sequence[float], side: str) -> float | None:
    """Where the straight line through the two outermost points on `side` reaches zero, if it
    heads towards zero beyond the range; None otherwise."""
    pts = sorted((float(a), float(b)) for a, b in zip(x, y, strict=True) if math.isfinite(b))
    if len(pts) < 2:
        return None
    (x0, y0), (x1, y1) = (pts[-2], pts[-1]) if side == "above" else (pts[1], pts[0])
    if y1 == y0:
        return None
    root = x1 - y1 * (x1 - x0) / (y1 - y0)
    if (side == "above" and root > x1) or (side == "below" and root < x1):
        return root
    return None
