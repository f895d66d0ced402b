"""Differences between arms, with intervals and p-values.

- ``paired_difference(treatment, control)``: arms played on the same seeds (game i of every arm
  uses the same shuffle), so the per-game differences are compared with a paired t interval.
  Pairing removes the game-to-game noise both arms share, which makes the interval much
  narrower than comparing two independent samples.
- ``welch_difference(a, b)``: two independent samples (Welch's unequal-variance t).
- ``newcombe_difference(s1, n1, s2, n2)``: two independent rates, Newcombe's hybrid score
  interval (method 10 of Newcombe 1998), built from the two Wilson intervals.

Every function returns a ``Difference``: the estimate, its interval, the p-value of "no
difference", the sample size, a standardised effect size, and ``significant`` (the interval
excludes zero, which for these methods is the same as p < 1 - level).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.stats.intervals import wilson
from sim.stats.tests import normal_sf, t_ppf, t_sf, z_pvalue


@dataclass(frozen=True)
class Difference:
    estimate: float
    low: float
    high: float
    pvalue: float
    n: int
    effect_size: float  # estimate / sd of the data (paired: of the differences); nan if sd = 0
    method: str
    level: float = 0.95

    @property
    def significant(self) -> bool:
        return bool(self.pvalue < 1.0 - self.level)

    def as_dict(self, prefix: str = "") -> dict[str, Any]:
        return {
            f"{prefix}diff": self.estimate,
            f"{prefix}low": self.low,
            f"{prefix}high": self.high,
            f"{prefix}p": self.pvalue,
            f"{prefix}n": self.n,
            f"{prefix}effect_size": self.effect_size,
            f"{prefix}significant": self.significant,
        }


def _nan_difference(n: int, method: str, level: float) -> Difference:
    nan = float("nan")
    return Difference(nan, nan, nan, nan, n, nan, method, level)


def paired_difference(treatment: Any, control: Any, *, level: float = 0.95) -> Difference:
    """Mean of treatment - control over paired observations, with a t interval (as
    ``scipy.stats.ttest_rel``). NaN pairs are dropped."""
    d = np.asarray(treatment, dtype=np.float64) - np.asarray(control, dtype=np.float64)
    d = d[~np.isnan(d)]
    n = int(d.size)
    if n < 2:
        return _nan_difference(n, "paired t", level)
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    if sd == 0.0:
        p = 1.0 if mean == 0.0 else 0.0
        return Difference(mean, mean, mean, p, n, float("nan"), "paired t", level)
    se = sd / math.sqrt(n)
    t = mean / se
    crit = t_ppf(0.5 + level / 2.0, n - 1)
    p = min(1.0, 2.0 * t_sf(abs(t), n - 1))
    return Difference(mean, mean - crit * se, mean + crit * se, p, n, mean / sd, "paired t", level)


def welch_difference(a: Any, b: Any, *, level: float = 0.95) -> Difference:
    """mean(a) - mean(b) for independent samples, Welch's t (as ``ttest_ind(equal_var=False)``)."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    x, y = x[~np.isnan(x)], y[~np.isnan(y)]
    if x.size < 2 or y.size < 2:
        return _nan_difference(int(x.size + y.size), "Welch t", level)
    vx, vy = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    est = float(x.mean() - y.mean())
    se = math.sqrt(vx + vy)
    n = int(x.size + y.size)
    pooled_sd = math.sqrt((x.var(ddof=1) + y.var(ddof=1)) / 2.0)
    effect = est / pooled_sd if pooled_sd > 0 else float("nan")
    if se == 0.0:
        return Difference(est, est, est, 1.0 if est == 0 else 0.0, n, effect, "Welch t", level)
    df = (vx + vy) ** 2 / (vx**2 / (x.size - 1) + vy**2 / (y.size - 1))
    t = est / se
    crit = t_ppf(0.5 + level / 2.0, df)
    p = min(1.0, 2.0 * t_sf(abs(t), df))
    return Difference(est, est - crit * se, est + crit * se, p, n, effect, "Welch t", level)


def newcombe_difference(
    s1: float, n1: float, s2: float, n2: float, *, level: float = 0.95
) -> Difference:
    """Rate 1 - rate 2 for independent samples: Newcombe's hybrid score interval; the p-value is
    the two-sample z test with the pooled rate."""
    if n1 <= 0 or n2 <= 0:
        return _nan_difference(int(n1 + n2), "Newcombe score", level)
    z = t_ppf(0.5 + level / 2.0, math.inf)
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    est = p1 - p2
    low = est - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = est + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    pooled = (s1 + s2) / (n1 + n2)
    se0 = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
    if se0 == 0.0:
        pvalue = 1.0 if est == 0 else 0.0
    else:
        pvalue = z_pvalue(est / se0)
    sd = math.sqrt(pooled * (1.0 - pooled))
    effect = est / sd if sd > 0 else float("nan")
    return Difference(est, low, high, pvalue, int(n1 + n2), effect, "Newcombe score", level)


def one_sample(values: Any, reference: float = 0.0, *, level: float = 0.95) -> Difference:
    """mean(values) - reference with a t interval (a one-sample t test)."""
    x = np.asarray(values, dtype=np.float64)
    return paired_difference(x, np.full(x.shape, reference), level=level)


def rate_vs_reference(successes: float, n: float, reference: float, level: float = 0.95):
    """Rate - reference with the Wilson interval shifted by the reference and the score-test
    p-value (z = (p - p0) / sqrt(p0 (1 - p0) / n))."""
    z = t_ppf(0.5 + level / 2.0, math.inf)
    if n <= 0:
        return _nan_difference(0, "score test", level)
    low, high = wilson(successes, n, z)
    est = successes / n - reference
    if 0.0 < reference < 1.0:
        zstat = (successes / n - reference) / math.sqrt(reference * (1 - reference) / n)
        pvalue = min(1.0, 2.0 * normal_sf(abs(zstat)))
    else:
        pvalue = float("nan")
    return Difference(
        est, low - reference, high - reference, pvalue, int(n), float("nan"), "score test", level
    )
