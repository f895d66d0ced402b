"""Where the optimum lies: a model fitted to every candidate the tune played, bootstrapped over
games, giving the recommendation (the model's best setting, not the best noisy trial), an
interval on each numeric knob's optimum, the region of settings that would do as well, and
near-optimal alternatives far apart in the knobs.

The model. Each target's measure at each place (arm and skill level) is a smooth function of
the knobs: a quadratic in the numeric knobs (each scaled to [0, 1] over its range; the
choices of a list knob as additive shifts), fitted by weighted least squares to the
candidates near the best confirmed one, each weighted by its games and by a tricube kernel
of its distance (the neighbourhood holds the NEIGHBOURS_PER_TERM x terms nearest distinct
candidates; a local fit, so that a curve that bends far from the optimum does not pull it).
Its score at a setting is the tune's own (sim/tune/targets.py): the sum of the squared
misses of the objectives, a miss being the distance from the band in tolerances.

The bootstrap over games. Every candidate played games 0..n-1 of the same seeds (common
random numbers), so their errors are correlated: a lucky stretch of games lifts every
candidate's measure alike. Each replicate draws one weight per block of consecutive games
(Exp(1): the Bayesian bootstrap) and gives it to that block in every candidate, which keeps
the correlation; each candidate's measure is re-read as a weighted ratio of its per-game
sums, the model refitted, its best setting found. Two intervals per numeric knob come of
the replicates: where the optimum lies, the model's least score sought between the grid's
values too (a lattice REFINE times finer, one step around each refit's best setting), its
2.5% and 97.5% points; and the settings that hold it, the 2.5% point of the replicates' best
settings and the 97.5% point rounded outward to the grid (a flat optimum, several settings
tied, counts from its lowest to its highest in both). On a grid the second covers more than
95% (the best setting alone is right most of the time) and the first about 95%
(tests/test_tune_region.py measures both); the region holds the settings whose targets the
model predicts met (the prediction's interval inside the band widened by the tolerance, as
the confirmation's verdict reads a measurement) or whose score is not distinguishable from
the best's (the interval of the paired score difference reaches 0).

The check against the confirmation: at each confirmed candidate, the replicates' interval of
the difference between the model's prediction and the confirmation's own measurement (both
read from the same weighted games) must reach within half a tolerance of 0; where it does
not, the model misses what the confirmation measured there by more than a designer would
let pass, and the interval is not to be trusted (the report says so). A smaller misfit,
which common random numbers make visible, moves the optimum by less than the grid's step.

Pure numpy on plain arrays: sim/tune/model_data.py reads the candidates' games; tests plant
an optimum and measure the interval's coverage (tests/test_tune_region.py).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.tune.knobs import Knob

REPLICATES = 400
LEVEL = 0.95
NEIGHBOURS_PER_TERM = 2  # candidates in the neighbourhood per coefficient of the model
MIN_NEIGHBOURS = 8
CONTINUOUS_POINTS = 41  # a knob without a step is searched on this many values
MAX_SETTINGS = 250_000  # settings the model is evaluated at (the neighbourhood's grid)
CHUNK = 20  # replicates evaluated at once
TIE = 1e-9  # scores this close to the least are the same optimum
MISFIT = 0.5  # the model misses the confirmation when it is off by more than this many tolerances
REFINE = 10  # where the optimum lies: a lattice this many times finer than the knobs' grid
MAX_LATTICE = 20_000  # its points around one refit's best setting, at most


@dataclass(frozen=True)
class Objective:
    """One target at one place, as the model reads it: per-game sums make its value (a ratio
    sum(x) / sum(w), or a difference of two ratios), a band and a tolerance."""

    target: int
    place: str
    low: float
    high: float
    tolerance: float
    combine: str = "worst"  # worst: one objective per target (its places' largest miss)


@dataclass
class Played:
    """One candidate's games: its knob values, the games per arm it played, and per objective
    the block sums of its per-game columns, float[columns, blocks] (2 columns for a ratio: x,
    w; 4 for a difference of ratios: x1, w1, x0, w0), blocks of `block` consecutive games."""

    values: dict[str, Any]
    games: int
    sums: list[np.ndarray]


@dataclass
class Located:
    """What `locate` found (every value in knob units; settings as {knob: value})."""

    best: dict[str, Any]
    score: float  # the model's score there
    intervals: dict[str, tuple[float, float]]  # numeric knob -> the settings that hold the optimum
    region: list[dict[str, Any]]  # settings that would do as well (met or not distinguishable)
    region_met: int  # how many of them the model predicts met at every target
    alternatives: list[dict[str, Any]]
    checks: list[dict[str, Any]] = field(default_factory=list)  # one per confirmed place
    neighbourhood: int = 0  # candidates the model was fitted to
    terms: int = 0
    settings: int = 0  # settings evaluated
    optimum: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    # numeric knob -> where the optimum lies between the grid's values: estimate, low, high

    @property
    def agrees(self) -> bool:
        """Whether the model's predictions reach every confirmed measurement."""
        return all(c["agrees"] for c in self.checks)


