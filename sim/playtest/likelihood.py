"""The likelihood of a group's records over the game's continuous skill, and its 95% interval.

Every fact of a game (who won from which seat, how it ended, its score, margin and length, any
column the records hold) is a category: a category of its own (a seat, an outcome) or the bin
a number falls in (bins at the quantiles of the simulated values). The lab's players play the
same games (common seeds) at every skill of a grid; per fact, the share of games in each
category at skill s is a multinomial logit whose log-odds are natural cubic splines in s
(knots at 0, 1/4, 1/2, 3/4, 1), fitted to every simulated game at once: a smooth curve per
category, its noise that of thousands of games rather than of the games at one skill. A game's
log-likelihood at s is the sum over its facts of log P_s(its category).

The facts of one game are not independent (a long game scores more), so their sum, a
composite likelihood, overstates what the records know. Its 95% interval is the one of the
adjusted composite likelihood (Chandler and Bate 2007): the curve scaled by k = H / J, H its
curvature at the estimate and J the variance of the games' score contributions (the sandwich:
each game one independent unit), so that the likelihood-ratio interval has the coverage of
the robust (sandwich) variance; k is at most 1 (never narrower than the plain composite
interval, which J's noise over a few dozen games could otherwise make it). The cut-off is
Student's t with games - 1 degrees of freedom (J is estimated from the games), widened by
1 + G/M, the share the simulated games' noise adds to the variance (G records, M simulated
games).

Discrete settings (Space Invaders' dexterity presets, the levels of a ladder without a
continuous knob) are candidates each with their own curve; the best is the estimate, and the
95% set is every candidate that a paired test over the games does not put below the best
(one-sided 5%: the mean log-likelihood per game, the best's minus its own, divided by its
standard error, at most 1.645). Everything here is plain numpy on arrays: nothing knows a game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from sim.stats.tests import t_ppf

KNOTS = np.array([0.0, 0.25, 0.5, 0.75, 1.0])  # the splines' knots on the knob
FINE = np.linspace(0.0, 1.0, 401)  # where the curves are read
LEVEL = 0.95
PSEUDO = 0.5  # counts added to each category, spread over the candidates (no share is 0)
RIDGE = 1e-4  # keeps a category never seen at a skill finite
ONE_SIDED = NormalDist().inv_cdf(LEVEL)  # 1.645: the paired test of a discrete candidate


def spline_basis(s: np.ndarray, knots: np.ndarray = KNOTS) -> np.ndarray:
    """The natural cubic spline basis at `s` (len(knots) columns: 1, s, and the truncated
    cubics; Hastie, Tibshirani and Friedman, eq. 5.4-5.5)."""
    s = np.asarray(s, float)[:, None]
    last, before = knots[-1], knots[-2]

    def d(k: float) -> np.ndarray:
        return (np.clip(s - k, 0, None) ** 3 - np.clip(s - last, 0, None) ** 3) / (last - k)

    cols = [np.ones_like(s), s] + [d(k) - d(before) for k in knots[:-2]]
    return np.hstack(cols)


def fit_shares(counts: np.ndarray, grid: np.ndarray, at: np.ndarray = FINE) -> np.ndarray:
    """log P_s(category) at the points `at` (len(at) x categories), from the simulated counts
    at the skills `grid` (len(grid) x categories): a multinomial logit in the spline basis,
    fitted by Newton's method with a small ridge."""
    counts = np.asarray(counts, float) + PSEUDO / len(grid)
    basis = spline_basis(grid)
    n_cat, n_par = counts.shape[1], basis.shape[1]
    beta = np.zeros((n_par, n_cat))
    totals = counts.sum(axis=1)
    eye = np.eye(n_par * n_cat) * RIDGE * totals.sum()
    for _ in range(50):
        p = _softmax(basis @ beta)
        grad = basis.T @ (counts - totals[:, None] * p) - RIDGE * totals.sum() * beta
        hess = np.zeros((n_par * n_cat, n_par * n_cat))
        for j in range(len(grid)):
            w = totals[j] * (np.diag(p[j]) - np.outer(p[j], p[j]))
            hess += np.kron(np.outer(basis[j], basis[j]), w)
        step = np.linalg.solve(hess + eye, grad.reshape(-1))
        beta += step.reshape(n_par, n_cat)
        if np.max(np.abs(step)) < 1e-8:
            break
    eta = spline_basis(at) @ beta
    return eta - _logsumexp(eta)


def plain_shares(counts: np.ndarray) -> np.ndarray:
    """log P(category) of each candidate (candidates x categories): its own shares, each
    category with its pseudo-count."""
    counts = np.asarray(counts, float) + PSEUDO / max(len(counts), 1)
    return np.log(counts / counts.sum(axis=1, keepdims=True))


