"""`sim playtest fit FILE --game G --out DIR`: each group of a playtest record file fitted to
the game's continuous skill, checked fact by fact, its named players placed on the same scale.

    from sim.playtest.fit import fit
    result = fit("playtests.csv", "guardians", out="results/playtest")  # what fit.yaml holds

1. The records are read and checked (sim/playtest/read.py); the game's stored columns are
   learnt from one game, so that every column of the records is a known fact (facts.py).
2. The lab's players play every candidate (candidates.py) at every table the records hold, on
   common seeds (simulate.py, `simulated/`).
3. Per group, the likelihood of its games' facts over the knob, and its 95% interval
   (likelihood.py).
4. The lab's players play each group's tables at its fitted skill (`fitted/`), and each fact
   gets its verdict: fits, differs or not settled (verdicts.py).
5. Named players who sat in several games of a competitive game are rated with the seats
   taken into account and placed on the knob (players.py, `mixed/`).
6. DIR/fit.yaml holds the answers; DIR/records/ the records as the lab's tables (for the
   report, which reads DIR alone: sim/playtest/report.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sim.games import get_game, is_ruleset_file
from sim.games.base import measures as game_measures
from sim.measures import registry_for
from sim.measures.core import Frames, Settings
from sim.paths import make_folder
from sim.playtest import facts as F
from sim.playtest.candidates import Candidates, candidates_of
from sim.playtest.likelihood import (
    FINE,
    Interval,
    fit_interval,
    fit_shares,
    game_loglik,
    plain_shares,
)
from sim.playtest.read import read_records
from sim.playtest.records import Records
from sim.playtest.simulate import (
    Arm,
    Table,
    experiment,
    fitted_arm,
    frames,
    grid_arms,
    play,
    workers,
)
from sim.playtest.verdicts import FactVerdict, figure, verdict_of

GAMES = 1000  # simulated games per candidate and table
FILE = "fit.yaml"


@dataclass
class GroupFit:
    """One group's answer."""

    name: str
    games: list[int]  # the records' games (indices)
    tables: dict[Table, int]  # the records' games at each table
    interval: Interval
    skill: float
    low: float
    high: float
    level: str | None
    rules: Mapping[str, Any]
    facts: list[FactVerdict]
    players: dict[str, Any]


