"""A fit's study: the records, the facts they hold, the lab's games along the knob at every
table they hold (`simulated/`), and per group the likelihood, the interval and the verdicts.

    study = Study.prepare(records, plugin, root, games=1000, seed=0, run={...})
    fits = study.fit_groups()                     # each group's skill and 95% interval
    study.judge(fits, at_fit)                     # each fact's verdict (at_fit: `fitted/`)
    study.with_records(other).fit_groups()        # other records of the same columns, against
                                                  # the same lab's games (the coverage check)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sim.measures import registry_for
from sim.measures.spec import for_game as game_measures
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
from sim.playtest.records import Records
from sim.playtest.simulate import Arm, Table, experiment, frames, grid_arms, play
from sim.playtest.verdicts import FactVerdict, figure, verdict_of
from sim.plugins import is_ruleset_file
from sim.stored_arm import StoredArm


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
    facts: list[FactVerdict] = field(default_factory=list)
    players: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Study:
    records: Records
    plugin: Any
    cands: Candidates
    tables: Mapping[tuple[str, int], Table]  # (the records' ruleset, players) -> the table
    facts: tuple[F.Fact, ...]
    real_games: pl.DataFrame
    real_seats: pl.DataFrame
    grid: tuple[Arm, ...]
    simulated: Mapping[str, tuple[pl.DataFrame, pl.DataFrame]]  # arm name -> games, seats
    games: int  # the lab's games per arm

    @classmethod
    def prepare(
        cls,
        records: Records,
        plugin: Any,
        root: Path,
        *,
        games: int,
        seed: int,
        run: Mapping[str, Any],
    ) -> Study:
        """The records' facts, and the lab's players at every candidate and table played into
        `root/simulated`."""
        cands = candidates_of(plugin)
        tables = table_of(records)
        games_schema, seats_schema = stored_schema(plugin, cands, next(iter(tables.values())))
        facts = tuple(F.facts_of(records, plugin, games_schema, seats_schema))
        real_games, real_seats = F.real_frames(records, facts, plugin)
        grid = grid_arms(cands, list(dict.fromkeys(tables.values())))
        exp = experiment(
            "playtest-simulated",
            cands,
            grid,
            games=games,
            seed=seed,
            description="The lab's players at every candidate skill, at every "
            "table the records hold (sim playtest fit).",
        )
        play(exp, root / "simulated", **run)
        simulated = frames(root / "simulated", [a.name for a in grid], **columns(facts))
        return cls(
            records,
            plugin,
            cands,
            tables,
            facts,
            real_games,
            real_seats,
            tuple(grid),
            simulated,
            games,
        )

    def with_records(self, records: Records) -> Study:
        """The same lab's games against other records of the same tables and columns."""
        facts = tuple(F.facts_of(records, self.plugin, *self._schemas()))
        real_games, real_seats = F.real_frames(records, facts, self.plugin)
        return replace(
            self, records=records, facts=facts, real_games=real_games, real_seats=real_seats
        )

    def _schemas(self) -> tuple[dict, dict]:
        games, seats = next(iter(self.simulated.values()))
        return dict(games.schema), dict(seats.schema)

    # --- the likelihood -------------------------------------------------------------------------

    def fit_groups(self) -> list[GroupFit]:
        return [self.fit_group(g) for g in self.records.groups]

    def fit_group(self, group: str) -> GroupFit:
        """The group's skill: the likelihood of its facts along the knob and its interval."""
        cands = self.cands
        by_table = self._tables_of(group)
        parts, weight = [], 0.0
        for table, played in by_table.items():
            parts.append(self._loglik(table, played))
            weight += len(played) ** 2 / (len(cands.grid) * self.games)  # G_t/M_t, by G_t
        loglik = np.concatenate(parts)
        interval = fit_interval(loglik, simulated=weight / len(loglik), knob=cands.knob is not None)
        level, rules = cands.discrete[interval.candidate]
        skill, low, high = interval.estimate, interval.low, interval.high
        if cands.knob is None:  # the ladder's levels, as positions 0..1
            last = max(len(cands.levels) - 1, 1)
            at = [cands.levels.index(cands.discrete[c][0]) / last for c in interval.candidates]
            skill, low, high = cands.levels.index(level) / last, min(at), max(at)
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
        )

    def _tables_of(self, group: str) -> dict[Table, list[int]]:
        """The group's tables and their games (indices), in the records' order."""
        out: dict[Table, list[int]] = {}
        rows = self.records.games.filter(pl.col("group") == group)
        for game, ruleset, players in rows.select("game", "ruleset", "players").iter_rows():
            out.setdefault(self.tables[(ruleset, int(players))], []).append(int(game))
        return out

    def _loglik(self, table: Table, played: list[int]) -> np.ndarray:
        """Each game's log-likelihood at each candidate along the knob (games x candidates x
        points)."""
        cands, spec = self.cands, game_measures(self.plugin)
        keep = pl.col("game").is_in(played)
        rg, rs = self.real_games.filter(keep).sort("game"), self.real_seats.filter(keep)
        arms = self.grid_at(table)
        ll = np.zeros((len(played), len(cands.discrete), len(FINE) if cands.knob else 1))
        for fact in self.facts:
            real = F.values(fact, rg, rs, spec).sort("game").get_column("value")
            sim = [
                [F.values(fact, *self.simulated[a.name], spec).get_column("value") for a in row]
                for row in arms
            ]
            coding = F.coding(fact, [s for row in sim for s in row], real)
            counts = np.array(
                [
                    [
                        np.bincount(c[c >= 0], minlength=len(coding.labels))
                        for c in map(coding.codes, row)
                    ]
                    for row in sim
                ]
            )
            codes = coding.codes(real)
            if cands.knob:
                for d in range(len(arms)):
                    ll[:, d, :] += game_loglik(fit_shares(counts[d], cands.grid), codes)
            else:
                logp = plain_shares(counts[:, 0, :])
                for d in range(len(arms)):
                    ll[:, d, :] += game_loglik(logp[d : d + 1], codes)
        return ll

    def grid_at(self, table: Table) -> list[list[Arm]]:
        """The grid's arms at a table: one row per discrete candidate, along the knob."""
        return [
            [
                a
                for a in self.grid
                if a.table == table and a.level == level and dict(a.rules) == dict(rules)
            ]
            for level, rules in self.cands.discrete
        ]

    # --- the verdicts -------------------------------------------------------------------------

    def judge(self, f: GroupFit, at_fit: Mapping[Table, tuple[pl.DataFrame, pl.DataFrame]]) -> None:
        """Every fact's verdict (into `f.facts`): the records against the lab's players at the
        fitted skill (`at_fit`, per table), at the grid's skills inside the interval, along
        the whole knob."""
        cands, spec, registry = self.cands, game_measures(self.plugin), registry_for(self.plugin)
        tables = list(f.tables)

        def view(games: pl.DataFrame, seats: pl.DataFrame, table: Table) -> StoredArm:
            return F.arm_view(games, seats, table[1])

        fitted = {t: view(*at_fit[t], t) for t in tables}
        chosen = cands.discrete.index((f.level, dict(f.rules))) if cands.knob else None
        along: list[dict[Table, StoredArm]] = []  # the knob's grid (or the ladder) per table
        inside: list[dict[Table, StoredArm]] = []  # the grid's skills within the interval
        for i in range(len(cands.grid) if cands.knob else len(cands.discrete)):
            rows = {t: self.grid_at(t) for t in tables}
            at = {
                t: view(
                    *self.simulated[(rows[t][chosen][i] if cands.knob else rows[t][i][0]).name], t
                )
                for t in tables
            }
            along.append(at)
            within = (
                f.low - 1e-9 <= cands.grid[i] <= f.high + 1e-9
                if cands.knob
                else i in f.interval.candidates
            )
            if within:
                inside.append(at)
        keep = pl.col("game").is_in(f.games)
        real = F.arm_view(
            self.real_games.filter(keep),
            self.real_seats.filter(keep),
            max(f.tables, key=f.tables.get)[1],
        )
        chosen_measures = {
            fact.name: [registry.get(m) for m in fact.measures] for fact in self.facts
        }
        tests = sum(len(m) for m in chosen_measures.values())
        f.facts = []
        for fact in self.facts:
            sample = _complete(real) if fact.name in ("score", "margin") else real
            spread = _spread(fact, fitted, spec)
            figures = [
                figure(m, sample, fitted, inside, along, f.tables, spread=spread, tests=tests)
                for m in chosen_measures[fact.name]
            ]
            figures = [x for x in figures if x.real.n > 0] or figures
            f.facts.append(verdict_of(fact, figures, len(f.games)))


