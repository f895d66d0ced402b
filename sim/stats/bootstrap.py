"""Percentile bootstrap (seeded, vectorised) and break-even estimation.

- ``bootstrap(statistic, n)``: resample the n games with replacement ``n_boot`` times; the
  statistic receives a whole block of resamples at once, as an index matrix ``int[b, n]``, and
  returns ``float[b]``. Blocks are sized so that an index matrix stays around 4 million cells.
  The same seed gives the same replicates.
- ``bootstrap_mean(values)`` and ``bootstrap_ratio(num, den)`` (sum(num) / sum(den)) build on it.
  Large samples are resampled in *units* of consecutive games (at most ``max_units`` of them,
  default 5,000): the games are independent, so a unit's sum is an independent draw too, and
  the mean of resampled units has the bootstrap distribution of the mean of resampled games
  (to within the units' granularity), at a cost that no longer grows with the games.
- ``break_even(x, y)``: where a curve y(x) crosses zero, read off the curve smoothed to be
  monotone in the direction of its overall trend (isotonic regression), by linear interpolation.
- ``break_even_interval(x, per_game)``: the prices a break-even may lie at: where the curve,
  read as a straight line between tried prices, is not shown to differ from zero (a paired z
  test at each price, inverted: a Fieller-type interval). Unlike a percentile bootstrap of the
  crossing, whose noisy denominator (the curve's slope) made it cover 92% to 93% of the time
  in tests/test_coverage.py, it is meant to cover the crossing of the true curve (so read) at
  the nominal rate (measured coverage: docs/reports.md, Interval coverage); open-ended when a
  crossing at the edge of the range cannot be excluded.
- ``break_even_fit_interval(x, per_game)``: the same test inverted over a cubic fitted to the
  tried prices by generalised least squares (their covariance from the shared games): about
  12% narrower on the coverage test's curve, as often right in resampled replications but
  less often in the real replays (docs/reports.md, Interval coverage); the pricing sections
  print the straight-line interval.
- ``break_even_bootstrap(x, per_game)``: the break-even with that interval, and a paired
  bootstrap for the share of resamples whose break-even lies beyond the range. Rows of
  ``per_game`` are the arms (one per x), columns the games; the arms share their games (same
  seeds), so one resample of game indices is applied to every arm: the replicates keep the
  pairing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

CHUNK_CELLS = 4_000_000
MAX_UNITS = 5_000


def unit_sums(values: np.ndarray, max_units: int | None) -> np.ndarray:
    """Sum the last axis of `values` over at most max_units runs of consecutive entries
    (returned unchanged when it is already short enough)."""
    n = values.shape[-1]
    if max_units is None or n <= max_units:
        return values
    starts = np.linspace(0, n, max_units + 1).astype(np.int64)[:-1]
    return np.add.reduceat(values, starts, axis=-1)


@dataclass(frozen=True)
class BootstrapResult:
    estimate: float
    low: float
    high: float
    n_boot: int
    replicates: np.ndarray  # float[n_boot]; NaN where the statistic is undefined
    level: float = 0.95


def resample_blocks(
    n: int, n_boot: int, seed: int, *, chunk_cells: int = CHUNK_CELLS
) -> Iterator[np.ndarray]:
    """Blocks of bootstrap index matrices int[b, n] covering n_boot resamples in total."""
    rng = np.random.default_rng(seed)
    per_block = max(1, chunk_cells // max(n, 1))
    done = 0
    while done < n_boot:
        b = min(per_block, n_boot - done)
        yield rng.integers(0, n, size=(b, n))
        done += b


def percentile_interval(replicates: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """The (1-level)/2 and (1+level)/2 quantiles of the defined replicates."""
    r = replicates[~np.isnan(replicates)]
    if r.size == 0:
        return float("nan"), float("nan")
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(r, [alpha, 1.0 - alpha])
    return float(low), float(high)


def bootstrap(
    statistic: Callable[[np.ndarray], np.ndarray],
    n: int,
    *,
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> BootstrapResult:
    """Percentile bootstrap of a vectorised statistic over n resampled units."""
    if n < 1:
        raise ValueError("need at least one observation")
    estimate = float(np.asarray(statistic(np.arange(n)[None, :]), dtype=np.float64)[0])
    reps = np.concatenate(
        [np.asarray(statistic(idx), dtype=np.float64) for idx in resample_blocks(n, n_boot, seed)]
    )
    low, high = percentile_interval(reps, level)
    return BootstrapResult(estimate, low, high, n_boot, reps, level)


def bootstrap_mean(
    values: Any,
    *,
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    max_units: int | None = MAX_UNITS,
) -> BootstrapResult:
    x = np.asarray(values, dtype=np.float64)
    return bootstrap_ratio(x, np.ones_like(x), n_boot=n_boot, seed=seed, level=level,
                           max_units=max_units)  # fmt: skip


def bootstrap_ratio(
    num: Any,
    den: Any,
    *,
    n_boot: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    max_units: int | None = MAX_UNITS,
) -> BootstrapResult:
    """sum(num) / sum(den) over paired units (NaN where the resampled denominator is 0)."""
    a = np.asarray(num, dtype=np.float64)
    b = np.asarray(den, dtype=np.float64)
    total_a, total_b = a.sum(), b.sum()
    a, b = unit_sums(a, max_units), unit_sums(b, max_units)

    def stat(idx: np.ndarray) -> np.ndarray:
        top, bottom = a[idx].sum(axis=1), b[idx].sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(bottom != 0, top / np.where(bottom != 0, bottom, 1.0), np.nan)

    res = bootstrap(stat, a.size, n_boot=n_boot, seed=seed, level=level)
    estimate = float(total_a / total_b) if total_b != 0 else float("nan")
    return BootstrapResult(estimate, res.low, res.high, res.n_boot, res.replicates, level)


# --- break-even ----------------------------------------------------------------------------


def isotonic(y: np.ndarray, w: np.ndarray | None = None, *, increasing: bool = True) -> np.ndarray:
    """Weighted least-squares monotone fit (pool adjacent violators); y is 1-D."""
    y = np.asarray(y, dtype=np.float64)
    w = np.ones_like(y) if w is None else np.asarray(w, dtype=np.float64)
    if not increasing:
        return -isotonic(-y, w, increasing=True)
    means: list[float] = []
    weights: list[float] = []
    sizes: list[int] = []
    for value, weight in zip(y, w, strict=True):
        means.append(value)
        weights.append(weight)
        sizes.append(1)
        while len(means) > 1 and means[-2] > means[-1]:
            m2, w2, s2 = means.pop(), weights.pop(), sizes.pop()
            total = weights[-1] + w2
            means[-1] = (means[-1] * weights[-1] + m2 * w2) / total
            weights[-1] = total
            sizes[-1] += s2
    return np.repeat(means, sizes)


def trend_is_increasing(x: np.ndarray, y: np.ndarray) -> bool:
    """Sign of the least-squares slope of y on x (ties count as decreasing)."""
    xc = x - x.mean()
    return bool((xc * (y - y.mean())).sum() > 0)


def _crossing(x: np.ndarray, fit: np.ndarray) -> float:
    """Where a monotone piecewise-linear curve through (x, fit) is zero; +-inf if it stays on
    one side (the break-even lies beyond the prices tried)."""
    if np.all(fit > 0):
        return np.inf if fit[-1] <= fit[0] else -np.inf
    if np.all(fit < 0):
        return -np.inf if fit[-1] <= fit[0] else np.inf
    zero = np.flatnonzero(fit == 0)
    if zero.size:  # a flat stretch at zero: its middle
        return float((x[zero[0]] + x[zero[-1]]) / 2.0)
    sign = np.sign(fit)
    i = int(np.flatnonzero(sign[:-1] != sign[1:])[0])
    x0, x1, y0, y1 = x[i], x[i + 1], fit[i], fit[i + 1]
    return float(x0 + (x1 - x0) * y0 / (y0 - y1))


def break_even(x: Any, y: Any, w: Any = None, *, increasing: bool | None = None) -> float:
    """The x where y crosses zero (see the module doc). +inf/-inf: beyond the largest/smallest x
    in the direction the curve would cross; NaN for fewer than two points."""
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    ok = ~np.isnan(ys)
    xs, ys = xs[ok], ys[ok]
    ws = None if w is None else np.asarray(w, dtype=np.float64)[ok]
    if xs.size < 2:
        return float("nan")
    order = np.argsort(xs, kind="stable")
    xs, ys = xs[order], ys[order]
    ws = None if ws is None else ws[order]
    up = trend_is_increasing(xs, ys) if increasing is None else increasing
    return _crossing(xs, isotonic(ys, ws, increasing=up))


def _segment_hull(a: float, b: float, v: tuple[float, float, float], z: float):
    """Within one segment, t in [0, 1] where (a + (b - a) t)^2 <= z^2 var(t), var(t) =
    v0 (1 - t)^2 + 2 v01 t (1 - t) + v1 t^2: the smallest and largest such t, or None."""
    v0, v01, v1 = v
    dm = b - a
    qa = dm * dm - z * z * (v0 - 2 * v01 + v1)
    qb = 2 * a * dm - z * z * (2 * v01 - 2 * v0)
    qc = a * a - z * z * v0
    points = [0.0, 1.0]
    if qa != 0.0:
        disc = qb * qb - 4 * qa * qc
        if disc >= 0.0:
            root = math.sqrt(disc)
            points += [t for t in ((-qb - root) / (2 * qa), (-qb + root) / (2 * qa)) if 0 < t < 1]
    elif qb != 0.0 and 0 < -qc / qb < 1:
        points.append(-qc / qb)
    scale = abs(qa) + abs(qb) + abs(qc)
    inside = [t for t in points if qa * t * t + qb * t + qc <= 1e-12 * scale]
    return (min(inside), max(inside)) if inside else None


def break_even_interval(
    x: Any, per_game: Any, *, level: float = 0.95, increasing: bool | None = None
) -> tuple[float, float]:
    """The break-even's interval by inverting a paired z test (see the module doc).

    per_game: float[k, n] as for break_even_bootstrap (NaN = not observed; each segment uses
    the games observed at both of its prices). -inf / +inf: a crossing below the lowest / above
    the highest price cannot be excluded; when every tried price is shown on one side of zero
    the interval lies beyond the range, (highest, +inf) or (-inf, lowest)."""
    xs = np.asarray(x, dtype=np.float64)
    values = np.asarray(per_game, dtype=np.float64)
    order = np.argsort(xs, kind="stable")
    xs, values = xs[order], values[order]
    seen = (~np.isnan(values)).sum(axis=1) > 1
    xs, values = xs[seen], values[seen]
    if xs.size < 2:
        return float("nan"), float("nan")
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    pieces = []
    for i in range(xs.size - 1):
        pair = values[i : i + 2]
        pair = pair[:, ~np.isnan(pair).any(axis=0)]
        n = pair.shape[1]
        if n < 2:
            continue
        cov = np.cov(pair) / n
        hull = _segment_hull(*pair.mean(axis=1), (cov[0, 0], cov[0, 1], cov[1, 1]), z)
        if hull is not None:
            width = xs[i + 1] - xs[i]
            pieces += [xs[i] + hull[0] * width, xs[i] + hull[1] * width]
    if pieces:
        low, high = min(pieces), max(pieces)
        return (-math.inf if low <= xs[0] else low), (math.inf if high >= xs[-1] else high)
    means = np.nanmean(values, axis=1)
    up = trend_is_increasing(xs, means) if increasing is None else increasing
    above = (means[-1] > 0) != up  # falling and still positive, or rising and still negative
    return (float(xs[-1]), math.inf) if above else (-math.inf, float(xs[0]))


def break_even_fit_interval(
    x: Any, per_game: Any, *, degree: int = 3, level: float = 0.95, grid: int = 2001
) -> tuple[float, float]:
    """The break-even's interval by inverting a z test over a fitted curve (see the module
    doc): a polynomial of `degree` in the price, fitted by generalised least squares to the
    tried prices' means (their covariance from the games, which every price plays on the same
    seeds), and the prices in the tried range where the fitted curve is not shown to differ
    from zero: the run of them holding the fitted crossing. Open-ended (-inf / +inf) where that
    run reaches the edge of the range. With fewer than degree + 2 prices, or no fitted
    crossing inside the range, the straight-line interval (break_even_interval)."""
    xs = np.asarray(x, dtype=np.float64)
    values = np.asarray(per_game, dtype=np.float64)
    order = np.argsort(xs, kind="stable")
    xs, values = xs[order], values[order]
    values = values[:, ~np.isnan(values).any(axis=0)]  # the games every price played
    if xs.size < degree + 2 or values.shape[1] < xs.size + 2:
        return break_even_interval(xs, values, level=level)
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    centre, scale = xs.mean(), (xs[-1] - xs[0]) / 2.0
    design = np.vander((xs - centre) / scale, degree + 1, increasing=True)
    weight = np.linalg.pinv(np.cov(values) / values.shape[1])
    inverse = np.linalg.pinv(design.T @ weight @ design)
    beta = inverse @ design.T @ weight @ values.mean(axis=1)
    prices = np.linspace(xs[0], xs[-1], grid)
    at = np.vander((prices - centre) / scale, degree + 1, increasing=True)
    fit = at @ beta
    se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", at, inverse, at), 0.0))
    kept = np.abs(fit) <= z * se
    sign = np.sign(fit)
    crossings = np.flatnonzero((sign[:-1] != sign[1:]) | (fit[:-1] == 0.0))
    if crossings.size == 0:
        return break_even_interval(xs, values, level=level)
    low = high = int(crossings[np.argmin(np.abs(crossings - grid // 2))])
    while low > 0 and kept[low - 1]:
        low -= 1
    while high < grid - 1 and kept[high + 1]:
        high += 1
    return (-math.inf if low == 0 else float(prices[low]),
            math.inf if high == grid - 1 else float(prices[high]))  # fmt: skip


@dataclass(frozen=True)
class BreakEven:
    estimate: float
    low: float
    high: float
    below_share: float  # bootstrap replicates whose break-even lies below the smallest x
    above_share: float  # ... above the largest x
    increasing: bool
    n_boot: int
    level: float = 0.95


def break_even_bootstrap(
    x: Any,
    per_game: Any,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    max_units: int | None = MAX_UNITS,
) -> BreakEven:
    """Break-even of the mean curve x -> mean(per_game[i]), its interval
    (break_even_interval) and a paired percentile bootstrap's shares beyond the range.

    per_game: float[k, n], row i the per-game values at x[i] (NaN = not observed, ignored in
    the means). The curve's direction is fixed by the full data, so every replicate reads its
    crossing the same way.
    """
    xs = np.asarray(x, dtype=np.float64)
    values = np.asarray(per_game, dtype=np.float64)
    if values.ndim != 2 or values.shape[0] != xs.size:
        raise ValueError("per_game must be float[len(x), n]")
    order = np.argsort(xs, kind="stable")
    xs, values = xs[order], values[order]
    seen = ~np.isnan(values)
    filled = np.where(seen, values, 0.0)
    counts = seen.sum(axis=1)
    means = np.where(counts > 0, filled.sum(axis=1) / np.maximum(counts, 1), np.nan)
    up = trend_is_increasing(xs[counts > 0], means[counts > 0])
    estimate = break_even(xs, means, counts, increasing=up)
    low, high = break_even_interval(xs, values, level=level, increasing=up)
    filled = unit_sums(filled, max_units)  # games grouped into resampling units
    seen = unit_sums(seen.astype(np.int64), max_units)
    n = filled.shape[1]
    reps = []
    for idx in resample_blocks(n, n_boot, seed, chunk_cells=CHUNK_CELLS // max(xs.size, 1)):
        sums = filled[:, idx].sum(axis=2).T  # [b, k]
        cnt = seen[:, idx].sum(axis=2).T
        with np.errstate(invalid="ignore", divide="ignore"):
            curve = np.where(cnt > 0, sums / np.maximum(cnt, 1), np.nan)
        reps.extend(break_even(xs, c, k, increasing=up) for c, k in zip(curve, cnt, strict=True))
    r = np.array(reps)
    return BreakEven(
        estimate=estimate,
        low=low,
        high=high,
        below_share=float(np.mean(r == -np.inf)),
        above_share=float(np.mean(r == np.inf)),
        increasing=up,
        n_boot=n_boot,
        level=level,
    )
