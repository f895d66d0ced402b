"""`sim sensitivity` from Python: the file's `sensitivity:` section checked (`settings`), the keys
to vary with their ranges (`factors_of`), and the analysis (`analyse`): Morris screening of every
key, then Sobol indices on the keys that matter, every point played by the runner as a tune's
candidate is (sim/tune/evaluate.py). What `sim sensitivity` runs (sim/commands/sensitivity.py
prints it)."""

from __future__ import annotations

import copy
import fnmatch
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from sim.config.keys import flatten
from sim.errors import ConfigError
from sim.experiment import Experiment, parse_experiment
from sim.runner import RunOptions, default_jobs
from sim.runner.pool import local_pool
from sim.sensitivity.analysis import SEED, Design, kept, morris, shares, sobol
from sim.tune.evaluate import measure, run_candidate
from sim.tune.knobs import Knob, parse_knob, rule_values
from sim.tune.spec import Tune

KEYS = ("keys", "range", "games", "trajectories", "base", "max_keys")
DEFAULTS = {"range": 0.25, "games": 200, "trajectories": 10, "base": 32, "max_keys": 6}


def settings(tune: Tune) -> dict[str, Any]:
    """The `sensitivity:` section with its defaults, checked."""
    raw = tune.sections.get("sensitivity") or {}
    if not isinstance(raw, Mapping):
        raise _error(tune, "sensitivity", "expected a mapping", f"Keys: {', '.join(KEYS)}.")
    for key in raw:
        if key not in KEYS:
            raise _error(tune, f"sensitivity.{key}", "unknown key", f"Keys: {', '.join(KEYS)}.")
    out = {**DEFAULTS, **{k: v for k, v in raw.items() if k != "keys"}}
    for key in ("games", "trajectories", "base", "max_keys"):
        v = out[key]
        if isinstance(v, bool) or not isinstance(v, int) or v < (2 if key != "max_keys" else 1):
            raise _error(tune, f"sensitivity.{key}", f"expected a whole number >= 2, got {v!r}")
    r = out["range"]
    if isinstance(r, bool) or not isinstance(r, int | float) or not 0 < r < 1:
        raise _error(tune, "sensitivity.range", f"expected a share in (0, 1), got {r!r}",
                     "For example range: 0.25 (each key +-25% of its value).")  # fmt: skip
    out["keys"] = raw.get("keys")
    return out


def _error(tune: Tune, key: str, message: str, hint: str = "") -> ConfigError:
    return ConfigError(message, file=tune.file, key=key, hint=hint or None)


def factors_of(tune: Tune, spec: Mapping[str, Any]) -> tuple[Knob, ...]:
    """The keys to vary, each with its range: a numeric knob of `tune:` its own, any other
    numeric rule key its value +- `range` (whole numbers at least +-1)."""
    values = tune.experiment.arms[0].ruleset.values
    knobs = {k.name: k for k in tune.knobs if k.numeric}
    patterns = spec["keys"]
    if patterns is None:
        names = list(knobs) or [k for k, v in values.items() if _number(v)]
    else:
        if isinstance(patterns, str):
            patterns = [patterns]
        if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
            raise _error(tune, "sensitivity.keys", "expected a list of rule keys or patterns")
        names = [n for n in [*knobs, *values] if any(fnmatch.fnmatchcase(n, p) for p in patterns)]
        names = list(dict.fromkeys(n for n in names if n in knobs or _number(values.get(n))))
    if not names:
        raise _error(tune, "sensitivity.keys", "names no numeric rule key",
                     "Keys or patterns such as missile.cost or 'upgrade.*'.")  # fmt: skip
    return tuple(knobs.get(n) or _around(tune, n, values[n], spec["range"]) for n in names)


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _around(tune: Tune, key: str, value: float, share: float) -> Knob:
    half = abs(value) * share
    if isinstance(value, int):
        half = max(1, round(half))
        low, high = value - half, value + half
        if value >= 0:
            low = max(low, 0)
        return parse_knob(key, {"low": low, "high": high}, value)
    if half == 0:
        hint = f"Name it in tune: with a range, e.g. {key}: {{low: 0, high: 1}}."
        raise _error(tune, "sensitivity.keys", f"{key} is 0: a share of it is no range", hint)
    return parse_knob(key, {"low": value - half, "high": value + half}, value)


