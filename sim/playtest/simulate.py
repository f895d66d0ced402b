"""The lab's players' games a fit compares the records with, played as experiments of the lab
(sim.lab: worker processes, a progress bar, Ctrl-C safe, resumed when run again) into results
folders beside fit.yaml:

- `simulated/`: for each table the records hold (a ruleset and a number of players), every
  candidate (sim/playtest/candidates.py) on the same seeds: game i has the same seed at every
  skill (common random numbers), so the curves over the knob are smooth;
- `fitted/`: each group's tables at its fitted skill (the figures the verdicts compare);
- `mixed/`: tables of players of different skills on the knob, every seating (the named
  players' ratings are put on the knob through them; sim/playtest/players.py).

An arm is named by what it plays, and `Arm` keeps what it stands for; `frames` reads an arm's
games and seats back through the results reader (the columns asked for, games a strategy
stopped with an illegal move left out).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from sim.playtest.candidates import Candidates

Table = tuple[str, int]  # (ruleset: a preset or a ruleset file's absolute path, players)


@dataclass(frozen=True)
class Arm:
    """An arm of a playtest experiment: its name and what it plays."""

    name: str
    table: Table
    skill: float = 0.0
    level: str | None = None  # a ladder level (a game without a knob)
    rules: Mapping[str, Any] = field(default_factory=dict)
    group: str = ""  # the group it plays for (fitted/)
    seats: tuple[dict[str, Any], ...] = ()  # a pool of seats (mixed/); else the candidate's


def grid_arms(cands: Candidates, tables: Sequence[Table]) -> list[Arm]:
    """Every candidate at every table."""
    arms = []
    for table in tables:
        for level, rules in cands.discrete:
            for skill in cands.grid:
                name = _name(table, cands, float(skill), level, rules)
                arms.append(Arm(name, table, float(skill), level, dict(rules)))
    return arms


def _name(
    table: Table,
    cands: Candidates,
    skill: float,
    level: str | None,
    rules: Mapping[str, Any],
    group: str = "",
) -> str:
    parts = [f"group={group}"] if group else []
    parts += [f"players={table[1]}", f"ruleset={os.path.basename(table[0])}"]
    parts.append(f"level={level}" if cands.knob is None else f"skill={skill:.4g}")
    parts += [f"{key}={value}" for key, value in rules.items()]
    return ", ".join(parts)


def fitted_arm(
    cands: Candidates,
    table: Table,
    group: str,
    skill: float,
    level: str | None,
    rules: Mapping[str, Any],
) -> Arm:
    return Arm(
        _name(table, cands, skill, level, rules, group), table, skill, level, dict(rules), group
    )


def experiment(
    name: str, cands: Candidates, arms: Sequence[Arm], *, games: int, seed: int, description: str
) -> Any:
    """The lab experiment playing `arms`, `games` games each on the same seeds."""
    from sim.lab.experiments import experiment as make

    data = {
        "name": name,
        "description": description,
        "game": cands.game,
        "games": games,
        "seed": seed,
        "arms": [_arm_entry(cands, arm) for arm in arms],
        "baseline": arms[0].name,
    }
    return make(data)


def _arm_entry(cands: Candidates, arm: Arm) -> dict[str, Any]:
    ruleset, players = arm.table
    entry: dict[str, Any] = {"name": arm.name, "ruleset": ruleset, "players": players}
    if arm.seats:
        entry["pool"] = [dict(s) for s in arm.seats]
        entry["rotate"] = "permutations"
    else:
        entry["seats"] = [cands.seat(arm.skill, arm.level)]
    if arm.rules:
        entry["rules"] = dict(arm.rules)
    return entry


def play(
    exp: Any,
    out: Path,
    *,
    jobs: int | None,
    pool: Any,
    progress: bool,
    on_note: Callable[[str], None] | None = None,
) -> Path:
    """Play `exp` into `out`, resuming what is stored there; what an earlier fit stored for
    other records is replaced (the folder is the fit's own)."""
    from sim.lab.experiments import run
    from sim.results import manifest

    fresh = False
    if (out / "manifest.json").exists():
        with contextlib.suppress(Exception):  # an unreadable manifest: start over
            fresh = manifest(out).get("fingerprint") != exp.parsed.fingerprint()
        fresh = fresh or not (out / "manifest.json").stat().st_size
    options = {"pool": pool} if pool is not None else {"jobs": jobs}
    run(
        exp,
        out=out,
        fresh=fresh,
        progress=progress,
        on_note=on_note or (lambda _note: None),
        **options,
    )
    return out


@contextlib.contextmanager
def workers(jobs: int | None, game: str) -> Iterator[Any]:
    """Worker processes kept for every experiment of one fit (None: each run decides)."""
    from sim.runner.pool import local_pool

    count = jobs if jobs is not None else (os.cpu_count() or 1)
    pool = local_pool(count, backend="local", games=[game]) if count > 1 else None
    try:
        yield pool
    finally:
        if pool is not None:
            pool.close()


def frames(
    folder: Path,
    arms: Iterable[str],
    *,
    games_columns: Iterable[str] = (),
    seats_columns: Iterable[str] = (),
) -> dict[str, tuple[pl.DataFrame, pl.DataFrame]]:
    """arm name -> (games, seats) of the stored arms, with the columns asked for (and `game`,
    `seat`, `players`; games a strategy stopped with an illegal move left out)."""
    from sim.results import read_arm

    out = {}
    for arm in arms:
        read = read_arm(
            folder,
            arm,
            games_columns=("players", *games_columns),
            seats_columns=("players", *seats_columns),
            reader="sim playtest fit",
        )
        out[arm] = (read.games, read.seats)
    return out
