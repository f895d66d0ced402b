"""Metrics shared by the sections: rates and means with intervals, per-game frames of an arm,
and paired comparisons of two arms on the same games."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from sim.report.data import Results
from sim.stats.intervals import normal_interval, wilson
from sim.stats.paired import Difference, paired_difference

OUTCOMES = ("victory", "stall", "raid", "cap")

# per-seat statistics summed over the table for a per-game view (label, per what)
SEAT_TOTALS = {
    "steals_made": "steals",
    "losses": "fighters destroyed",
    "reentries": "re-entries",
    "mine_explosions": "mine explosions",
    "missiles_bought": "missiles bought",
    "missiles_fired": "missiles fired",
    "upgrades_bought": "upgrades bought",
    "power_ups_bought": "power-ups bought",
    "power_ups_used": "power-ups used",
    "points_paid": "points paid",
}


def rate(successes: float, n: int) -> dict[str, float]:
    """{'value', 'low', 'high', 'n'} for a rate (Wilson interval; shares may be fractional)."""
    if n <= 0:
        return {"value": math.nan, "low": math.nan, "high": math.nan, "n": 0}
    s = min(max(float(successes), 0.0), float(n))
    low, high = wilson(s, n)
    return {"value": s / n, "low": low, "high": high, "n": int(n)}


def mean(values: Any) -> dict[str, float]:
    """{'value', 'low', 'high', 'sd', 'n'}: the mean with its normal 95% interval."""
    x = np.asarray(values, dtype=np.float64)
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return {"value": math.nan, "low": math.nan, "high": math.nan, "sd": math.nan, "n": 0}
    m = float(x.mean())
    if n < 2:
        return {"value": m, "low": math.nan, "high": math.nan, "sd": math.nan, "n": n}
    sd = float(x.std(ddof=1))
    low, high = normal_interval(m, sd, n)
    return {"value": m, "low": float(low), "high": float(high), "sd": sd, "n": n}


def prefixed(d: dict[str, Any], key: str) -> dict[str, Any]:
    """{'value': v, 'low': l, ...} -> {key: v, key_low: l, ...}."""
    return {(key if k == "value" else f"{key}_{k}"): v for k, v in d.items()}


def diff_cols(d: Difference, key: str) -> dict[str, Any]:
    return {
        key: d.estimate,
        f"{key}_low": d.low,
        f"{key}_high": d.high,
        f"{key}_p": d.pvalue,
        f"{key}_sig": d.significant if not math.isnan(d.pvalue) else None,
        f"{key}_n": d.n,
    }


# --- per-game frames -----------------------------------------------------------------------


def per_game(results: Results, arm: str) -> pl.DataFrame:
    """One row per game of the arm: outcome indicators, length, scores and table totals.

    Columns: game, raid/victory/stall/cap (0/1), turns, rounds (if stored), total_score,
    top_score, winner_score (NaN without a winner), score_seat<k>, win_seat<k>, and the sum
    over seats of every SEAT_TOTALS statistic present.
    """
    g = results.arm_games(arm)
    s = results.arm_seats(arm)
    cols: list[pl.Expr] = [pl.col("game")]
    for o in OUTCOMES:
        cols.append((pl.col("outcome") == o).cast(pl.Float64).alias(o))
    cols.append(pl.col("turns").cast(pl.Float64))
    if "rounds" in g.columns:
        cols.append(pl.col("rounds").cast(pl.Float64))
    out = g.select(cols)
    totals = [
        pl.col("score").sum().cast(pl.Float64).alias("total_score"),
        pl.col("score").max().cast(pl.Float64).alias("top_score"),
        pl.col("score")
        .filter(pl.col("win_share") > 0)
        .max()
        .cast(pl.Float64)
        .alias("winner_score"),
    ]
    totals += [pl.col(c).sum().cast(pl.Float64).alias(c) for c in SEAT_TOTALS if c in s.columns]
    agg = s.group_by("game").agg(totals)
    seats = int(s.get_column("seat").max()) + 1 if s.height else 0
    wide = s.select("game", "seat", "score", "win_share")
    for k in range(seats):
        one = wide.filter(pl.col("seat") == k).select(
            "game",
            pl.col("score").cast(pl.Float64).alias(f"score_seat{k}"),
            pl.col("win_share").alias(f"win_seat{k}"),
        )
        agg = agg.join(one, on="game", how="left")
    return out.join(agg, on="game", how="left").sort("game")


def strategy_win_per_game(results: Results, arm: str) -> pl.DataFrame:
    """game x strategy: the mean win share of the seats that strategy held (wide frame)."""
    s = results.arm_seats(arm)
    long = s.group_by("game", "strategy").agg(pl.col("win_share").mean())
    return long.pivot(on="strategy", index="game", values="win_share").sort("game")


# --- comparisons -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Metric:
    key: str  # column of the per-game frame
    label: str
    unit: str  # 'pp' (a rate), 'num'
    digits: int = 1
    headline: bool = False


def standard_metrics(frame: pl.DataFrame, players: int) -> list[Metric]:
    """The metrics a what-if compares, in display order (rates first)."""
    m = [
        Metric("raid", "invaders win (raid rate)", "pp", headline=True),
        Metric("victory", "board cleared (victory rate)", "pp", headline=True),
        Metric("stall", "stalled (stall rate)", "pp"),
        Metric("cap", "cut at the turn cap", "pp"),
        Metric("turns", "game length (turns)", "num", headline=True),
    ]
    if "rounds" in frame.columns:
        m.append(Metric("rounds", "game length (rounds)", "num"))
    m += [
        Metric("total_score", "total score of the table (points)", "num", headline=True),
        Metric("winner_score", "winner's score (points)", "num", headline=True),
        Metric("win_seat0", "first player's win share", "pp", headline=True),
    ]
    for k in range(players):
        m.append(Metric(f"score_seat{k}", f"score of seat {k + 1} (points)", "num"))
    for key, label in SEAT_TOTALS.items():
        if key in frame.columns:
            m.append(Metric(key, f"{label} per game (all players)", "num", digits=2))
    return m


def paired(
    base: pl.DataFrame, other: pl.DataFrame, key: str, *, on: str = "game"
) -> tuple[Difference, float, float]:
    """(other - base difference on the games both have, base mean, base sd)."""
    if key not in base.columns or key not in other.columns:
        nan = float("nan")
        return paired_difference([], []), nan, nan
    joined = base.select(on, pl.col(key).alias("a")).join(
        other.select(on, pl.col(key).alias("b")), on=on, how="inner"
    )
    a = joined.get_column("a").cast(pl.Float64).fill_null(np.nan).to_numpy()
    b = joined.get_column("b").cast(pl.Float64).fill_null(np.nan).to_numpy()
    d = paired_difference(b, a)
    ok = ~np.isnan(a) & ~np.isnan(b)
    base_mean = float(a[ok].mean()) if ok.any() else float("nan")
    base_sd = float(a[ok].std(ddof=1)) if ok.sum() > 1 else float("nan")
    return d, base_mean, base_sd


def is_all_zero(frame: pl.DataFrame, key: str) -> bool:
    if key not in frame.columns:
        return True
    col = frame.get_column(key).fill_nan(None).drop_nulls()
    return col.len() == 0 or bool((col == 0).all())
