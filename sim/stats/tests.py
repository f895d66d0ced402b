"""Hypothesis tests and the distributions behind them, in numpy and the standard library only
(scipy is a test-only dependency; tests/test_stats.py checks these against it).

- ``chi2_sf(x, df)``, ``t_sf(t, df)``, ``t_ppf(q, df)``, ``normal_sf(z)``: tail areas and
  quantiles (regularised incomplete gamma and beta functions, Numerical Recipes style).
- ``binom_test(k, n, p)``: the exact two-sided binomial test, same convention as
  ``scipy.stats.binomtest`` (add up every outcome no likelier than the observed one).
- ``chisquare(observed, expected)``: Pearson's goodness of fit, as ``scipy.stats.chisquare``.
- ``multinomial_exact(observed, probs)``: the exact multinomial goodness-of-fit test, for the
  small samples where the chi-square approximation is poor.
- ``fairness_test(counts, probs)``: the chi-square test, or the exact test when an expected
  count is below 5 (the usual rule of thumb); returns which one it ran.
- ``holm(pvalues)``: Holm's step-down adjustment for many comparisons at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 10_000
_ND = NormalDist()


# --- special functions ---------------------------------------------------------------------


def _gamma_series(a: float, x: float) -> float:
    """Regularised lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _lentz_step(d: float, c: float, a: float, b: float) -> tuple[float, float]:
    """One term a / (b + ...) of a continued fraction by the modified Lentz method: the next
    1/D and C, each kept away from zero."""
    d = a * d + b
    d = _TINY if abs(d) < _TINY else d
    c = b + a / c
    c = _TINY if abs(c) < _TINY else c
    return 1.0 / d, c


