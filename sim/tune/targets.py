"""What the designer wants: targets on named measures of the game's registry (sim.measures).

    targets:
      - measure: uplift.skill(missile_at=16)   # a registry name; `skill` is each level
        value: 0                                # or band: [0.20, 0.30]
        tolerance: 0.01                         # met within this (measure units)
        skills: [club, strong]                  # levels it must hold at (default: all)
        arms: [missile]                         # arms it is measured in (default: all)
        combine: worst                          # worst (default) | each

A target is measured in every arm of the experiment it names, at every skill level it names.
A strategy written `skill` in a measure's name (`win_share.skill`, `uplift.skill(...)`) is the
level itself, as in `seats:`. How the places combine:
- `worst`: one objective, the largest miss over the places: the values must suit every level
  (and arm) at once;
- `each`: every place is an objective of its own (the search trades them off; the report
  shows the Pareto front).

A *miss* is the distance from the value to the band (0 inside it) in units of the tolerance,
so that targets in different units weigh alike. The search minimises the sum of the squared
misses of the objectives (or, with `search.objectives: separate`, each objective apart).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sim.measures.core import Value

TARGET_KEYS = ("measure", "value", "band", "tolerance", "skills", "arms", "combine", "name")
COMBINE = ("worst", "each")
NO_DATA_MISS = 1e6  # a measure without a value (no game it counts) misses by this much
_SKILL = re.compile(r"(?<=[.>])skill(?=$|[(>])")


@dataclass(frozen=True)
class Target:
    measure: str  # as written (may hold `skill`)
    low: float
    high: float
    tolerance: float
    unit: str  # 'share' or 'num' (the measure's)
    label: str  # the measure in words
    skills: tuple[str, ...] = ()  # () = every level
    arms: tuple[str, ...] = ()  # base arms; () = every arm
    combine: str = "worst"
    name: str = ""  # how the report names it

    def measure_at(self, level: str | None) -> str:
        return at_level(self.measure, level)

    def applies(self, base_arm: str, level: str | None) -> bool:
        return (not self.arms or base_arm in self.arms) and (
            not self.skills or level is None or level in self.skills
        )

    def miss(self, value: float) -> float:
        """Distance from the band in tolerances (0 inside); NO_DATA_MISS without a value."""
        if not math.isfinite(value):
            return NO_DATA_MISS
        gap = max(self.low - value, value - self.high, 0.0)
        return gap / self.tolerance

    @property
    def signed(self) -> bool:
        """A share aimed at 0 or below (an uplift, an advantage): shown as a signed difference
        in percentage points, not as a rate."""
        return self.unit == "share" and (self.low < 0 or self.high <= 0)

    def show(self, x: float) -> str:
        """A value in the measure's units: '+0.5 pp', '23.1%', '31.2'."""
        if self.unit != "share":
            return _num(x)
        return f"{100 * x:+.3g} pp" if self.signed else f"{100 * x:.3g}%"

    @property
    def wanted(self) -> str:
        """'0 pp', '20% to 30%', '31', in the measure's units."""
        if self.low == self.high:
            return "0 pp" if self.signed and self.low == 0 else self.show(self.low)
        return f"{self.show(self.low)} to {self.show(self.high)}"

    @property
    def within(self) -> str:
        """The tolerance: '1 pp', '2000'."""
        return f"{100 * self.tolerance:.3g} pp" if self.unit == "share" else _num(self.tolerance)

    def as_json(self) -> dict[str, Any]:
        """The target as a tune's and a screen's summary keep it."""
        return {"measure": self.measure, "low": self.low, "high": self.high,
                "tolerance": self.tolerance, "unit": self.unit, "label": self.label,
                "combine": self.combine, "name": self.name, "wanted": self.wanted,
                "within": self.within, "signed": self.signed}  # fmt: skip


def at_level(measure: str, level: str | None) -> str:
    """The registry name at a skill level: a strategy written `skill` becomes the level."""
    return _SKILL.sub(level, measure) if level else measure


def _num(x: float) -> str:
    """A plain quantity: whole thousands with separators (humans: 25,000), else 4 digits."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"


@dataclass(frozen=True)
class Place:
    """Where a target is measured: an arm of the experiment (its name in the results, its
    base arm and its skill level)."""

    arm: str
    base_arm: str
    level: str | None


def places(target: Target, arms: Sequence[Place]) -> list[Place]:
    return [p for p in arms if target.applies(p.base_arm, p.level)]


@dataclass(frozen=True)
class Measured:
    """One target's value at one place."""

    target: int  # index in the tune's targets
    place: Place
    value: Value
    miss: float


def objectives(targets: Sequence[Target], measured: Sequence[Measured]) -> list[float]:
    """The misses the search minimises: one per `worst` target, one per place of an `each`
    target, in the order of the targets."""
    out: list[float] = []
    for i, target in enumerate(targets):
        mine = [m.miss for m in measured if m.target == i]
        if not mine:
            out.append(NO_DATA_MISS)
        elif target.combine == "worst":
            out.append(max(mine))
        else:
            out.extend(mine)
    return out


def objective_names(targets: Sequence[Target], arms: Sequence[Place]) -> list[str]:
    """A name for each objective, in the order `objectives` gives them."""
    out = []
    for target in targets:
        name = target.name or target.measure
        if target.combine == "worst":
            out.append(name)
        else:
            out.extend(f"{name} @ {p.arm}" for p in places(target, arms))
    return out


def score(misses: Sequence[float]) -> float:
    """The one number a single-objective search minimises: the sum of squared misses."""
    return float(sum(m * m for m in misses))


def parse_band(spec: Mapping[str, Any]) -> tuple[float, float]:
    """(low, high) from `value` or `band`; ValueError with the reason."""
    if ("value" in spec) == ("band" in spec):
        raise ValueError("give a target value or a band, one of the two")
    if "value" in spec:
        v = _number(spec["value"], "value")
        return v, v
    band = spec["band"]
    if not isinstance(band, list) or len(band) != 2:
        raise ValueError("a band is [low, high]")
    low, high = _number(band[0], "band"), _number(band[1], "band")
    if not low <= high:
        raise ValueError(f"the band's low ({low}) is above its high ({high})")
    return low, high


def _number(v: Any, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ValueError(f"{what} must be a number, got {v!r}")
    return float(v)


def pareto_fronts(points: Sequence[Sequence[float]]) -> list[int]:
    """Each point's front (0 = not dominated by any; 1 = only by points of front 0; ...),
    every objective minimised."""
    front = [-1] * len(points)
    left = set(range(len(points)))
    level = 0
    while left:
        top = {i for i in left if not any(_dominates(points[j], points[i]) for j in left)}
        for i in top:
            front[i] = level
        left -= top
        level += 1
    return front


def _dominates(a: Sequence[float], b: Sequence[float]) -> bool:
    return all(x <= y for x, y in zip(a, b, strict=True)) and any(
        x < y for x, y in zip(a, b, strict=True)
    )
