"""Confidence intervals for rates and means.

Every function works on plain numbers and on numpy arrays (element-wise) and returns a pair
``(low, high)``. ``z`` is the two-sided normal quantile; 1.96 gives a 95% interval.

- ``wilson(successes, n)``: the Wilson score interval for a rate (raid rate, win share...).
  Unlike the plain normal interval it stays inside [0, 1] and behaves at 0 and n successes.
  ``successes`` may be fractional (a shared win counts 1/k), which the formula accepts as is.
- ``normal_interval(mean, sd, n)``: mean +- z * sd / sqrt(n).
- ``mean_interval(values)``: the normal interval of the mean of a sample (sd with ddof=1).
"""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

import numpy as np

Z95 = 1.959963984540054  # NormalDist().inv_cdf(0.975); 1.96 is the customary rounding


def z_for(level: float = 0.95) -> float:
    """The two-sided normal quantile for a confidence level in (0, 1), e.g. 0.95 -> 1.96."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must be in (0, 1), got {level}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def wilson(successes: Any, n: Any, z: float = 1.96) -> tuple[Any, Any]:
    """Wilson score interval (low, high) for ``successes`` out of ``n``.

    n = 0 gives (0, 1): nothing is known. Scalars in, floats out; arrays in, arrays out.
    """
    s = np.asarray(successes, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    if np.any(m < 0) or np.any(s < 0) or np.any(s > m):
        raise ValueError("need 0 <= successes <= n")
    known = m > 0
    safe_n = np.where(known, m, 1.0)
    p = s / safe_n
    z2 = z * z
    denom = 1.0 + z2 / safe_n
    centre = (p + z2 / (2.0 * safe_n)) / denom
    half = (z / denom) * np.sqrt(p * (1.0 - p) / safe_n + z2 / (4.0 * safe_n**2))
    # the interval holds p; at p = 0 or 1 rounding could put an end a hair past it
    low = np.where(known, np.clip(np.minimum(centre - half, p), 0.0, 1.0), 0.0)
    high = np.where(known, np.clip(np.maximum(centre + half, p), 0.0, 1.0), 1.0)
    return _out(low), _out(high)


def rate_width(successes: Any, n: Any, z: float = 1.96) -> Any:
    """Width (high - low) of the Wilson interval."""
    low, high = wilson(successes, n, z)
    return high - low


def normal_interval(mean: Any, sd: Any, n: Any, z: float = 1.96) -> tuple[Any, Any]:
    """mean +- z * sd / sqrt(n); n = 0 gives (-inf, inf)."""
    mu = np.asarray(mean, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    root_n = np.sqrt(np.where(m > 0, m, 1.0))
    half = np.where(m > 0, z * np.asarray(sd, dtype=np.float64) / root_n, np.inf)
    return _out(mu - half), _out(mu + half)


def mean_interval(values: Any, z: float = 1.96) -> tuple[float, float]:
    """Normal interval of the mean of a sample (at least 2 values; sd with ddof=1)."""
    x = np.asarray(values, dtype=np.float64).ravel()
    if x.size < 2:
        raise ValueError("need at least 2 values for an interval of the mean")
    return normal_interval(x.mean(), x.std(ddof=1), x.size, z)


def _out(a: np.ndarray) -> Any:
    return float(a) if a.ndim == 0 else a