def point_experiment(tune: Tune, factors: Sequence[Knob], point: Mapping[str, Any]
                     ) -> Experiment:  # fmt: skip
    """One point: the file's experiment with the factors' values as rules and the root seed
    moved by the point's seed offset."""
    base = {k.key: tune.experiment.arms[0].ruleset.values[k.key] for k in factors
            if k.index is not None}  # fmt: skip
    data = copy.deepcopy(tune.data)
    data["rules"] = {**flatten(data.get("rules") or {}, file=tune.file),
                     **rule_values(factors, point, base)}  # fmt: skip
    data["seed"] = tune.experiment.seed + 1 + int(point[SEED])
    kept_overrides = [o for o in tune.overrides if o[0] != "seed"]
    return parse_experiment(data, file=tune.file, text=tune.text, overrides=kept_overrides)


OnPoint = Callable[[str, int, int], None]  # (phase, points done, points in the phase)


def analyse(tune: Tune, spec: Mapping[str, Any], factors: tuple[Knob, ...], *, root: Path,
            options: RunOptions, on_point: OnPoint | None = None) -> dict[str, Any]:  # fmt: skip
    """Morris on every key, Sobol on those that matter; the points played on one pool,
    `on_point` told after each."""
    current = {k.name: _current(tune, k) for k in factors}
    seed = tune.experiment.seed
    pool = local_pool(options.jobs or default_jobs(), backend=options.backend,
                      games=[tune.experiment.game])  # fmt: skip
    try:
        evaluate = _evaluator(tune, factors, spec["games"], root, options, pool, on_point)
        screen_design = Design(factors, {})
        m_points, m_y, screened = morris(screen_design, partial(evaluate, phase="Morris"),
                                         trajectories=spec["trajectories"], seed=seed)  # fmt: skip
        names = kept(screen_design, screened, most=spec["max_keys"]) or [factors[0].name]
        chosen = tuple(k for k in factors if k.name in names)
        fixed = {k.name: current[k.name] for k in factors if k.name not in names}
        design = Design(chosen, fixed)
        s_points, s_y, indices = sobol(design, partial(evaluate, phase="Sobol"),
                                       base=spec["base"], seed=seed)  # fmt: skip
    finally:
        if pool is not None:  # one worker plays in this process: no pool
            pool.close()
    outputs = []
    for j, (target, place) in enumerate(_outputs(tune)):
        outputs.append({
            "target": target, "place": place,
            "morris": {n: {"mu_star": float(screened[j]["mu_star"][i]),
                           "conf": float(screened[j]["mu_star_conf"][i]),
                           "sigma": float(screened[j]["sigma"][i])}
                       for i, n in enumerate(screen_design.names)},
            "shares": shares(indices[j], design.names),
            "spread": [float(np.min(s_y[:, j])), float(np.max(s_y[:, j]))],
        })  # fmt: skip
    return {
        "name": tune.name, "file": tune.file, "game": tune.experiment.game,
        "games": spec["games"], "seed": seed,
        "factors": [{"name": k.name, "low": k.low, "high": k.high, "current": current[k.name]}
                    for k in factors],
        "kept": names, "fixed": fixed,
        "targets": [{"name": t.name or t.measure, "measure": t.measure, "unit": t.unit,
                     "label": t.label, "tolerance": t.tolerance} for t in tune.targets],
        "points": {"morris": len(m_points), "sobol": len(s_points),
                   "distinct": len({repr(sorted(p.items())) for p in m_points + s_points})},
        "outputs": outputs,
    }  # fmt: skip


def _current(tune: Tune, knob: Knob) -> Any:
    value = tune.experiment.arms[0].ruleset.values[knob.key]
    return value[knob.index] if knob.index is not None else value


def _outputs(tune: Tune) -> list[tuple[int, str]]:
    """(target, place) in the order the evaluation measures them."""
    from sim.tune.targets import places

    return [(i, arm.arm) for arm in tune.places for i, t in enumerate(tune.targets)
            if arm in places(t, tune.places)]  # fmt: skip


def _evaluator(tune: Tune, factors: tuple[Knob, ...], games: int, root: Path,
               options: RunOptions, pool: Any, on_point: OnPoint | None):  # fmt: skip
    done: dict[str, np.ndarray] = {}

    def evaluate(points: list[dict[str, Any]], *, phase: str) -> np.ndarray:
        rows = []
        for i, point in enumerate(points):
            key = repr(sorted(point.items()))
            if key not in done:
                exp = point_experiment(tune, factors, point)
                run_candidate(exp, point, games, root=root, options=options, pool=pool)
                ev = measure(tune, point, games, root=root)
                done[key] = np.array([m.value.value for m in ev.measured])
            rows.append(done[key])
            if on_point is not None:
                on_point(phase, i + 1, len(points))
        return np.vstack(rows)

    return evaluate
