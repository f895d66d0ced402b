"""The players a group is fitted to, as the game's plug-in declares them: its continuous skill
knob (`skill_knob`, played with `knob_params`: the whole game, as people play it) on a grid
from 0 to 1, times every combination of its skill rules (`skill_rules`: Space Invaders' team
dexterity); a game without a knob is fitted to the levels of its ladder instead. Everything
is read through the plug-in interface (sim/games/base.py): nothing here knows a game.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.errors import SimError
from sim.plugins.base import StrategySpec, part

GRID = np.linspace(0.0, 1.0, 17)  # the knob's grid: steps of 1/16, the ladder's quarters on it


@dataclass(frozen=True)
class Candidates:
    """Where the fit looks: `knob` (strategy, parameter) with `params`, or None (then the
    ladder's `levels`); `rules` the discrete skill settings, each a mapping of rule values."""

    game: str
    knob: tuple[str, str] | None
    params: Mapping[str, Any]
    levels: tuple[str, ...]  # without a knob: the ladder, weakest first
    rules: tuple[Mapping[str, Any], ...]  # the discrete settings ({} when there are none)
    points: Mapping[str, float]  # the ladder's levels on the knob

    @property
    def grid(self) -> np.ndarray:
        """The knob's skills played (one point, 0, without a knob)."""
        return GRID if self.knob else np.zeros(1)

    @property
    def discrete(self) -> list[tuple[str | None, Mapping[str, Any]]]:
        """The discrete candidates: (ladder level or None, rule values) each."""
        levels: list[str | None] = list(self.levels) if not self.knob else [None]
        return [(level, rules) for level in levels for rules in self.rules]

    def seat(self, skill: float = 0.0, level: str | None = None) -> dict[str, Any]:
        """The seat entry of an experiment playing a candidate."""
        if self.knob is None:
            return {"name": level or self.levels[0]}
        return {"name": self.knob[0], self.knob[1]: round(float(skill), 6), **self.params}

    def spec(self, skill: float = 0.0, level: str | None = None) -> StrategySpec:
        entry = self.seat(skill, level)
        name = entry.pop("name")
        return StrategySpec(name, tuple(entry.items()))


def candidates_of(game: Any) -> Candidates:
    """The candidates of a plug-in."""
    knob = part(game, "skill_knob")
    levels = tuple(part(game, "skills"))
    if knob is None and len(levels) < 2:
        raise SimError(
            f"{game.name} has neither a continuous skill nor a ladder of levels to fit to",
            key="--game",
            hint="A plug-in declares `skill_knob` or `skills` (docs/adding-a-game.md).",
        )
    rules = dict(part(game, "skill_rules"))
    combos = [
        dict(zip(rules, values, strict=True)) for values in itertools.product(*rules.values())
    ] or [{}]
    return Candidates(
        game.name,
        tuple(knob) if knob else None,
        dict(part(game, "knob_params")),
        levels,
        tuple(combos),
        dict(part(game, "skill_points")),
    )


def on_ladder(skill: float, points: Mapping[str, float]) -> str:
    """Where a skill lies among the ladder's levels on the knob: 'at club', 'between casual
    (0.25) and club (0.5)', 'above strong (0.75)'."""
    if not points:
        return "on the knob"
    for name, at in points.items():
        if abs(at - skill) < 0.005:
            return f"at {name}"
    below = [(at, name) for name, at in points.items() if at < skill]
    above = [(at, name) for name, at in points.items() if at > skill]
    if below and above:
        (a, lo), (b, hi) = max(below), min(above)
        return f"between {lo} ({a:g}) and {hi} ({b:g})"
    if below:
        a, lo = max(below)
        return f"above {lo} ({a:g})"
    b, hi = min(above)
    return f"below {hi} ({b:g})"
