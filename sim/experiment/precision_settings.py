"""The experiment key `precision`: add games until a metric's 95% interval is narrow enough,
or until every answer of the report is settled.

    precision: {metric: raid_rate, width: 0.01, step: 10000, max_games: 1000000}
    precision: {settle: true, step: 20000, max_games: 500000}

`metric` is any measure of the game's registry (sim/measures, e.g. raid_rate, win_share.seat.0,
leader_wins.half) that exists in every arm (a seat every arm has, a strategy that plays in
every arm); `step` defaults to `games`, `max_games` to the larger of 1,000,000 and `games`.
With `settle: true` (instead of metric and width) every arm plays on until no answer of the
report is "not settled" (sim/stats/verdict.py): each step jumps to the games per arm the open
answers say would likely settle them, at least `step` more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.experiment.checks import integer, mapping, show
from sim.experiment.model import Precision
from sim.experiment.precision import metric_problem
from sim.experiment.reading import KeyPath, Reading
from sim.storage.parts import MAX_GAMES
from sim.stored_arm import Settings

if TYPE_CHECKING:
    from sim.experiment.model import Arm

PRECISION_KEYS = ("metric", "width", "settle", "step", "max_games")
DEFAULT_MAX_GAMES = 1_000_000


def precision(p: Reading, games: int, arms: list[Arm]) -> Precision | None:
    value = p.data.get("precision")
    if value is None:
        return None
    path: KeyPath = ("precision",)
    example = "For example precision: {metric: raid_rate, width: 0.01, max_games: 1000000}."
    mapping(p, value, path, "a mapping", example)
    for key in value:
        if key not in PRECISION_KEYS:
            raise p.unknown(key, PRECISION_KEYS, path)
    step = integer(p, (*path, "step"), value.get("step", games), low=1, high=MAX_GAMES)
    max_games = integer(
        p, (*path, "max_games"), value.get("max_games", max(DEFAULT_MAX_GAMES, games)),
        low=games, high=MAX_GAMES,
    )  # fmt: skip
    settle = value.get("settle", False)
    if not isinstance(settle, bool):
        raise p.fail(f"expected true or false, got {show(settle)}", (*path, "settle"))
    if settle:
        given = [key for key in ("metric", "width") if key in value]
        if given:
            raise p.fail(
                "give either settle or metric and width, not both",
                (*path, given[0]),
                "settle: true plays until every answer of the report is settled.",
            )
        return Precision("", 0.0, step, max_games, settle=True)
    for key in ("metric", "width"):
        if key not in value:
            raise p.fail(
                f"missing key '{key}'", path, "precision needs metric and width (or settle: true)."
            )
    metric = value["metric"]
    _check_metric(p, metric, arms, (*path, "metric"))
    width = value["width"]
    if isinstance(width, bool) or not isinstance(width, int | float) or not width > 0:
        raise p.fail(
            f"expected a positive number (the full width of the 95% interval), got {show(width)}",
            (*path, "width"),
        )
    return Precision(str(metric), float(width), step, max_games)


def _check_metric(p: Reading, metric: Any, arms: list[Arm], path: KeyPath) -> None:
    if not isinstance(metric, str):
        raise p.fail(f"expected a metric name, got {show(metric)}", path)
    played = [Settings(arm.players, tuple(spec.label for spec in arm.lineup)) for arm in arms]
    problem = metric_problem(p.game, metric, played)
    if problem is not None:
        raise p.fail(problem[0], path, problem[1])
