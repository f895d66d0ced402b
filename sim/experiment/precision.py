"""The precision stop: metrics an experiment can ask to pin down, measured from stored games.

Metrics (all with 95% intervals; `width` is high - low):

- ``<outcome>_rate`` (raid_rate, victory_rate, ...): share of games with that outcome (Wilson);
- ``win_share.seat.<k>``: mean win share of seat k (Wilson on the summed shares);
- ``win_share.<strategy>``: mean win share of the seats a strategy (its label) sat in (Wilson);
- ``mean_turns``, ``mean_score``: mean turns per game, mean score per seat (normal interval).

A measurement at checkpoint n uses games 0..n-1 of the arm only (even if more are stored), so
the stop is deterministic: it does not depend on workers, chunks or earlier interrupted runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sim.stats.intervals import normal_interval, wilson

METRIC_FORMS = (
    "<outcome>_rate (e.g. raid_rate), win_share.seat.<k>, win_share.<strategy>, "
    "mean_turns, mean_score"
)
_RATE = re.compile(r"^([a-z][a-z0-9]*)_rate$")


def parse_metric(metric: str) -> tuple[str, str] | None:
    """('rate', outcome) | ('seat', k) | ('strategy', label) | ('mean', column) | None."""
    if metric == "mean_turns":
        return ("mean", "turns")
    if metric == "mean_score":
        return ("mean", "score")
    m = _RATE.match(metric)
    if m:
        return ("rate", m.group(1))
    if metric.startswith("win_share.seat.") and metric[len("win_share.seat.") :].isdigit():
        return ("seat", metric[len("win_share.seat.") :])
    if metric.startswith("win_share.") and len(metric) > len("win_share."):
        return ("strategy", metric[len("win_share.") :])
    return None


@dataclass(frozen=True)
class Measure:
    metric: str
    games: int
    estimate: float
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low


def measure(root: str | Path, arm_index: int, games: int, metric: str) -> Measure:
    """The metric over games 0..games-1 of one arm, from the stored parts (lazy scans)."""
    import polars as pl

    from sim.results import load

    parsed = parse_metric(metric)
    if parsed is None:
        raise ValueError(f"unknown metric {metric!r}")
    kind, arg = parsed
    table = "games" if kind == "rate" or (kind == "mean" and arg == "turns") else "seats"
    lf = load(root, table, arms=[arm_index]).filter(pl.col("game") < games)
    if kind == "rate":
        row = lf.select((pl.col("outcome") == arg).sum().alias("k"), pl.len().alias("n")).collect()
        k, n = float(row["k"][0]), int(row["n"][0])
        low, high = wilson(k, n)
        return Measure(metric, games, k / n if n else 0.0, low, high)
    if kind in ("seat", "strategy"):
        cond = pl.col("seat") == int(arg) if kind == "seat" else pl.col("strategy") == arg
        row = (
            lf.filter(cond)
            .select(pl.col("win_share").sum().alias("k"), pl.len().alias("n"))
            .collect()
        )
        k, n = float(row["k"][0] or 0.0), int(row["n"][0])
        k = min(k, n)  # float rounding of shared wins
        low, high = wilson(k, n)
        return Measure(metric, games, k / n if n else 0.0, low, high)
    row = lf.select(
        pl.col(arg).mean().alias("m"), pl.col(arg).std().alias("s"), pl.len().alias("n")
    ).collect()
    mean, sd, n = row["m"][0], row["s"][0], int(row["n"][0])
    if n < 2 or mean is None:
        return Measure(metric, games, float(mean or 0.0), float("-inf"), float("inf"))
    low, high = normal_interval(float(mean), float(sd), n)
    return Measure(metric, games, float(mean), low, high)
