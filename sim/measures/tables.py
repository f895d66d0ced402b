"""Measures computed from a results folder, as polars DataFrames (one row per arm and measure).

    from sim.measures import measure_table, paired_table
    measure_table("results/quality", ["raid_rate", "leader_wins.half"])
    paired_table("results/what_if", ["close_rate"], baseline="baseline")

Each arm is read on its own, only the columns its measures name (lazy scans of the Parquet
parts), so memory grows with one arm's games, not the run's. Arms played at several skill
levels (`skills:`) are rows of their own, with `skill` and `base_arm` filled; a baseline is
named by its base arm and compared at each level with the arms of that level.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from sim.errors import SimError
from sim.measures.core import Measure, Value
from sim.measures.registry import Registry
from sim.results import read_arm as stored_arm
from sim.stored_arm import StoredArm

ROW_KEYS = ("arm", "base_arm", "skill", "measure", "value", "low", "high", "se", "n")
PAIRED_KEYS = ("arm", "baseline", "base_arm", "skill", "measure", "value", "low", "high", "se",
               "n", "p")  # fmt: skip


def registry_for(game: Any) -> Registry:
    """The registry of a game (a plug-in object or its name): the generic measures built from
    its `measures()` part, then its own."""
    from sim.measures.generic import generic
    from sim.measures.spec import for_game
    from sim.plugins import get_game
    from sim.plugins.base import outcomes

    plugin = get_game(game) if isinstance(game, str) else game
    return generic(for_game(plugin), outcomes(plugin))


def columns_of(measures: Iterable[Measure]) -> tuple[set[str], set[str]]:
    """The games and seats columns the measures read (besides `game` and `seat`)."""
    games: set[str] = set()
    seats: set[str] = set()
    for m in measures:
        games.update(m.games_columns)
        seats.update(m.seats_columns)
    return games, seats


def read_arm(results_dir: str | Path, arm: int | str, measures: Sequence[Measure]) -> StoredArm:
    """One arm (by index or name) with the columns `measures` read (sim.results.read_arm)."""
    games, seats = columns_of(measures)
    reader = f"measures {', '.join(m.name for m in measures)}"
    return stored_arm(results_dir, arm, games_columns=games, seats_columns=seats, reader=reader)


def _arms(manifest: dict[str, Any], arms: Iterable[str] | None) -> list[dict[str, Any]]:
    entries = [e for e in manifest.get("arms", []) if isinstance(e, dict)]
    if arms is None:
        return entries
    wanted = list(arms)
    names = {str(e.get("name")): e for e in entries}
    unknown = [a for a in wanted if a not in names]
    if unknown:
        raise SimError(f"no arm named {', '.join(map(repr, unknown))}",
                       hint=f"Arms: {', '.join(names)}.")  # fmt: skip
    return [names[a] for a in wanted]


def _row(entry: dict[str, Any], name: str, v: Value) -> dict[str, Any]:
    name_ = str(entry.get("name"))
    return {"arm": name_, "base_arm": str(entry.get("base_arm") or name_),
            "skill": str(entry.get("skill") or ""), "measure": name, **v.as_dict()}  # fmt: skip


def measure_table(results_dir: str | Path, names: Sequence[str], *,
                  arms: Iterable[str] | None = None) -> pl.DataFrame:  # fmt: skip
    """Every named measure at every arm (or the named arms): arm, base_arm, skill, measure,
    value, low, high, se, n."""
    from sim.results import game_name
    from sim.results import manifest as read_manifest

    manifest = read_manifest(results_dir)
    registry = registry_for(game_name(manifest))
    measures = [registry.get(n) for n in names]
    rows = []
    for entry in _arms(manifest, arms):
        arm = read_arm(results_dir, int(entry["index"]), measures)
        rows += [_row(entry, m.name, m.estimate(arm)) for m in measures]
    return pl.DataFrame(rows, schema=_schema(ROW_KEYS))


def paired_table(results_dir: str | Path, names: Sequence[str], *, baseline: str | None = None,
                 arms: Iterable[str] | None = None) -> pl.DataFrame:  # fmt: skip
    """Every named measure's paired difference, arm minus baseline on the same games (at each
    skill level, against the baseline of that level): arm, baseline, base_arm, skill,
    measure, value (the difference), low, high, se, n (paired games), p."""
    from sim.results import game_name
    from sim.results import manifest as read_manifest

    manifest = read_manifest(results_dir)
    registry = registry_for(game_name(manifest))
    measures = [registry.get(n) for n in names]
    entries = _arms(manifest, None)
    base_name = baseline or _base_arm(manifest, entries)
    chosen = _arms(manifest, arms)
    rows = []
    bases: dict[int, StoredArm] = {}  # the baseline of each level, read once
    for entry in chosen:
        base = _baseline_entry(entries, entry, base_name)
        if base is None or base is entry:
            continue
        i = int(base["index"])
        if i not in bases:
            bases[i] = read_arm(results_dir, i, measures)
        fa, fb = bases[i], read_arm(results_dir, int(entry["index"]), measures)
        for m in measures:
            v = m.paired(fa, fb)
            rows.append(
                {**_row(entry, m.name, v), "baseline": str(base.get("name")), "p": v.pvalue}
            )
    if not rows:
        return pl.DataFrame(schema=_schema(PAIRED_KEYS))
    return pl.DataFrame(rows).select(PAIRED_KEYS)


def _base_arm(manifest: dict[str, Any], entries: list[dict[str, Any]]) -> str:
    named = manifest.get("baseline")
    if named:
        named = str(named)
        for e in entries:
            if str(e.get("name")) == named:
                return str(e.get("base_arm") or named)
        return named
    return str(entries[0].get("base_arm") or entries[0].get("name")) if entries else ""


def _baseline_entry(entries: list[dict[str, Any]], entry: dict[str, Any], base: str):
    """The baseline arm at `entry`'s skill level (the arm named `base`, or whose base arm is)."""
    level = str(entry.get("skill") or "")
    for e in entries:
        if str(e.get("skill") or "") == level and base in (
            str(e.get("name")),
            str(e.get("base_arm") or ""),
        ):
            return e
    return None


def _schema(keys: Sequence[str]) -> dict[str, Any]:
    text = {"arm", "base_arm", "skill", "measure", "baseline"}
    return {k: (pl.String if k in text else pl.Int64 if k == "n" else pl.Float64) for k in keys}
