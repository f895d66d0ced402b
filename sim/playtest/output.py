"""What `sim playtest fit` writes into its folder, DIR:

- `fit.yaml`: the answers (docs/playtest.md lists every key): per group its games, its skill
  with the 95% interval (`skill.estimate`, `skill.low`, `skill.high`), the discrete settings
  fitted with it, where it lies on the ladder, the likelihood along the knob, every fact's
  verdict (`facts.<fact>.verdict`: fits, differs or not settled) with its sentence and its
  figures (records and simulated), and its named players on the same scale;
- `records/games.parquet`, `records/seats.parquet`: the records as the lab's tables;
- `simulated/`, `fitted/`, `mixed/`: the lab's games it was compared with (results folders).

The report (sim/playtest/report.py) and an experiment's `{fit: DIR/fit.yaml}` (level.py) read
these files alone.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import yaml

from sim.faults import writing
from sim.measures.core import Value
from sim.playtest.candidates import Candidates, on_ladder
from sim.playtest.likelihood import FINE
from sim.playtest.records import DEFAULT_GROUP, Records
from sim.playtest.verdicts import FactVerdict, Figure, difference

ANSWERS = "the playtest fit's answers"  # what a fault writing fit.yaml and the records names

FILE = "fit.yaml"
CURVE_POINTS = 81  # the likelihood's points written (every fifth of the fit's)


def document(
    records: Records, plugin: Any, cands: Candidates, fits: list, *, games: int, seed: int
) -> dict[str, Any]:
    """fit.yaml as a mapping."""
    knob = (
        {"strategy": cands.knob[0], "parameter": cands.knob[1], "params": dict(cands.params)}
        if cands.knob
        else None
    )
    return {
        "format": 1,
        "game": plugin.name,
        "title": plugin.title,
        "records": str(records.file),
        "knob": knob,
        "ladder": dict(cands.points) if cands.knob else list(cands.levels),
        "skill_rules": {
            k: sorted({c[k] for c in cands.rules}, key=[c[k] for c in cands.rules].index)
            for k in (cands.rules[0] if cands.rules else {})
        },
        "simulated": {
            "games": games,
            "seed": seed,
            "grid": [_r(x) for x in cands.grid] if cands.knob else None,
        },
        "notes": list(records.notes),
        "groups": {f.name: _group(f, cands) for f in fits},
    }


def _group(f: Any, cands: Candidates) -> dict[str, Any]:
    games = len(f.games)
    iv = f.interval
    out: dict[str, Any] = {
        "games": games,
        "label": label(f.name, games),
        "tables": [
            {"ruleset": Path(t[0]).name if "/" in t[0] else t[0], "players": t[1], "games": n}
            for t, n in f.tables.items()
        ],
        "skill": {"estimate": _r(f.skill), "low": _r(f.low), "high": _r(f.high)},
    }
    if cands.knob:
        out["on_ladder"] = on_ladder(f.skill, cands.points)
        out["likelihood"] = _curve(iv)
    else:
        out["level"] = f.level
        out["levels"] = [cands.discrete[c][0] for c in iv.candidates]
    if f.rules:
        out["rules"] = dict(f.rules)
        out["rules_within"] = {
            k: list(dict.fromkeys(cands.discrete[c][1][k] for c in iv.candidates)) for k in f.rules
        }
    out["sentences"] = [skill_sentence(f, cands)] + [v.sentence for v in f.facts]
    out["facts"] = {v.fact.name: _fact(v) for v in f.facts}
    if f.players:
        out["players"] = f.players
    return out


def label(group: str, games: int) -> str:
    """How reports name a group's level beside the ladder's: "your group (fitted from 42
    games)", with the group's name when the records name groups."""
    name = "your group" if group == DEFAULT_GROUP else f"your group {group}"
    return f"{name} (fitted from {games} games)"