def fit(
    path: str | os.PathLike[str],
    game: str,
    *,
    out: str | os.PathLike[str],
    fmt: str | None = None,
    name: str | None = None,
    group: str | None = None,
    games: int = GAMES,
    seed: int = 0,
    jobs: int | None = None,
    progress: bool = True,
    on_note: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Fit the records of `path` (see the module doc); returns what DIR/fit.yaml holds."""
    from sim.playtest import output

    plugin = get_game(game, source="--game")
    records = read_records(path, plugin, fmt=fmt, name=name)
    if group is not None:
        records = records.group(group)
    if games < 100:
        from sim.errors import SimError

        raise SimError("play at least 100 games per candidate", key="--games")
    root = make_folder(out, key="--out")
    cands = candidates_of(plugin)
    tables = table_of(records, plugin)
    games_schema, seats_schema = stored_schema(plugin, cands, next(iter(tables.values())))
    facts = F.facts_of(records, plugin, games_schema, seats_schema)
    real_games, real_seats = F.real_frames(records, facts, plugin)
    with workers(jobs, plugin.name) as pool:
        run = {"jobs": jobs, "pool": pool, "progress": progress, "on_note": on_note}
        grid = grid_arms(cands, list(dict.fromkeys(tables.values())))
        play(
            experiment(
                "playtest-simulated",
                cands,
                grid,
                games=games,
                seed=seed,
                description="The lab's players at every candidate skill, at every "
                "table the records hold (sim playtest fit).",
            ),
            root / "simulated",
            **run,
        )
        simulated = frames(root / "simulated", [a.name for a in grid], **_columns(facts))
        fits = [
            _fit_group(
                g,
                records,
                tables,
                facts,
                cands,
                grid,
                simulated,
                real_games,
                real_seats,
                plugin,
                games=games,
            )
            for g in records.groups
        ]
        fitted = [
            fitted_arm(cands, table, f.name, f.skill, f.level, f.rules)
            for f in fits
            for table in f.tables
        ]
        play(
            experiment(
                "playtest-fitted",
                cands,
                fitted,
                games=games,
                seed=seed + 1,
                description="Each group's tables at its fitted skill.",
            ),
            root / "fitted",
            **run,
        )
        at_fit = frames(root / "fitted", [a.name for a in fitted], **_columns(facts))
        for f in fits:
            f.facts = _judge(
                f, facts, cands, grid, simulated, fitted, at_fit, real_games, real_seats, plugin
            )
        _rate_players(fits, records, cands, plugin, root, games=games, seed=seed, run=run)
    data = output.document(records, plugin, cands, fits, games=games, seed=seed)
    output.write(root, data, records, real_games, real_seats)
    return data


def table_of(records: Records, plugin: Any) -> dict[tuple[str, int], Table]:
    """(the records' ruleset, players) -> the table the lab plays: a preset by its name, a
    ruleset file by its absolute path (found beside the records)."""
    out: dict[tuple[str, int], Table] = {}
    for ruleset, players in (
        records.games.select("ruleset", "players").unique(maintain_order=True).iter_rows()
    ):
        ref = ruleset
        if is_ruleset_file(ruleset):
            beside = records.file.parent / ruleset
            ref = str((beside if beside.exists() else Path(ruleset)).resolve())
        out[(ruleset, int(players))] = (ref, int(players))
    return out


def stored_schema(plugin: Any, cands: Candidates, table: Table) -> tuple[dict, dict]:
    """The game's stored columns (name -> polars dtype), from one game played at `table`."""
    ruleset, players = table
    rs = plugin.load_ruleset(ruleset, (), source="ruleset")
    level = cands.levels[0] if cands.knob is None else None
    chunk = plugin.play_chunk(
        rs,
        players,
        [cands.spec(0.5, level)],
        np.zeros((1, players), np.int64),
        np.arange(1, dtype=np.uint64),
    )
    games = pl.DataFrame({k: list(v) for k, v in chunk.games.items()}).schema
    seats = pl.DataFrame({k: list(v) for k, v in chunk.seats.items()}).schema
    return dict(games), dict(seats)


def _columns(facts: Sequence[F.Fact]) -> dict[str, tuple[str, ...]]:
    games = {"outcome"} | {f.column for f in facts if f.column and not f.per_seat}
    seats = {"score", "win_share"} | {f.column for f in facts if f.per_seat}
    return {"games_columns": tuple(sorted(games)), "seats_columns": tuple(sorted(seats))}


# --- the likelihood of a group -------------------------------------------------------------------


def _tables_of(records: Records, group: str, tables: Mapping) -> dict[Table, list[int]]:
    """The group's tables and their games (indices), in the records' order."""
    out: dict[Table, list[int]] = {}
    rows = records.games.filter(pl.col("group") == group)
    for game, ruleset, players in rows.select("game", "ruleset", "players").iter_rows():
        out.setdefault(tables[(ruleset, int(players))], []).append(int(game))
    return out


def _fit_group(
    group: str,
    records: Records,
    tables: Mapping,
    facts: Sequence[F.Fact],
    cands: Candidates,
    grid: Sequence[Arm],
    simulated: Mapping,
    real_games: pl.DataFrame,
    real_seats: pl.DataFrame,
    plugin: Any,
    *,
    games: int,
) -> GroupFit:
    spec = game_measures(plugin)
    by_table = _tables_of(records, group, tables)
    parts, weight = [], 0.0
    for table, played in by_table.items():
        keep = pl.col("game").is_in(played)
        rg, rs = real_games.filter(keep).sort("game"), real_seats.filter(keep)
        arms = _grid_at(grid, table, cands)
        ll = np.zeros((len(played), len(cands.discrete), len(FINE) if cands.knob else 1))
        for fact in facts:
            real = F.values(fact, rg, rs, spec).sort("game").get_column("value")
            sim = [
                [F.values(fact, *simulated[a.name], spec).get_column("value") for a in row]
                for row in arms
            ]
            coding = F.coding(fact, [s for row in sim for s in row], real)
            codes = coding.codes(real)
            counts = np.array(
                [
                    [
                        np.bincount(c[c >= 0], minlength=len(coding.labels))
                        for c in (coding.codes(s) for s in row)
                    ]
                    for row in sim
                ]
            )
            if cands.knob:
                for d in range(len(arms)):
                    ll[:, d, :] += game_loglik(fit_shares(counts[d], cands.grid), codes)
            else:
                logp = plain_shares(counts[:, 0, :])
                for d in range(len(arms)):
                    ll[:, d, :] += game_loglik(logp[d : d + 1], codes)
        parts.append(ll)
        weight += len(played) ** 2 / (len(cands.grid) * games)  # G_t / M_t, weighted by G_t
    loglik = np.concatenate(parts)
    interval = fit_interval(loglik, simulated=weight / len(loglik), knob=cands.knob is not None)
    level, rules = cands.discrete[interval.candidate]
    skill, low, high = interval.estimate, interval.low, interval.high
    if cands.knob is None:  # the ladder's positions
        last = max(len(cands.levels) - 1, 1)
        positions = [cands.levels.index(cands.discrete[c][0]) / last for c in interval.candidates]
        skill, low, high = cands.levels.index(level) / last, min(positions), max(positions)
    order = [g for played in by_table.values() for g in played]
    return GroupFit(
        group,
        order,
        {t: len(g) for t, g in by_table.items()},
        interval,
        skill,
        low,
        high,
        level,
        dict(rules),
        [],
        {},
    )


def _grid_at(grid: Sequence[Arm], table: Table, cands: Candidates) -> list[list[Arm]]:
    """The grid's arms at a table: one row per discrete candidate, along the knob."""
    rows = []
    for level, rules in cands.discrete:
        rows.append(
            [
                a
                for a in grid
                if a.table == table and a.level == level and dict(a.rules) == dict(rules)
            ]
        )
    return rows


# --- the verdicts ----------------------------------------------------------------------------


def _judge(
    f: GroupFit,
    facts: Sequence[F.Fact],
    cands: Candidates,
    grid: Sequence[Arm],
    simulated: Mapping,
    fitted: Sequence[Arm],
    at_fit: Mapping,
    real_games: pl.DataFrame,
    real_seats: pl.DataFrame,
    plugin: Any,
) -> list[FactVerdict]:
    spec = game_measures(plugin)
    registry = registry_for(plugin)
    tables = list(f.tables)
    chosen = cands.discrete.index((f.level, dict(f.rules))) if cands.knob else None
    fit_arms = {a.table: a.name for a in fitted if a.group == f.name}

    def arm_frames(name: str, table: Table) -> Frames:
        games, seats = (at_fit if name in at_fit else simulated)[name]
        return Frames(games, seats, Settings(players=table[1]))

    fitted_frames = {t: arm_frames(fit_arms[t], t) for t in tables}
    along: list[dict[Table, Frames]] = []  # the knob's grid (or the ladder) at each table
    inside: list[dict[Table, Frames]] = []  # the grid's skills within the interval
    for i in range(len(cands.grid) if cands.knob else len(cands.discrete)):
        at = {}
        for t in tables:
            rows = _grid_at(grid, t, cands)
            arm = rows[chosen][i] if cands.knob else rows[i][0]
            at[t] = arm_frames(arm.name, t)
        along.append(at)
        skill = cands.grid[i] if cands.knob else None
        if (skill is not None and f.low - 1e-9 <= skill <= f.high + 1e-9) or (
            skill is None and i in f.interval.candidates
        ):
            inside.append(at)
    games = f.games
    real = Frames(
        real_games.filter(pl.col("game").is_in(games)),
        real_seats.filter(pl.col("game").is_in(games)),
        Settings(players=max(f.tables, key=f.tables.get)[1]),
    )
    chosen_measures = {
        fact.name: [registry.get(m) if isinstance(m, str) else m for m in fact.measures]
        for fact in facts
    }
    tests = sum(len(m) for m in chosen_measures.values())
    out = []
    for fact in facts:
        sample = _complete(real) if fact.name in ("score", "margin") else real
        spread = _spread(fact, fitted_frames, spec)
        figures = [
            figure(m, sample, fitted_frames, inside, along, f.tables, spread=spread, tests=tests)
            for m in chosen_measures[fact.name]
        ]
        figures = [x for x in figures if x.real.n > 0] or figures
        out.append(verdict_of(fact, figures, len(games)))
    return out


def _complete(real: Frames) -> Frames:
    """The records whose every seat has a score (the score's and the margin's games)."""
    gaps = real.seats.group_by("game").agg(pl.col("score").is_null().any().alias("gap"))
    keep = gaps.filter(~pl.col("gap")).get_column("game")
    return Frames(
        real.games.filter(pl.col("game").is_in(keep)),
        real.seats.filter(pl.col("game").is_in(keep)),
        real.settings,
    )


def _spread(fact: F.Fact, frames: Mapping[Table, Frames], spec: Any) -> float:
    """A simulated game's standard deviation of the fact (a number), at the fitted skill."""
    if fact.kind != "number":
        return 0.0
    values = pl.concat(
        [F.values(fact, fr.games, fr.seats, spec).get_column("value") for fr in frames.values()]
    )
    sd = values.drop_nulls().std()
    return float(sd) if sd is not None else 0.0


def _rate_players(
    fits: Sequence[GroupFit],
    records: Records,
    cands: Candidates,
    plugin: Any,
    root: Path,
    *,
    games: int,
    seed: int,
    run: dict,
) -> None:
    """The named players of each group, on the knob (players.py)."""
    from sim.playtest import players

    players.rate(fits, records, cands, plugin, root, games=games, seed=seed, run=run)
