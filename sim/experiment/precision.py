"""The precision stop: a measure an experiment asks to pin down, measured from stored games.

The metric is any measure of the game's registry (sim/measures; `sim.lab` lists them with
`measure_names()`): `raid_rate`, `win_share.seat.0`, `win_share.<strategy>`, `mean_turns`,
`mean_score`, `leader_wins.half`, ... with its 95% interval; `width` is high - low.

A measurement at checkpoint n uses games 0..n-1 of the arm only (even if more are stored), so
the stop is deterministic: it does not depend on workers, chunks or earlier interrupted runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.measures import Settings, UnknownMeasure, read_arm, registry_for
from sim.measures.registry import closest


@dataclass(frozen=True)
class Measurement:
    metric: str
    games: int
    estimate: float
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low


def measure(root: str | Path, arm_index: int, games: int, metric: str) -> Measurement:
    """The metric over games 0..games-1 of one arm (the registry's measure of that name)."""
    from sim.results import game_name, manifest

    m = registry_for(game_name(manifest(root))).get(metric)
    v = m.estimate(read_arm(root, arm_index, [m]).first(games))
    return Measurement(metric, games, v.value, v.low, v.high)


def metric_problem(game: Any, metric: str, arms: Sequence[Settings]) -> tuple[str, str] | None:
    """Why `metric` cannot stop a run of these arms, as (message, hint); None if it can."""
    seats = min((arm.players for arm in arms), default=0)
    strategies = sorted({label for arm in arms for label in arm.lineup})
    examples = [f"win_share.seat.{k}" for k in range(seats)]
    examples += [f"win_share.{label}" for label in strategies]
    try:
        m = registry_for(game).get(metric, examples=examples)
    except UnknownMeasure as err:
        return f"unknown metric '{metric}'", err.hint
    missing = next((m.missing_in(arm) for arm in arms if m.missing_in(arm)), "")
    if not missing:
        return None
    close = closest(metric, [e for e in examples if e != metric])
    mean = f"Did you mean '{close}'? " if close else ""
    return f"{missing} in every arm", (f"{mean}Seats 0 to {seats - 1} (0 plays first); "
                                       f"strategies: {', '.join(strategies)}.")  # fmt: skip
