"""`sim screen`: which rule keys move the targets? Every numeric rule key (or the ones named)
is moved one step down and one step up from the experiment's value, each side an arm of one
experiment on the same seeds as the unchanged baseline (common random numbers), and each
target's paired difference from the baseline is measured with its 95% interval. Keys are
ranked by their larger effect, in tolerances; the report draws a tornado chart per target.

    screen:
      keys: [missile.cost, "upgrade.*"]   # shell patterns (default: the knobs of `tune:`,
                                          # else every numeric key)
      step: 0.1                           # a relative step (10% of the value; at least 1 for
                                          # whole numbers); a knob of `tune:` moves its own step

A key whose effect's interval lies within plus or minus the target's tolerance moves it
*within tolerance*; one whose interval lies wholly outside moves it *beyond tolerance*; the
others are *not settled* at this size (the lab's verdict vocabulary, sim/report/verdicts.py).
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.errors import ConfigError
from sim.experiment import Experiment, parse_experiment
from sim.measures import read_arm, registry_for
from sim.runner import run
from sim.runner.options import RunOptions
from sim.stats.interval_columns import as_columns
from sim.storage import write_atomic
from sim.tune.knobs import plain_names
from sim.tune.spec import Tune
from sim.tune.targets import places
from sim.tune.verdict import judge_effect

BASELINE = "baseline"


@dataclass(frozen=True)
class Move:
    """One side of one key: the arm that plays it."""

    key: str
    value: Any
    side: str  # "-" or "+"

    @property
    def arm(self) -> str:
        return f"{self.key}={self.value}"


def moves(tune: Tune) -> tuple[list[Move], list[str]]:
    """The arms to play (both sides of every key the rules accept) and notes on the sides
    left out (a value the rules refuse)."""
    if len({p.base_arm for p in tune.places}) > 1:
        raise ConfigError("screening moves the keys of one setting; this file has several arms",
                          file=tune.file, key="arms",
                          hint="Remove arms and sweep (skills are fine).")  # fmt: skip
    values = tune.experiment.arms[0].ruleset.values
    steps = {k.key: k.step or (k.high - k.low) / 10 for k in tune.knobs
             if k.numeric and k.index is None}  # fmt: skip
    out, notes = [], []
    for key in tune.screen.keys:
        base = values[key]
        delta = steps.get(key) or _relative(base, tune.screen.step)
        if delta is None:
            notes.append(f"{key}: its value is 0, so a relative step is 0; name it in tune: "
                         "with a step")  # fmt: skip
            continue
        for side, sign in (("-", -1), ("+", 1)):
            value = base + sign * delta
            value = int(round(value)) if isinstance(base, int) else round(value, 10)
            try:
                _arm_experiment(tune, [Move(key, value, side)])
            except ConfigError as err:
                notes.append(f"{key}={value}: left out ({err.message})")
                continue
            out.append(Move(key, value, side))
    return out, notes


def _relative(base: float, step: float) -> float | None:
    if base == 0:
        return None
    delta = abs(base) * step
    return max(1, int(round(delta))) if isinstance(base, int) else delta


def _arm_experiment(tune: Tune, chosen: list[Move]) -> Experiment:
    data = copy.deepcopy(tune.data)
    for key in ("sweep", "arms", "baseline"):
        data.pop(key, None)
    data["arms"] = [{"name": BASELINE}] + [{"name": m.arm, "rules": {m.key: m.value}}
                                           for m in chosen]  # fmt: skip
    data["baseline"] = BASELINE
    return parse_experiment(data, file=tune.file, text=tune.text, overrides=tune.overrides)


@dataclass(frozen=True)
class Effect:
    target: int
    level: str | None
    move: Move
    value: Any  # the paired difference from the baseline (sim.measures.Value)
    verdict: str  # within tolerance | beyond tolerance | not settled


def run_screen(tune: Tune, chosen: list[Move], *, root: Path, options: RunOptions) -> Path:
    exp = _arm_experiment(tune, chosen)
    run(exp, out=root, jobs=options.jobs, chunk_size=options.chunk_size,
        backend=options.backend, address=options.address, fresh=options.fresh,
        progress=options.progress)  # fmt: skip
    return root


def effects(tune: Tune, chosen: list[Move], *, root: Path) -> list[Effect]:
    """Every target's paired difference from the baseline, for every move, at every level."""
    from sim.results import manifest as read_manifest

    entries = read_manifest(root)["arms"]
    registry = registry_for(tune.experiment.game)
    levels = list(dict.fromkeys(p.level for p in tune.places))
    out = []
    for level in levels:
        at = {str(e.get("base_arm") or e["name"]): e for e in entries
              if (e.get("skill") or None) == level}  # fmt: skip
        wanted = [(i, t) for i, t in enumerate(tune.targets)
                  if any(p.level == level for p in places(t, tune.places))]  # fmt: skip
        measures = {i: registry.get(t.measure_at(level)) for i, t in wanted}
        base = read_arm(root, int(at[BASELINE]["index"]), list(measures.values()))
        for move in chosen:
            arm = read_arm(root, int(at[move.arm]["index"]), list(measures.values()))
            for i, target in wanted:
                d = measures[i].paired(base, arm)
                verdict = judge_effect(d, target.tolerance)
                out.append(Effect(i, level, move, d, verdict))
    return out


def ranked(found: list[Effect], tune: Tune) -> list[dict[str, Any]]:
    """One row per target, level and key: both sides' effects, ranked by the larger one in
    tolerances (largest first within each target and level)."""
    rows: dict[tuple, dict[str, Any]] = {}
    for e in found:
        key = (e.target, e.level, e.move.key)
        row = rows.setdefault(key, {"target": e.target, "level": e.level or "",
                                    "key": e.move.key, "size": 0.0})  # fmt: skip
        side = "down" if e.move.side == "-" else "up"
        row[f"{side}_to"] = e.move.value
        row.update({**as_columns(side, e.value), f"{side}_verdict": e.verdict})
        tol = tune.targets[e.target].tolerance
        size = abs(e.value.value) / tol if math.isfinite(e.value.value) else 0.0
        row["size"] = max(row["size"], size)
    return sorted(rows.values(), key=lambda r: (r["target"], r["level"], -r["size"]))


def write_summary(tune: Tune, chosen: list[Move], notes: list[str], *,
                  root: Path) -> dict[str, Any]:  # fmt: skip
    """The screen's ranked effects and what was screened, written to `root`/screen.json."""
    rows = ranked(effects(tune, chosen, root=root), tune)
    names = plain_names(tune.experiment.arms[0].ruleset, tune.screen.keys)
    summary = {"name": tune.name, "file": tune.file, "games": tune.games,
               "keys": list(tune.screen.keys), "notes": notes, "rows": rows,
                "targets": [t.as_json() for t in tune.targets], "key_names": names}  # fmt: skip
    text = json.dumps(summary, indent=1, default=str) + "\n"
    write_atomic(root / "screen.json", text.encode("utf-8"), what="the screen's summary")
    return summary