def _gamma_fraction(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x) by its continued fraction (x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d, c = _lentz_step(d, c, an, b)
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    if a <= 0:
        raise ValueError("need a > 0")
    if x <= 0:
        return 1.0
    if x < a + 1.0:
        return 1.0 - _gamma_series(a, x)
    return _gamma_fraction(a, x)


def chi2_sf(x: float, df: float) -> float:
    """P(X >= x) for a chi-square variable with df degrees of freedom."""
    if df <= 0:
        raise ValueError("need df > 0")
    return gamma_q(df / 2.0, x / 2.0)


def _beta_fraction(a: float, b: float, x: float) -> float:
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = _TINY if abs(d) < _TINY else d
    d = 1.0 / d
    h = d
    for m in range(1, _MAX_ITER):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d, c = _lentz_step(d, c, aa, 1.0)
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d, c = _lentz_step(d, c, aa, 1.0)
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h


def beta_inc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z (accurate in the far tail)."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def t_sf(t: float, df: float) -> float:
    """P(T >= t) for Student's t with df degrees of freedom."""
    if df <= 0:
        raise ValueError("need df > 0")
    if math.isinf(df):
        return normal_sf(t)
    tail = 0.5 * beta_inc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_ppf(q: float, df: float) -> float:
    """The q-quantile of Student's t (bisection on t_sf; exact to ~1e-12)."""
    if not 0.0 < q < 1.0:
        raise ValueError("need 0 < q < 1")
    if math.isinf(df) or df > 1e7:
        return _ND.inv_cdf(q)
    if q < 0.5:
        return -t_ppf(1.0 - q, df)
    lo, hi = 0.0, max(1.0, 2.0 * _ND.inv_cdf(q))
    while 1.0 - t_sf(hi, df) < q:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if 1.0 - t_sf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


# --- tests ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TestResult:
    """The outcome of a goodness-of-fit test: statistic (None for exact tests), p-value,
    degrees of freedom and the method's name, for the report's footnotes."""

    __test__ = False  # not a pytest test class, despite the name

    statistic: float | None
    pvalue: float
    df: int | None
    method: str


def _log_binom_pmf(k: np.ndarray, n: int, p: float) -> np.ndarray:
    k = np.asarray(k, dtype=np.float64)
    if p == 0.0:
        return np.where(k == 0, 0.0, -np.inf)
    if p == 1.0:
        return np.where(k == n, 0.0, -np.inf)
    lg = np.vectorize(math.lgamma, otypes=[np.float64])
    return lg(n + 1.0) - lg(k + 1.0) - lg(n - k + 1.0) + k * math.log(p) + (n - k) * math.log1p(-p)


def binom_test(k: int, n: int, p: float = 0.5) -> float:
    """Exact two-sided binomial test of k successes out of n against rate p: the probability
    of every outcome no likelier than k (relative tolerance 1e-7, as scipy.stats.binomtest)."""
    k, n = int(k), int(n)
    if n < 1 or not 0 <= k <= n:
        raise ValueError("need n >= 1 and 0 <= k <= n")
    if not 0.0 <= p <= 1.0:
        raise ValueError("need 0 <= p <= 1")
    if p * n == k:
        return 1.0
    logs = _log_binom_pmf(np.arange(n + 1), n, p)
    threshold = logs[k] + math.log1p(1e-7)
    return float(min(1.0, np.exp(logs[logs <= threshold]).sum()))


def chisquare(observed: Any, expected: Any = None) -> TestResult:
    """Pearson's chi-square goodness of fit (df = cells - 1). Without `expected`, all cells are
    expected equal. Counts may be fractional (a shared win counts 1/k)."""
    obs = np.asarray(observed, dtype=np.float64)
    if obs.ndim != 1 or obs.size < 2:
        raise ValueError("need at least two cells")
    exp = (
        np.full_like(obs, obs.sum() / obs.size) if expected is None else np.asarray(expected, float)
    )
    if exp.shape != obs.shape:
        raise ValueError("observed and expected differ in shape")
    if np.any(exp <= 0):
        raise ValueError("every expected count must be positive")
    stat = float(((obs - exp) ** 2 / exp).sum())
    df = obs.size - 1
    return TestResult(stat, chi2_sf(stat, df), df, "chi-square")


def _compositions(n: int, cells: int) -> np.ndarray:
    """int[M, cells]: every way to put n balls into ordered cells (M = C(n+cells-1, cells-1))."""
    if cells == 1:
        return np.array([[n]], dtype=np.int64)
    parts = []
    for first in range(n + 1):
        rest = _compositions(n - first, cells - 1)
        parts.append(np.column_stack([np.full(len(rest), first, np.int64), rest]))
    return np.concatenate(parts)


def multinomial_exact(observed: Any, probs: Any, *, max_outcomes: int = 2_000_000) -> TestResult:
    """Exact multinomial goodness-of-fit test: the total probability of every outcome no likelier
    than the observed counts (rounded to integers). Refuses samples with more than
    `max_outcomes` possible outcomes (use the chi-square test there)."""
    obs = np.rint(np.asarray(observed, dtype=np.float64)).astype(np.int64)
    pr = np.asarray(probs, dtype=np.float64)
    pr = pr / pr.sum()
    n, cells = int(obs.sum()), obs.size
    if math.comb(n + cells - 1, cells - 1) > max_outcomes:
        raise ValueError(f"too many outcomes for the exact test (n={n}, {cells} cells)")
    outcomes = _compositions(n, cells)
    lg = np.vectorize(math.lgamma, otypes=[np.float64])
    with np.errstate(divide="ignore"):
        log_pr = np.log(pr)
    terms = np.where(outcomes > 0, outcomes * log_pr, 0.0)
    logs = math.lgamma(n + 1.0) - lg(outcomes + 1.0).sum(axis=1) + terms.sum(axis=1)
    observed_log = (
        math.lgamma(n + 1.0) - lg(obs + 1.0).sum() + np.where(obs > 0, obs * log_pr, 0).sum()
    )
    pvalue = float(min(1.0, np.exp(logs[logs <= observed_log + math.log1p(1e-7)]).sum()))
    return TestResult(None, pvalue, None, "exact multinomial")


def fairness_test(counts: Any, probs: Any = None) -> TestResult:
    """Do the counts fit the probabilities (equal if omitted)? Chi-square when every expected
    count is at least 5, else the exact multinomial test (chi-square if even that is too big)."""
    obs = np.asarray(counts, dtype=np.float64)
    pr = np.full(obs.size, 1.0 / obs.size) if probs is None else np.asarray(probs, float)
    pr = pr / pr.sum()
    total = obs.sum()
    if total <= 0:
        return TestResult(None, float("nan"), None, "no data")
    expected = total * pr
    if np.all(expected >= 5):
        return chisquare(obs, expected)
    try:
        return multinomial_exact(obs, pr)
    except ValueError:
        return chisquare(obs, expected)


def holm(pvalues: Any) -> np.ndarray:
    """Holm-adjusted p-values (family-wise error control; NaN stays NaN)."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full_like(p, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    if ok.size == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    m = order.size
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out[order] = adjusted
    return out


def z_pvalue(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return min(1.0, 2.0 * normal_sf(abs(z)))
