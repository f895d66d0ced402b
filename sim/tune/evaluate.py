"""Running a candidate and measuring its targets.

A candidate (one value per knob) is an experiment of its own, played by the runner into its
own results folder, `<out>/trials/<id>/`, named by its values: a candidate tried twice reuses
its games, and more games extend the folder (the runner resumes it). Game i has the same seed
in every candidate (the runner's seeds per game index), so candidates are compared on common
random numbers; a rung of n games reads games 0..n-1 only, whatever the folder holds.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.experiment import Experiment
from sim.measures import read_arm, registry_for
from sim.runner import RunSummary, default_jobs, run
from sim.runner.options import RunOptions
from sim.runner.pool import WorkerPool
from sim.tune.folder import TRIALS
from sim.tune.spec import Tune
from sim.tune.targets import Measured, objectives, places, score

MIN_CHUNK = 100


@dataclass(frozen=True)
class Evaluation:
    """A candidate's targets measured on its first `games` games per arm."""

    games: int
    measured: tuple[Measured, ...]
    objectives: tuple[float, ...]
    score: float

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "objectives": list(self.objectives),
            "score": self.score,
            "measured": [
                {"target": m.target, "arm": m.place.arm, "value": m.value.as_dict(),
                 "miss": m.miss}
                for m in self.measured
            ],
        }  # fmt: skip


def candidate_id(values: Mapping[str, Any]) -> str:
    """A short name for a candidate's folder, the same for the same values."""
    canonical = json.dumps({k: values[k] for k in sorted(values)}, default=str)
    return "c-" + hashlib.sha256(canonical.encode()).hexdigest()[:12]


def candidate_folder(root: Path, values: Mapping[str, Any]) -> Path:
    return root / TRIALS / candidate_id(values)


def run_candidate(exp: Experiment, values: Mapping[str, Any], games: int, *, root: Path,
         options: RunOptions, on_chunk: Callable[[Any], None] | None = None,
         pool: WorkerPool | None = None) -> RunSummary:  # fmt: skip
    """Play a candidate's experiment (`Tune.candidate(values)`) up to `games` games per arm
    (the stored ones are kept), in chunks that give every worker about two tasks; on the
    `pool`'s workers when the tune holds one (sim.tune.run)."""
    jobs = options.jobs or default_jobs()
    per_arm = math.ceil(2 * jobs / len(exp.arms))
    chunk = min(options.chunk_size, max(MIN_CHUNK, math.ceil(games / per_arm)))
    return run(exp.with_games(games), out=candidate_folder(root, values), jobs=jobs,
               chunk_size=chunk, backend=options.backend, address=options.address,
               progress=False, on_chunk=on_chunk, pool=pool)  # fmt: skip


def measure(tune: Tune, values: Mapping[str, Any], games: int, *, root: Path) -> Evaluation:
    """Every target at every place, on the candidate's games 0..games-1."""
    folder = candidate_folder(root, values)
    registry = registry_for(tune.experiment.game)
    measured = []
    for arm in tune.places:
        wanted = [(i, t) for i, t in enumerate(tune.targets) if arm in places(t, tune.places)]
        if not wanted:
            continue
        chosen = {i: registry.get(t.measure_at(arm.level)) for i, t in wanted}
        first = read_arm(folder, arm.arm, list(chosen.values())).first(games)
        for i, target in wanted:
            value = chosen[i].estimate(first)
            measured.append(Measured(i, arm, value, target.miss(value.value)))
    misses = objectives(tune.targets, measured)
    return Evaluation(games, tuple(measured), tuple(misses), score(misses))
