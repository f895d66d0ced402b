"""The experiment's `precision` key as the rule that tells the runner when to stop adding
games (sim.runner.stopping): until a metric's 95% interval is narrow enough in every arm, or
until every answer of the report is settled. The runner reads no measure and builds no
report; this rule does, between the rounds of a run.

    precision: {metric: raid_rate, width: 0.01, step: 10000, max_games: 1000000}
    precision: {settle: true, step: 20000, max_games: 500000}

A metric at checkpoint n is measured on games 0..n-1 of an arm only (even if more are stored),
so the stop does not depend on workers, chunks or earlier interrupted runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sim.experiment.model import Experiment, Precision
from sim.experiment.precision import Measurement, measure

SETTLE = "all arms"  # the precision result's key when every answer must be settled


def stop_rule(exp: Experiment) -> MetricStop | SettleStop | None:
    """The rule of the experiment's `precision` key (None without one: the run plays `games`
    per arm)."""
    if exp.precision is None:
        return None
    if exp.precision.settle:
        return SettleStop(exp.precision)
    return MetricStop(exp, exp.precision)


class MetricStop:
    """Each arm plays on, `step` games at a time, until its metric's 95% interval is at most
    `width` wide or it has played `max_games`."""

    def __init__(self, exp: Experiment, precision: Precision) -> None:
        self.precision = precision
        self.names = {arm.index: arm.name for arm in exp.arms}
        self.found: dict[str, dict[str, Any]] = {}

    def more(self, root: Path, targets: Mapping[int, int]) -> dict[int, int]:
        prec = self.precision
        more = {}
        for arm, games in targets.items():
            m = measure(root, arm, games, prec.metric)
            reached = m.width <= prec.width
            self.found[self.names[arm]] = _measure_entry(m, reached, prec.width)
            if not reached and games < prec.max_games:
                more[arm] = min(games + prec.step, prec.max_games)
        return more


class SettleStop:
    """Every arm plays on until no answer of the report is open: each step goes to the games
    per arm the open answers say would likely settle them, at least `step` more, at most
    `max_games`."""

    def __init__(self, precision: Precision) -> None:
        self.precision = precision
        self.found: dict[str, dict[str, Any]] = {}

    def more(self, root: Path, targets: Mapping[int, int]) -> dict[int, int]:
        from sim.report.settled import open_questions

        prec, games = self.precision, max(targets.values())
        found = open_questions(root, games=games)
        needed = max((q.games_to_settle or 0 for q in found), default=0)
        target = min(prec.max_games, max(games + prec.step, needed)) if found else games
        self.found[SETTLE] = {
            "settle": True,
            "games": games,
            "open": [
                {"question": q.question, "games_to_settle": q.games_to_settle} for q in found
            ],  # fmt: skip
            "reached": not found,
        }
        if not found or target == games:
            return {}
        return dict.fromkeys(targets, target)


def _measure_entry(m: Measurement, reached: bool, target: float) -> dict[str, Any]:
    return {
        "metric": m.metric,
        "games": m.games,
        "estimate": m.estimate,
        "low": m.low,
        "high": m.high,
        "width": m.width,
        "target_width": target,
        "reached": reached,
    }