def _softmax(eta: np.ndarray) -> np.ndarray:
    e = np.exp(eta - eta.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _logsumexp(eta: np.ndarray) -> np.ndarray:
    top = eta.max(axis=1, keepdims=True)
    return top + np.log(np.exp(eta - top).sum(axis=1, keepdims=True))


def game_loglik(logp: np.ndarray, categories: np.ndarray) -> np.ndarray:
    """Each game's log-likelihood contribution of one fact along the curve (games x points):
    `logp` is points x categories, `categories` the games' categories (-1: not recorded)."""
    known = categories >= 0
    out = np.zeros((len(categories), logp.shape[0]))
    out[known] = logp[:, categories[known]].T
    return out


@dataclass(frozen=True)
class Interval:
    """The fit: the best candidate and skill, the 95% interval of the skill (at the knob's
    ends when it reaches them) and the candidates in the 95% set, with what it rests on."""

    candidate: int  # the best discrete candidate
    estimate: float  # the skill (FINE's point; 0 without a continuous knob)
    low: float
    high: float
    candidates: tuple[int, ...]  # the discrete candidates not shown worse than the best
    games: int
    adjustment: float  # k = H / J (1 when the curve is flat at the estimate)
    cutoff: float  # the drop of the adjusted log-likelihood that bounds the interval
    curve: np.ndarray  # the profile log-likelihood along FINE (or per candidate), adjusted


def fit_interval(loglik: np.ndarray, *, simulated: float, knob: bool = True) -> Interval:
    """The estimate and 95% interval from the games' log-likelihoods, an array games x
    candidates x points (points: FINE along the knob, or 1 without one); `simulated` is G/M,
    the records' games over the simulated games they were compared with."""
    games = loglik.shape[0]
    total = loglik.sum(axis=0)  # candidates x points
    best, point = np.unravel_index(int(np.argmax(total)), total.shape)
    candidates = _candidate_set(loglik, total, int(best))
    if not knob or loglik.shape[2] == 1:
        return Interval(int(best), 0.0, 0.0, 0.0, candidates, games, 1.0, 0.0, total[:, 0])
    k = _adjustment(loglik[:, best, :], total[best], int(point))
    df = max(games - 1, 1)
    cutoff = 0.5 * t_ppf(0.5 + LEVEL / 2, df) ** 2 * (1.0 + simulated)
    profile = k * total[list(candidates)].max(axis=0)
    low, high = _crossings(profile, int(point), cutoff)
    return Interval(int(best), float(FINE[point]), low, high, candidates, games, k, cutoff, profile)


def _candidate_set(loglik: np.ndarray, total: np.ndarray, best: int) -> tuple[int, ...]:
    """Every candidate whose best point the paired test over the games does not put below the
    best candidate's best point."""
    at = total.argmax(axis=1)  # each candidate's best point
    top = loglik[:, best, at[best]]
    keep = []
    for c in range(loglik.shape[1]):
        diff = top - loglik[:, c, at[c]]
        sd = float(diff.std(ddof=1)) if len(diff) > 1 else 0.0
        mean = float(diff.mean())
        if c == best or mean <= 0 or (sd > 0 and mean / (sd / math.sqrt(len(diff))) <= ONE_SIDED):
            keep.append(c)
    return tuple(keep)


def _adjustment(games: np.ndarray, total: np.ndarray, point: int) -> float:
    """k = H / J at `point`: H the curvature of the total, J the variance of the games'
    slopes (centred, so that it holds at a knob's end too); 1 when the curve is flat."""
    step = FINE[1] - FINE[0]
    i = min(max(point, 1), len(FINE) - 2)
    slopes = (games[:, i + 1] - games[:, i - 1]) / (2 * step)
    curvature = -(total[i + 1] - 2 * total[i] + total[i - 1]) / step**2
    n = len(slopes)
    spread = float(((slopes - slopes.mean()) ** 2).sum() * n / max(n - 1, 1))
    if curvature <= 0 or spread <= 0:
        return 1.0
    # at most 1: facts told apart more sharply than if independent would narrow the interval
    # on J's own noise (a game-to-game variance from a few dozen games); never trusted
    return float(min(curvature / spread, 1.0))


def _crossings(curve: np.ndarray, point: int, cutoff: float) -> tuple[float, float]:
    """The lowest and highest skills where the curve lies within `cutoff` of its top (linear
    between FINE's points; the knob's end when it does not fall below there). The set may
    have gaps (two discrete settings each explaining the records at its own skill): its
    hull is the interval."""
    floor = curve[point] - cutoff
    inside = np.flatnonzero(curve >= floor)
    ends = []
    for i, j in ((inside[0], inside[0] - 1), (inside[-1], inside[-1] + 1)):
        if not 0 <= j < len(curve):
            ends.append(float(FINE[i]))
            continue
        t = (curve[i] - floor) / (curve[i] - curve[j])
        ends.append(float(FINE[i] + t * (FINE[j] - FINE[i])))
    return min(ends), max(ends)
