"""The confirmation: the best few candidates of the search replayed at full size (the
experiment's `games` per arm, on the same seeds), every target with its 95% interval and its
verdict at every place, and the recommendation: the confirmed candidate that misses least.

The search ranks candidates on few games, so its best one may be lucky; the confirmation's
games are many more and the same for every candidate (common random numbers), so its ranking
and its intervals are the ones to read. With one numeric knob and a target value, the knob
value where the target is met exactly is also read between the confirmed candidates (the
crossing of the measure's curve, linear between them, with a paired bootstrap interval).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import optuna
import yaml

from sim.errors import SimError
from sim.measures import read_arm, registry_for
from sim.measures.core import Ratio
from sim.runner.options import RunOptions
from sim.runner.pool import WorkerPool
from sim.stats.bootstrap import break_even_bootstrap
from sim.storage import write_atomic
from sim.tune.evaluate import Evaluation, candidate_folder, measure, run_candidate
from sim.tune.folder import OVERLAY
from sim.tune.knobs import show_values
from sim.tune.search import candidate_key, ranked_at, ranking
from sim.tune.spec import Tune
from sim.tune.targets import Measured
from sim.tune.verdict import MET, MISSED, UNSETTLED, TargetVerdict, judge

N_BOOT = 1000


@dataclass(frozen=True)
class Confirmed:
    values: dict[str, Any]
    trial: int  # the study's trial that found it
    evaluation: Evaluation
    verdicts: tuple[TargetVerdict, ...]  # one per measured place, in the evaluation's order


@dataclass(frozen=True)
class Crossing:
    """Where a target's measure reaches its value along the knob, between the candidates."""

    target: int
    arm: str
    estimate: float
    low: float
    high: float


def best_candidates(study: optuna.Study, tune: Tune) -> list[tuple[int, dict[str, Any]]]:
    """(trial number, values) of the `confirm` best distinct candidates: those that reached
    the last rung first (ranked there), then the others by the highest rung they reached."""
    trials = study.get_trials(deepcopy=False)
    chosen: list[tuple[int, dict[str, Any]]] = []
    seen: set[str] = set()
    for games in sorted(tune.search.rungs, reverse=True):
        for t in ranked_at(trials, games, tune):
            values = {k.name: t.params[k.name] for k in tune.knobs}
            if candidate_key(values) not in seen:
                seen.add(candidate_key(values))
                chosen.append((t.number, values))
    return chosen[: tune.search.confirm]


def confirm(tune: Tune, study: optuna.Study, *, root: Path, options: RunOptions,
            on_candidate: Callable[[int, int, dict[str, Any]], None] | None = None,
            on_chunk: Callable[[Any], None] | None = None,
            pool: WorkerPool | None = None) -> list[Confirmed]:  # fmt: skip
    """Replay the best candidates at full size; best first (by the confirmation's ranking)."""
    out = []
    best = best_candidates(study, tune)
    if not best:
        hint = "Widen the knobs' ranges (`sim rules show` lists the rules)."
        raise SimError("no candidate was played: the rules refused every one the search tried",
                       file=tune.file, key="tune", hint=hint)  # fmt: skip
    for rank, (number, values) in enumerate(best, start=1):
        if on_candidate is not None:
            on_candidate(rank, len(best), values)
        run_candidate(tune.candidate(values), values, tune.games, root=root, options=options,
             on_chunk=on_chunk, pool=pool)  # fmt: skip
        evaluation = measure(tune, values, tune.games, root=root)
        verdicts = tuple(verdict(tune, m) for m in evaluation.measured)
        out.append(Confirmed(values, number, evaluation, verdicts))
    order = ranking([c.evaluation.objectives for c in out], [c.evaluation.score for c in out],
                    tune.search.objectives, [c.trial for c in out])  # fmt: skip
    return [out[i] for i in order]


def verdict(tune: Tune, m: Measured) -> TargetVerdict:
    target = tune.targets[m.target]
    return judge(m.value, target.low, target.high, target.tolerance)


def overall(verdicts: Sequence[TargetVerdict]) -> str:
    """A target's verdict over its places: met when met everywhere, missed when missed
    somewhere, else not distinguishable."""
    kinds = {v.kind for v in verdicts}
    if kinds == {MET}:
        return MET
    return MISSED if MISSED in kinds else UNSETTLED


def crossings(tune: Tune, confirmed: Sequence[Confirmed], *, root: Path) -> list[Crossing]:
    """With one numeric knob: for each value target measured by a per-game ratio, where the
    curve through the confirmed candidates reaches the value (at each place)."""
    numeric = [k for k in tune.knobs if k.numeric]
    if len(tune.knobs) != 1 or not numeric or len(confirmed) < 2:
        return []
    knob = numeric[0]
    xs = np.array([float(c.values[knob.name]) for c in confirmed])
    if len(set(xs)) < 2:
        return []
    registry = registry_for(tune.experiment.game)
    out = []
    for m in confirmed[0].evaluation.measured:
        target = tune.targets[m.target]
        measure_ = registry.get(target.measure_at(m.place.level))
        if target.low != target.high or not isinstance(measure_, Ratio):
            continue
        rows = [_per_game(root, tune, c.values, m.place.arm, measure_) for c in confirmed]
        if any(r is None for r in rows):
            continue
        be = break_even_bootstrap(xs, np.vstack(rows) - target.low, n_boot=N_BOOT,
                                  seed=tune.experiment.seed)  # fmt: skip
        out.append(Crossing(m.target, m.place.arm, be.estimate, be.low, be.high))
    return out


def _per_game(root: Path, tune: Tune, values: Mapping[str, Any], arm: str,
              measure_: Ratio) -> np.ndarray | None:  # fmt: skip
    """The measure's value in each of the first `games` games (NaN where it counts none);
    None when a game counts with a weight other than one (not a mean of games)."""
    folder = candidate_folder(root, values)
    units = measure_.units(read_arm(folder, arm, [measure_]).first(tune.games))
    if units.height and not (units["w"] == 1.0).all():
        return None
    column = np.full(tune.games, np.nan)
    games = units["game"].to_numpy()
    column[games] = units["x"].to_numpy()
    return column


def write_overlay(root: Path, tune: Tune, best: Confirmed) -> Path:
    """The recommended values as rule overrides (a YAML mapping of rule keys), with a header
    saying where they come from."""
    rules = tune.rules(best.values)
    head = (
        f"# Recommended by `sim tune {tune.file or tune.name}`: "
        f"{show_values(tune.knobs, best.values)}\n"
        f"# confirmed on {tune.games:,} games per arm. Use these as an experiment's rules:\n"
        "#   rules: {" + ", ".join(f"{k}: {_yaml(v)}" for k, v in rules.items()) + "}\n"
    )
    path = root / OVERLAY
    text = head + yaml.safe_dump(rules, sort_keys=False)
    write_atomic(path, text.encode("utf-8"), what="the recommended rules")
    return path


def _yaml(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True).strip().removesuffix("...").strip()