def table_of(records: Records) -> dict[tuple[str, int], Table]:
    """(the records' ruleset, players) -> the table the lab plays: a preset by its name, a
    ruleset file by its absolute path (found beside the records)."""
    out: dict[tuple[str, int], Table] = {}
    pairs = records.games.select("ruleset", "players").unique(maintain_order=True)
    for ruleset, players in pairs.iter_rows():
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
    seats, seeds = np.zeros((1, players), np.int64), np.arange(1, dtype=np.uint64)
    chunk = plugin.simulate_chunk(rs, players, [cands.spec(0.5, level)], seats, seeds)
    games = pl.DataFrame({k: list(v) for k, v in chunk.games.items()}).schema
    seats_ = pl.DataFrame({k: list(v) for k, v in chunk.seats.items()}).schema
    return dict(games), dict(seats_)


def columns(facts: Sequence[F.Fact]) -> dict[str, tuple[str, ...]]:
    """The stored columns the facts and their measures read."""
    games = {"outcome"} | {f.column for f in facts if f.column and not f.per_seat}
    seats = {"score", "win_share"} | {f.column for f in facts if f.per_seat}
    return {"games_columns": tuple(sorted(games)), "seats_columns": tuple(sorted(seats))}


def _complete(real: StoredArm) -> StoredArm:
    """The records whose every seat has a score (the score's and the margin's games)."""
    gaps = real.seats.group_by("game", maintain_order=True).agg(
        pl.col("score").is_null().any().alias("gap")
    )
    keep = pl.col("game").is_in(gaps.filter(~pl.col("gap")).get_column("game").to_list())
    return F.arm_view(real.games.filter(keep), real.seats.filter(keep), real.settings.players)


def _spread(fact: F.Fact, frames: Mapping[Table, StoredArm], spec: Any) -> float:
    """A simulated game's standard deviation of the fact (a number), at the fitted skill."""
    if fact.kind != "number":
        return 0.0
    values = pl.concat(
        [F.values(fact, fr.games, fr.seats, spec).get_column("value") for fr in frames.values()]
    )
    sd = values.drop_nulls().std()
    return float(sd) if sd is not None else 0.0
