"""Global sensitivity through SALib: Morris screening, then Sobol indices on the keys that
matter, the game's seed one more factor. Pure: `evaluate(points)` gives the outputs of a list
of points (each {factor: value}), so a planted model tests it (tests/test_sensitivity.py).

Every factor is sampled on [0, 1] and mapped to its values: a whole-number key to the nearest
value of its step, a float key linearly, the seed factor to an offset of the root seed in
[0, SEED_SPAN) (each point its own luck; two points with the same offset, the same games).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.errors import SimError
from sim.tune.knobs import Knob

SEED = "seed"  # the luck factor's name
SEED_SPAN = 1_000_000
LEVELS = 4  # Morris grid levels
RESAMPLES = 500
KEEP_SHARE = 0.1  # a key matters when its mu* (interval above 0) reaches this share of the top


@dataclass(frozen=True)
class Design:
    factors: tuple[Knob, ...]  # the rule keys, each with its range
    fixed: dict[str, Any]  # every other factor's value (keys screened out)

    @property
    def names(self) -> list[str]:
        return [k.name for k in self.factors] + [SEED]

    def problem(self) -> dict[str, Any]:
        return {"num_vars": len(self.names), "names": self.names,
                "bounds": [[0.0, 1.0]] * len(self.names)}  # fmt: skip

    def points(self, unit: np.ndarray) -> list[dict[str, Any]]:
        return [{**self.fixed, **{k.name: value_at(k, u[i]) for i, k in enumerate(self.factors)},
                 SEED: min(int(u[-1] * SEED_SPAN), SEED_SPAN - 1)} for u in unit]  # fmt: skip


def value_at(knob: Knob, u: float) -> Any:
    """The knob's value at the share u of its range (whole numbers on their step)."""
    raw = knob.low + float(u) * (knob.high - knob.low)
    if knob.kind == "int":
        step = int(knob.step or 1)
        return int(knob.low + round((raw - knob.low) / step) * step)
    return raw


def require_salib() -> None:
    """Refuse, before anything is played or written, when SALib (the analysis's library, a
    dependency of the lab) is missing from this environment: one line and its fix, not the
    import's traceback halfway through."""
    try:
        import SALib  # noqa: F401
    except ImportError:
        raise SimError(
            "`sim sensitivity` needs the SALib package, which is not installed",
            hint="Install it with `pip install SALib`, or install the lab again "
            "(`pip install -e .`, or `make run`), which brings it.",
        ) from None


Evaluate = Callable[[list[dict[str, Any]]], np.ndarray]  # points -> float[points, outputs]


def morris(design: Design, evaluate: Evaluate, *, trajectories: int, seed: int
           ) -> tuple[list[dict[str, Any]], np.ndarray, list[dict[str, np.ndarray]]]:  # fmt: skip
    """(points, outputs, per output SALib's mu_star, mu_star_conf, sigma per factor)."""
    from SALib.analyze import morris as analyze
    from SALib.sample import morris as sample

    problem = design.problem()
    unit = sample.sample(problem, trajectories, num_levels=LEVELS, seed=seed)
    points = design.points(unit)
    y = _filled(evaluate(points))
    out = _each_output(y, lambda col: analyze.analyze(problem, unit, col, num_levels=LEVELS,
                                                      num_resamples=RESAMPLES, seed=seed),
                       ("mu_star", "mu_star_conf", "sigma"))  # fmt: skip
    return points, y, out


def kept(design: Design, screened: Sequence[dict[str, np.ndarray]], *, most: int) -> list[str]:
    """The keys that matter for some output: mu* with its interval above 0 and at least
    KEEP_SHARE of the output's largest key mu*; at most `most`, by their largest share."""
    keys = len(design.factors)
    share = np.zeros(keys)
    for s in screened:
        mu, conf = s["mu_star"][:keys], s["mu_star_conf"][:keys]
        top = mu.max() if mu.size else 0.0
        if top <= 0:
            continue
        matters = (mu - conf > 0) & (mu >= KEEP_SHARE * top)
        share = np.maximum(share, np.where(matters, mu / top, 0.0))
    order = [i for i in np.argsort(-share, kind="stable") if share[i] > 0][:most]
    return [design.factors[i].name for i in sorted(order)]


def sobol(design: Design, evaluate: Evaluate, *, base: int, seed: int
          ) -> tuple[list[dict[str, Any]], np.ndarray, list[dict[str, np.ndarray]]]:  # fmt: skip
    """(points, outputs, per output S1, S1_conf, ST, ST_conf, S2, S2_conf)."""
    from SALib.analyze import sobol as analyze
    from SALib.sample import sobol as sample

    problem = design.problem()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a base that is no power of 2 is the user's choice
        unit = sample.sample(problem, base, calc_second_order=True, seed=seed)
    points = design.points(unit)
    y = _filled(evaluate(points))
    out = _each_output(y, lambda col: analyze.analyze(problem, col, calc_second_order=True,
                                                      num_resamples=RESAMPLES, seed=seed),
                       ("S1", "S1_conf", "ST", "ST_conf", "S2", "S2_conf"))  # fmt: skip
    return points, y, out


def _each_output(y: np.ndarray, analyze: Callable[[np.ndarray], Any],
                 keys: tuple[str, ...]) -> list[dict[str, np.ndarray]]:  # fmt: skip
    """SALib's analysis of each output (a column of y), its warnings silenced, `keys` kept."""
    out = []
    for j in range(y.shape[1]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = analyze(y[:, j])
        out.append({k: np.asarray(found[k], dtype=float) for k in keys})
    return out


def _filled(y: np.ndarray) -> np.ndarray:
    """Outputs with a point that has no value (a measure no game counted) set to the output's
    mean, so that one empty point does not void the analysis."""
    y = np.array(y, dtype=float)
    if y.ndim == 1:
        y = y[:, None]
    for j in range(y.shape[1]):
        bad = ~np.isfinite(y[:, j])
        if bad.any() and (~bad).any():
            y[bad, j] = y[~bad, j].mean()
    return y


def shares(indices: dict[str, np.ndarray], names: Sequence[str]) -> dict[str, Any]:
    """What a report says of one output: the luck (the seed's total index), the rules (the
    rest), each key's S1 and ST, the interactions among the rules, each with its interval
    (index +- SALib's 95% half-width, all clipped to [0, 1]: a share of the variance; with a
    small base the estimators can stray past either end, and an estimate of 109% beside an
    interval of 77 to 100 would read as a contradiction)."""
    seed = len(names) - 1

    def interval(value: float, half: float) -> list[float]:
        return [float(np.clip(value, 0, 1)), float(np.clip(value - half, 0, 1)),
                float(np.clip(value + half, 0, 1))]  # fmt: skip

    s1, s1c, st, stc = (indices[k] for k in ("S1", "S1_conf", "ST", "ST_conf"))
    luck = interval(st[seed], stc[seed])
    keys = {n: {"S1": interval(s1[i], s1c[i]), "ST": interval(st[i], stc[i])}
            for i, n in enumerate(names[:seed])}  # fmt: skip
    s2, s2c = indices["S2"], indices["S2_conf"]
    pairs = [{"a": names[i], "b": names[j], "S2": interval(s2[i, j], s2c[i, j])}
             for i in range(len(names)) for j in range(i + 1, len(names))
             if np.isfinite(s2[i, j])]  # fmt: skip
    return {"luck": luck, "rules": [1 - luck[0], 1 - luck[2], 1 - luck[1]], "keys": keys,
            "pairs": pairs}  # fmt: skip