def block_size(games: Sequence[int], *, min_blocks: int = 200, max_blocks: int = 5000) -> int:
    """Games per bootstrap block: a divisor of every candidate's games, small enough that the
    fewest games hold min_blocks blocks, and as large as allowed below that (so the most
    games hold at most max_blocks, where possible)."""
    common = 0
    for n in games:
        common = math.gcd(common, int(n))
    if common == 0 or min(games) < min_blocks:
        return 1
    fits = [d for d in range(1, common + 1) if common % d == 0 and min(games) // d >= min_blocks]
    wanted = [d for d in fits if max(games) // d <= max_blocks]
    return max(wanted) if wanted else max(fits)


def block_sums(columns: np.ndarray, games: int, block: int) -> np.ndarray:
    """float[columns, games] (zeros where a game counts nothing) -> float[columns, blocks]."""
    n = games // block * block
    return columns[:, :n].reshape(columns.shape[0], -1, block).sum(axis=2)


def locate(knobs: Sequence[Knob], objectives: Sequence[Objective], played: Sequence[Played], *,
           centre: Mapping[str, Any], confirmed: Sequence[int] = (), prefer: Mapping[str, Any]
           | None = None, alternatives: int = 2, replicates: int = REPLICATES, seed: int = 0,
           level: float = LEVEL) -> Located | None:  # fmt: skip
    """Fit the model around `centre` (the best confirmed candidate) and bootstrap it (see the
    module doc). `confirmed`: indices into `played` of the confirmed candidates, checked
    against the model; `prefer`: among tied best settings, the one nearest these values (the
    printed rules). None when too few candidates lie near the centre to fit any model."""
    space = _Space(knobs)
    x = np.array([space.coords(p.values) for p in played])
    near, weights, terms = _neighbourhood(space, x, space.coords(centre),
                                          np.array([p.games for p in played], float))  # fmt: skip
    if near is None:
        return None
    grid, grid_x = space.grid(space.coords(centre), weights.radius)
    rng = np.random.default_rng(seed)
    blocks = max(s.shape[1] for p in played for s in p.sums)
    draws = np.vstack([np.ones((1, blocks)), rng.exponential(1.0, (replicates, blocks))])
    values = _measured(played, draws)  # [replicates + 1, candidates, objectives]
    fit = _Fit(space, x[near], weights.w, terms)
    low_of, high_of, fine_low, fine_high, predicted, scores_vs = [], [], [], [], [], []
    anchor, score_0 = 0, np.zeros(0)
    lattice = space.lattice()
    for start in range(0, draws.shape[0], CHUNK):
        chunk = values[start : start + CHUNK][:, near]
        pred = fit.predict(chunk, grid_x)  # [r, settings, objectives]
        score = _score(pred, objectives)  # [r, settings]
        if start == 0:
            score_0 = score[0]
            anchor = _pick(score[0], grid, space, prefer)
        least = score.min(axis=1, keepdims=True)
        tied = score <= least + TIE
        for r in range(score.shape[0]):
            where = grid_x[tied[r]]
            low_of.append(where.min(axis=0))
            high_of.append(where.max(axis=0))
            if len(where) > 1:  # a flat optimum: its tied settings say where it lies
                fine_low.append(low_of[-1][: len(space.numeric)])
                fine_high.append(high_of[-1][: len(space.numeric)])
            else:
                lo, hi = _between(fit, chunk[r], where[0], lattice, objectives)
                fine_low.append(lo)
                fine_high.append(hi)
        predicted.append(pred)
        scores_vs.append(score - score[:, [anchor]])
    pred_all = np.concatenate(predicted)[1:]  # the replicates alone
    diff = np.concatenate(scores_vs)[1:]
    intervals = space.intervals(np.array(low_of[1:]), np.array(high_of[1:]), level)
    optimum = space.optimum(np.array(fine_low), np.array(fine_high), level)
    met = _met(pred_all, objectives, level)
    close = np.quantile(diff, (1 - level) / 2, axis=0) <= TIE
    inside = np.flatnonzero(met | close)
    region = [grid[i] for i in inside]
    alts = _far_apart(space, grid_x[inside], [grid[i] for i in inside], grid_x[anchor],
                      alternatives)  # fmt: skip
    checks = _checks(fit, values, near, confirmed, played, x, objectives, level)
    return Located(best=grid[anchor], score=float(score_0[anchor]), intervals=intervals,
                   region=region, region_met=int(met.sum()), alternatives=alts, checks=checks,
                   neighbourhood=int(near.size), terms=fit.terms, settings=len(grid),
                   optimum=optimum)  # fmt: skip


# --- the knobs' space ----------------------------------------------------------------------


class _Space:
    """Numeric knobs scaled to [0, 1] over their range; list knobs as choices."""

    def __init__(self, knobs: Sequence[Knob]) -> None:
        self.knobs = list(knobs)
        self.numeric = [k for k in knobs if k.numeric]
        self.choice = [k for k in knobs if not k.numeric]

    def coords(self, values: Mapping[str, Any]) -> np.ndarray:
        """Scaled numeric coordinates, then each list knob's choice index."""
        out = [(float(values[k.name]) - k.low) / (k.high - k.low) for k in self.numeric]
        out += [float(k.choices.index(values[k.name])) for k in self.choice]
        return np.array(out)

    def distance(self, x: np.ndarray, centre: np.ndarray) -> np.ndarray:
        k = len(self.numeric)
        return np.sqrt(((x[..., :k] - centre[:k]) ** 2).sum(axis=-1))

    def axis(self, knob: Knob, centre: float, radius: float) -> list[Any]:
        values = knob.grid()
        if values is None:
            values = [float(v) for v in np.linspace(knob.low, knob.high, CONTINUOUS_POINTS)]
        scaled = [(float(v) - knob.low) / (knob.high - knob.low) for v in values]
        return [v for v, s in zip(values, scaled, strict=True) if abs(s - centre) <= radius + 1e-9]

    def grid(self, centre: np.ndarray, radius: float) -> tuple[list[dict[str, Any]], np.ndarray]:
        """Every setting within `radius` of the centre (in the numeric knobs; every choice)."""
        axes = [self.axis(k, centre[i], radius) for i, k in enumerate(self.numeric)]
        axes += [list(k.choices) for k in self.choice]
        size = math.prod(len(a) for a in axes)
        if size > MAX_SETTINGS:  # thin the numeric axes evenly
            keep = (MAX_SETTINGS / size) ** (1 / max(len(self.numeric), 1))
            axes[: len(self.numeric)] = [a[:: max(1, round(1 / keep))] for a in
                                         axes[: len(self.numeric)]]  # fmt: skip
        names = [k.name for k in self.numeric + self.choice]
        settings = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*axes)]
        x = np.array([self.coords(s) for s in settings])
        inside = self.distance(x, centre) <= radius + 1e-9
        return [s for s, keep in zip(settings, inside, strict=True) if keep], x[inside]

    def lattice(self) -> np.ndarray:
        """Offsets (scaled) of a lattice REFINE times finer than each numeric knob's grid, one
        step either way (coarser where the knobs are many, at most MAX_LATTICE points)."""
        k = len(self.numeric)
        if k == 0:
            return np.zeros((1, 0))
        per_axis = min(2 * REFINE + 1, max(3, int(MAX_LATTICE ** (1 / k))) // 2 * 2 + 1)
        axes = [np.linspace(-1, 1, per_axis) * self.step(knob) for knob in self.numeric]
        return np.array(list(itertools.product(*axes)))

    def step(self, knob: Knob) -> float:
        """A numeric knob's grid step, scaled to its range."""
        values = knob.grid()
        if values is None:
            return 1 / (CONTINUOUS_POINTS - 1)
        return (values[1] - values[0]) / (knob.high - knob.low) if len(values) > 1 else 0.0

    def optimum(self, lows: np.ndarray, highs: np.ndarray, level: float
                ) -> dict[str, tuple[float, float, float]]:  # fmt: skip
        """Per numeric knob: where the optimum lies between the grid's values, from each
        draw's lowest and highest least-score point (the first draw the estimate, the others
        the replicates): the estimate, the 2.5% point of the lows, the 97.5% of the highs."""
        alpha = (1 - level) / 2
        out = {}
        for i, k in enumerate(self.numeric):
            span = k.high - k.low
            est = k.low + span * (lows[0, i] + highs[0, i]) / 2
            lo = k.low + span * float(np.quantile(lows[1:, i], alpha))
            hi = k.low + span * float(np.quantile(highs[1:, i], 1 - alpha))
            out[k.name] = (float(est), lo, hi)
        return out

    def intervals(self, lows: np.ndarray, highs: np.ndarray, level: float
                  ) -> dict[str, tuple[float, float]]:  # fmt: skip
        alpha = (1 - level) / 2
        out = {}
        for i, k in enumerate(self.numeric):
            lo = float(np.quantile(lows[:, i], alpha, method="lower"))
            hi = float(np.quantile(highs[:, i], 1 - alpha, method="higher"))
            out[k.name] = (k.low + lo * (k.high - k.low), k.low + hi * (k.high - k.low))
        return out


@dataclass(frozen=True)
class _Weights:
    w: np.ndarray
    radius: float


def _terms(numeric: int, choices: Sequence[int], degree: int) -> int:
    quad = numeric * (numeric + 1) // 2 if degree == 2 else 0
    return 1 + numeric + quad + sum(c - 1 for c in choices)


def _neighbourhood(space: _Space, x: np.ndarray, centre: np.ndarray, games: np.ndarray):
    """(indices of the candidates fitted, their weights and radius, the model's degree): the
    nearest distinct candidates, NEIGHBOURS_PER_TERM per term of a quadratic (a linear model
    when too few), tricube-weighted by distance and weighted by games."""
    k = len(space.numeric)
    choices = [len(c.choices) for c in space.choice]
    distinct = len({tuple(r) for r in x})
    for degree in (2, 1):
        wanted = max(MIN_NEIGHBOURS, NEIGHBOURS_PER_TERM * _terms(k, choices, degree))
        if distinct >= min(wanted, _terms(k, choices, degree) + 2) and distinct > 2:
            break
    else:
        return None, None, 0
    d = space.distance(x, centre)
    order = np.argsort(d, kind="stable")
    seen: list[tuple] = []
    radius = 0.0
    for i in order:
        key = tuple(x[i])
        if key not in seen:
            seen.append(key)
            radius = float(d[i])
        if len(seen) >= wanted:
            break
    radius = max(radius * 1.05, 1e-6) if k else 1.0
    near = np.flatnonzero(d <= radius)
    kernel = (1 - (d[near] / radius) ** 3) ** 3 if k else np.ones(near.size)
    return near, _Weights(games[near] * np.maximum(kernel, 0.05), radius), degree


class _Fit:
    """Weighted least squares on fixed features and weights: a linear smoother, the same for
    every replicate."""

    def __init__(self, space: _Space, x: np.ndarray, w: np.ndarray, degree: int) -> None:
        self.space, self.degree = space, degree
        self.centre = (x[:, : len(space.numeric)] * w[:, None]).sum(axis=0) / w.sum()
        f = self.features(x)
        fw = f * w[:, None]
        self.hat = np.linalg.pinv(f.T @ fw) @ fw.T  # [terms, candidates]
        self.terms = f.shape[1]

    def features(self, x: np.ndarray) -> np.ndarray:
        k = len(self.space.numeric)
        z = x[:, :k] - self.centre
        cols = [np.ones(x.shape[0])] + [z[:, i] for i in range(k)]
        if self.degree == 2:
            cols += [z[:, i] * z[:, j] for i in range(k) for j in range(i, k)]
        for c, knob in enumerate(self.space.choice):
            index = x[:, k + c]
            cols += [(index == j).astype(float) for j in range(1, len(knob.choices))]
        return np.column_stack(cols)

    def predict(self, values: np.ndarray, at: np.ndarray) -> np.ndarray:
        """values [r, candidates, objectives] -> predictions [r, settings, objectives]."""
        coef = np.einsum("tc,rco->rto", self.hat, values)
        return np.einsum("st,rto->rso", self.features(at), coef)


def optimum_digits(knob: Knob) -> int:
    """Decimals that show where the optimum lies to the lattice's step (a tenth of the knob's
    step: 13.5 for a price in whole numbers, 121,500 for one in steps of 5,000)."""
    step = _Space([knob]).step(knob) * (knob.high - knob.low) / REFINE
    return max(0, -math.floor(math.log10(step))) if step > 0 else 0


def _between(fit: _Fit, values: np.ndarray, at: np.ndarray, lattice: np.ndarray,
             objectives: Sequence[Objective]) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """One draw's least score between the grid's values: the model (its measures `values`,
    [candidates, objectives]) on the lattice around the grid setting `at`, inside the knobs'
    ranges; the lowest and highest numeric coordinates of its tied least points."""
    k = lattice.shape[1]
    x = np.repeat(at[None, :], len(lattice), axis=0)
    x[:, :k] = np.clip(at[:k] + lattice, 0.0, 1.0)
    score = _score(fit.predict(values[None], x)[0], objectives)
    tied = x[score <= score.min() + TIE, :k]
    return tied.min(axis=0), tied.max(axis=0)


# --- the measures, re-read under each replicate's weights -----------------------------------


def _measured(played: Sequence[Played], draws: np.ndarray) -> np.ndarray:
    """[draws, candidates, objectives]: each candidate's measures under each draw's block
    weights (the first draw all ones: the measures as played)."""
    out = np.full((draws.shape[0], len(played), len(played[0].sums)), np.nan)
    for c, p in enumerate(played):
        for j, sums in enumerate(p.sums):
            weighted = draws[:, : sums.shape[1]] @ sums.T  # [draws, columns]
            with np.errstate(divide="ignore", invalid="ignore"):
                if sums.shape[0] == 2:
                    out[:, c, j] = weighted[:, 0] / weighted[:, 1]
                else:
                    out[:, c, j] = weighted[:, 0] / weighted[:, 1] - weighted[:, 2] / weighted[:, 3]
    return out


def misses(values: np.ndarray, objectives: Sequence[Objective]) -> np.ndarray:
    """[..., objectives] values -> [..., objectives] misses in tolerances (0 inside the band)."""
    low = np.array([o.low for o in objectives])
    high = np.array([o.high for o in objectives])
    tol = np.array([o.tolerance for o in objectives])
    return np.maximum(np.maximum(low - values, values - high), 0.0) / tol


def _score(values: np.ndarray, objectives: Sequence[Objective]) -> np.ndarray:
    """The tune's score: a 'worst' target's largest miss over its places, an 'each' target's
    every miss, squared and summed."""
    miss = np.nan_to_num(misses(values, objectives), nan=1e6)
    total = np.zeros(values.shape[:-1])
    targets = dict.fromkeys(o.target for o in objectives)
    for t in targets:
        mine = [j for j, o in enumerate(objectives) if o.target == t]
        if objectives[mine[0]].combine == "worst":
            total += miss[..., mine].max(axis=-1) ** 2
        else:
            total += (miss[..., mine] ** 2).sum(axis=-1)
    return total


def _met(pred: np.ndarray, objectives: Sequence[Objective], level: float) -> np.ndarray:
    """Per setting: every objective's prediction interval inside its band widened by the
    tolerance (the confirmation's 'met', read off the model)."""
    alpha = (1 - level) / 2
    lo, hi = np.quantile(pred, [alpha, 1 - alpha], axis=0)  # [settings, objectives]
    low = np.array([o.low - o.tolerance for o in objectives])
    high = np.array([o.high + o.tolerance for o in objectives])
    return ((lo >= low) & (hi <= high)).all(axis=1)


def _pick(score: np.ndarray, grid: list[dict], space: _Space,
          prefer: Mapping[str, Any] | None) -> int:  # fmt: skip
    """The least score; among ties, the setting nearest `prefer` (else the first)."""
    tied = np.flatnonzero(score <= score.min() + TIE)
    if prefer is None or tied.size == 1:
        return int(tied[0])
    try:
        target = space.coords(prefer)
    except (KeyError, ValueError, TypeError):
        return int(tied[0])
    x = np.array([space.coords(grid[i]) for i in tied])
    return int(tied[np.argmin(np.abs(x - target).sum(axis=1))])


def _far_apart(space: _Space, x: np.ndarray, settings: list[dict], best: np.ndarray,
               count: int) -> list[dict]:  # fmt: skip
    """Up to `count` settings of the region, each the farthest from the best and those
    chosen before (farthest-point order; list knobs count 1 when they differ)."""
    chosen = [best]
    out = []
    for _ in range(count):
        if not len(x):
            break
        gap = np.min([np.abs(x - c).sum(axis=1) for c in chosen], axis=0)
        i = int(np.argmax(gap))
        if gap[i] <= 0:
            break
        chosen.append(x[i])
        out.append(settings[i])
    return out


def _checks(fit: _Fit, values: np.ndarray, near: np.ndarray, confirmed: Sequence[int],
            played: Sequence[Played], x: np.ndarray, objectives: Sequence[Objective],
            level: float) -> list[dict[str, Any]]:  # fmt: skip
    """At each confirmed candidate in the neighbourhood and each objective: the replicates'
    interval of (the model's prediction - the confirmation's measurement), and whether it
    reaches within MISFIT tolerances of 0."""
    alpha = (1 - level) / 2
    out = []
    for c in confirmed:
        if c not in set(near.tolist()):
            continue
        pred = fit.predict(values[:, near], x[[c]])[:, 0]  # [draws, objectives]
        gap = pred - values[:, c]
        lo, hi = np.quantile(gap[1:], [alpha, 1 - alpha], axis=0)
        for j, o in enumerate(objectives):
            out.append({"values": played[c].values, "target": o.target, "place": o.place,
                        "predicted": float(pred[0, j]), "measured": float(values[0, c, j]),
                        "low": float(lo[j]), "high": float(hi[j]),
                        "agrees": bool(lo[j] <= MISFIT * o.tolerance
                                       and hi[j] >= -MISFIT * o.tolerance)})  # fmt: skip
    return out
