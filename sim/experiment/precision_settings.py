"""The experiment key `precision`: add games until a metric's 95% interval is narrow enough,
or until every answer of the report is settled.

    precision: {metric: raid_rate, width: 0.01, step: 10000, max_games: 1000000}
    precision: {settle: true, step: 20000, max_games: 500000}

`metric` is one of sim/experiment/precision.py's forms and must exist in every arm (an outcome of
the game, a seat every arm has, a strategy that plays in every arm); `step` defaults to
`games`, `max_games` to the larger of 1,000,000 and `games`. With `settle: true` (instead of
metric and width) every arm plays on until no answer of the report is "not settled"
(sim/stats/verdict.py): each step jumps to the games per arm the open answers say would
likely settle them, at least `step` more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.config import nearest
from sim.experiment.checks import integer, mapping, show
from sim.experiment.model import Precision
from sim.experiment.precision import METRIC_FORMS, parse_metric
from sim.experiment.reading import KeyPath, Reading
from sim.games.base import outcomes
from sim.storage.parts import MAX_GAMES

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
    parsed = parse_metric(metric)
    if parsed is None:
        raise p.fail(f"unknown metric '{metric}'", path, f"Metrics: {METRIC_FORMS}.")
    kind, arg = parsed
    if kind == "rate":
        known = outcomes(p.game)
        if known is not None and arg not in known:
            near = nearest(arg, known)
            mean = f"Did you mean '{near}_rate'? " if near else ""
            rates = ", ".join(f"{o}_rate" for o in known)
            raise p.fail(f"unknown metric '{metric}'", path, f"{mean}Rates: {rates}.")
    elif kind == "seat":
        if any(int(arg) >= arm.players for arm in arms):
            raise p.fail(f"seat {arg} does not exist in every arm", path)
    elif kind == "strategy":
        labels = sorted({spec.label for arm in arms for spec in arm.lineup})
        if any(arg not in {spec.label for spec in arm.lineup} for arm in arms):
            near = nearest(arg, labels)
            mean = f"Did you mean 'win_share.{near}'? " if near else ""
            raise p.fail(
                f"strategy '{arg}' does not play in every arm",
                path,
                f"{mean}Strategies: {', '.join(labels)}.",
            )
