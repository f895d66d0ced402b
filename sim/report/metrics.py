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
    tolerance: str = ""  # the tolerance its changes are judged against (sim/stats/tolerances.py)


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