def skill_sentence(f: Any, cands: Candidates) -> str:
    games = len(f.games)
    if not cands.knob:
        levels = dict.fromkeys(cands.discrete[c][0] for c in f.interval.candidates)
        others = [str(level) for level in levels if level != f.level]
        verb = "is" if len(others) == 1 else "are"
        within = f"; {' and '.join(others)} {verb} not told apart from it" if others else ""
        return f"The group plays like {f.level} on the ladder ({games} games){within}."
    reach = "the knob's end" if f.low <= 0 or f.high >= 1 else ""
    text = (
        f"The group plays at skill {f.skill:.2f} (95% interval {f.low:.2f} to {f.high:.2f}"
        f"{'; it reaches ' + reach if reach else ''}), {on_ladder(f.skill, cands.points)}, "
        f"fitted from {games} games"
    )
    if f.rules:
        text += " with " + ", ".join(f"{k} {v}" for k, v in f.rules.items())
        for key, value in f.rules.items():
            others = [
                v
                for v in dict.fromkeys(cands.discrete[c][1][key] for c in f.interval.candidates)
                if v != value
            ]
            if others:
                text += (
                    f" ({key} {' or '.join(map(str, others))} is not told apart from it: "
                    "the interval holds the skills of both)"
                )
    if any(v.verdict == "differs" for v in f.facts):
        text += (
            ". Some facts differ below: this is the skill that comes closest, not one at "
            "which the lab's players play like the group"
        )
    return text + "."


def _curve(iv: Any) -> dict[str, Any]:
    """The adjusted log-likelihood along the knob, minus its top, at CURVE_POINTS points."""
    step = max((len(FINE) - 1) // (CURVE_POINTS - 1), 1)
    curve = np.asarray(iv.curve)[::step]
    return {
        "skill": [_r(x) for x in FINE[::step]],
        "drop": [_r(float(x - np.max(iv.curve)), 3) for x in curve],
        "cutoff": _r(iv.cutoff, 3),
        "adjustment": _r(iv.adjustment, 3),
    }


def _fact(v: FactVerdict) -> dict[str, Any]:
    head, fact = v.figures[0], v.fact
    return {
        "verdict": v.verdict,
        "words": fact.words,
        "kind": fact.kind,
        "column": fact.column or None,
        "per_seat": fact.per_seat,
        "sentence": v.sentence,
        "games": v.games,
        "games_to_settle": v.games_to_settle,
        "real": _r(head.real.value),
        "simulated": _r(head.simulated.value),
        "figures": [_figure(f) for f in v.figures],
    }


def _figure(f: Figure) -> dict[str, Any]:
    d, low, high = difference(f.real, f.simulated)
    return {
        "measure": f.measure,
        "label": f.label,
        "unit": f.unit,
        "real": _value(f.real),
        "simulated": _value(f.simulated),
        "difference": {"value": _r(d), "low": _r(low), "high": _r(high)},
        "tolerance": _r(f.verdict.tolerance),
        "verdict": f.verdict.outcome.value,
        "beyond_every_skill": f.beyond,
    }


def _value(v: Value) -> dict[str, Any]:
    return {"value": _r(v.value), "low": _r(v.low), "high": _r(v.high), "n": int(v.n)}


def _r(x: float | None, digits: int = 4) -> float | None:
    """A float for YAML: rounded to `digits` significant figures; None for NaN."""
    if x is None or not math.isfinite(float(x)):
        return None
    x = float(x)
    if x == 0:
        return 0.0
    return float(f"{x:.{digits}g}")


def write(
    root: Path, data: dict[str, Any], records: Records, games: pl.DataFrame, seats: pl.DataFrame
) -> Path:
    """fit.yaml and the records' tables (a write the disk refuses: a WriteFault naming it)."""
    folder = root / "records"
    with writing(ANSWERS, root):
        folder.mkdir(parents=True, exist_ok=True)
        keep = ["game_id", "group", "ruleset"]
        info = records.games.select("game", *keep)
        games.join(info, on="game", how="left").write_parquet(folder / "games.parquet")
        seats.drop("where", "line").join(info, on="game", how="left").write_parquet(
            folder / "seats.parquet"
        )
        path = root / FILE
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        partial = path.with_suffix(".yaml.partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    return path
