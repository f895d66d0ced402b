"""Named players on the knob: each person who sat in several games fitted to the lab's players,
as the group was, from their own results at their own tables.

A person's facts are, per game they played, their place with their seat (`seat 2: place 1`,
`seat 3: nobody won`: the seat taken into account) and their score. The lab plays, for each
skill of a grid along the knob, a table where one seat is that person at that skill and the
others are the people they sat with, at their current skills (the seats without a name at
the group's skill), every seating in turn (`players-1/`, `players-2/`). The likelihood of the
person's facts along the knob and its 95% interval are the group's (likelihood.py), given the
others' skills. Everyone starts at the group's skill and is fitted again once with the others
at their first fit (two rounds, all players at once each round).

Beside it, who is stronger in the records alone, with the seats taken into account: the
Plackett-Luce rating of ratings.py, relative to the group.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sim.playtest.likelihood import FINE, fit_interval, fit_shares, game_loglik
from sim.playtest.ratings import ranks
from sim.playtest.ratings import rate as rating

GRID = np.linspace(0.0, 1.0, 9)  # a person's candidate skills
ROUNDS = 3
MIN_GAMES = 2  # a person is fitted from at least this many games
NUDGE = 1e-4  # a person's skill moved off a co-player's equal one, to tell their seats apart


def rate(
    fits: Sequence[Any],
    records: Any,
    cands: Any,
    plugin: Any,
    root: Path,
    *,
    games: int,
    seed: int,
    run: dict,
) -> None:
    """Each group's named players on the knob (into its `players`): nothing for a cooperative
    game (the table wins or loses together), a game without a knob, or unnamed records."""
    from sim.measures.spec import for_game as measures
    from sim.playtest.facts import real_frames

    if measures(plugin).cooperative or cands.knob is None or not records.named:
        return
    _, seats = real_frames(records, [], plugin)
    people = {f.name: _named(seats.filter(pl.col("game").is_in(f.games))) for f in fits}
    if not any(people.values()):
        return
    current = {(f.name, p): f.skill for f in fits for p in people[f.name]}
    fitted: dict[tuple[str, str], Any] = {}
    for round_ in range(1, ROUNDS + 1):
        fitted = _round(
            fits,
            people,
            seats,
            current,
            cands,
            root / f"players-{round_}",
            games=max(games // 2, 100),
            seed=seed + 10 + round_,
            run=run,
        )
        # the next round's co-players: halfway to this round's fit (a full step overshoots:
        # every person moves at once)
        current = {
            key: iv.estimate if round_ == 1 else (current[key] + iv.estimate) / 2
            for key, iv in fitted.items()
        }
    for f in fits:
        mine = seats.filter(pl.col("game").is_in(f.games))
        ratings = rating(mine, people[f.name])
        for p in people[f.name]:
            iv = fitted[(f.name, p)]
            f.players[p] = {
                "games": int(mine.filter(pl.col("player") == p).get_column("game").n_unique()),
                "skill": {"estimate": iv.estimate, "low": iv.low, "high": iv.high},
                **({"rating": ratings[p]} if p in ratings else {}),
            }


def _named(seats: pl.DataFrame) -> list[str]:
    counts = (
        seats.filter(pl.col("player").is_not_null())
        .group_by("player", maintain_order=True)
        .agg(pl.col("game").n_unique())
    )
    return sorted(counts.filter(pl.col("game") >= MIN_GAMES).get_column("player").to_list())


def _round(
    fits: Sequence[Any],
    people: dict,
    seats: pl.DataFrame,
    current: dict,
    cands: Any,
    folder: Path,
    *,
    games: int,
    seed: int,
    run: dict,
) -> dict:
    """One round: every person's arms in one experiment, then each person's fit."""
    from sim.playtest.simulate import Arm, experiment, frames, play

    arms, plan = [], []
    for f in fits:
        mine = seats.filter(pl.col("game").is_in(f.games))
        for p in people[f.name]:
            for table in f.tables:
                played = mine.filter(
                    (pl.col("players") == table[1])
                    & pl.col("game").is_in(
                        mine.filter(pl.col("player") == p).get_column("game").to_list()
                    )
                )
                if not played.filter(pl.col("player") == p).height:
                    continue
                mates = _mates(played, p, people[f.name], f.name, current, f.skill, table[1])
                for s in GRID:
                    mine_skill = _apart(float(s), mates)
                    name = f"group={f.name}, player={p}, {_size(table)}, skill={s:.4g}"
                    pool = (cands.seat(mine_skill), *(cands.seat(m) for m in mates))
                    arms.append(Arm(name, table, group=f.name, seats=pool))
                    plan.append((f.name, p, table, float(s), mine_skill))
    play(
        experiment(
            "playtest-players",
            cands,
            arms,
            games=games,
            seed=seed,
            description="Each named player at every skill of a grid, at a table of the "
            "people they played with (sim playtest fit).",
        ),
        folder,
        **run,
    )
    stored = frames(
        folder, [a.name for a in arms], seats_columns=("score", "win_share", "strategy")
    )
    out = {}
    for f in fits:
        mine = seats.filter(pl.col("game").is_in(f.games))
        for p in people[f.name]:
            rows = [
                (a, step)
                for a, step in zip(arms, plan, strict=True)
                if step[0] == f.name and step[1] == p
            ]
            out[(f.name, p)] = _fit_person(mine, p, rows, stored, games, cands.knob[1])
    return out


def _size(table: tuple[str, int]) -> str:
    return f"players={table[1]}, ruleset={Path(table[0]).name}"


def _mates(
    played: pl.DataFrame,
    p: str,
    named: list[str],
    group: str,
    current: dict,
    group_skill: float,
    players: int,
) -> list[float]:
    """The skills of the people p sat with at this size (the seats without a name at the
    group's skill), at least enough to fill the table."""
    others = played.filter(pl.col("player").is_null() | (pl.col("player") != p))
    names = [
        q for q in others.get_column("player").drop_nulls().unique().sort().to_list() if q in named
    ]
    skills = [current[(group, q)] for q in names]
    unnamed = others.filter(~pl.col("player").is_in(named) | pl.col("player").is_null())
    per_game = unnamed.group_by("game", maintain_order=True).len().get_column("len").max() or 0
    skills += [group_skill] * int(per_game)
    while len(skills) < players - 1:
        skills.append(group_skill)
    return skills


def _apart(skill: float, mates: list[float]) -> float:
    """`skill`, moved by NUDGE off a co-player's equal skill (the seats are told apart by
    their strategy's label; a change of 1e-4 changes one decision in ten thousand)."""
    if any(abs(round(skill, 6) - round(m, 6)) < NUDGE / 2 for m in mates):
        return skill - NUDGE if skill >= 1.0 else skill + NUDGE
    return skill


def _plays(param: str, skill: float) -> pl.Expr:
    """The seats of the strategy playing the knob's `param` at `skill` (read off its label)."""
    value = pl.col("strategy").str.extract(rf"[(,]{re.escape(param)}=([^,)]+)").cast(pl.Float64)
    return (value - round(skill, 6)).abs() < 1e-9


def _facts(frame: pl.DataFrame, seated: bool) -> tuple[pl.Series, pl.Series]:
    """A person's place (with the seat, when the records say it) and score, per game."""
    place = (
        pl.format("seat {}: {}", pl.col("seat") + 1, pl.col("place"))
        if seated
        else (pl.col("place"))
    )
    picked = frame.select(place.alias("place"), pl.col("score").cast(pl.Float64))
    return picked.get_column("place"), picked.get_column("score")


def _fit_person(
    mine: pl.DataFrame, p: str, rows: list, stored: dict, games: int, param: str
) -> Any:
    from sim.playtest.facts import Coding, Fact, coding

    real = ranks(mine).filter(pl.col("player") == p).sort("game")
    seated = real.get_column("seat").null_count() == 0
    real_place, real_score = _facts(real, seated)
    sim_place, sim_score = [], []
    for arm, (_, _, _, _, skill) in rows:
        seats = ranks(stored[arm.name][1]).filter(_plays(param, skill))
        place, score = _facts(seats, seated)
        sim_place.append(place)
        sim_score.append(score)
    tables = sorted({step[2] for _, step in rows})
    ll = np.zeros((real.height, 1, len(FINE)))
    for table in tables:  # a person's games at each number of players
        at = [i for i, (_, step) in enumerate(rows) if step[2] == table]
        keep = (real.get_column("players") == table[1]).to_numpy()
        for kind, sims, values in (
            ("category", sim_place, real_place),
            ("number", sim_score, real_score),
        ):
            fact = Fact("place" if kind == "category" else "score", "", kind)
            code: Coding = coding(fact, [sims[i] for i in at], values.filter(pl.Series(keep)))
            counts = np.array(
                [
                    np.bincount(c[c >= 0], minlength=len(code.labels))
                    for c in (code.codes(sims[i]) for i in at)
                ]
            )
            part = game_loglik(fit_shares(counts, GRID), code.codes(values))
            ll[keep, 0, :] += part[keep]
    return fit_interval(ll, simulated=real.height / (len(GRID) * games))
