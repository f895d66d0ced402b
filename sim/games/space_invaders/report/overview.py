"""Overview: how every arm's games end (victory, the planet destroyed, the UFO surviving the
final assault), how long they last and what the team scores; and what each strategy's seats
did (launches, landings, invaders destroyed, UFO hits). Shown in every report, and alone
when the experiment names no section."""

from __future__ import annotations

import polars as pl

from sim.games.space_invaders.layout import STATUS_NAMES
from sim.report.context import Context
from sim.report.metrics import mean, prefixed, rate
from sim.report.render import Section
from sim.report.table import Column, Table

OUTCOMES = STATUS_NAMES[1:]  # victory, planet_destroyed, ufo_survived, cap
OUTCOME_LABELS = {
    "victory": "won",
    "planet_destroyed": "planet destroyed",
    "ufo_survived": "UFO survived the assault",
    "cap": "stopped at the round cap",
}
# per-seat counters shown per strategy: column -> label
SEAT_COUNTS = {
    "launches": "launches",
    "landed": "on an invader",
    "kills": "invaders destroyed",
    "ufo_hits": "UFO hits",
}


def build(ctx: Context) -> Section:
    section = Section(
        "overview",
        "Overview",
        "What happened in each arm: how games end, how long they last, what the team scores.",
    )
    ident = ctx.arm_columns()
    rows, strategy_rows = [], []
    for arm in ctx.arm_names:
        games = ctx.results.arm_games(arm)
        rows.append(_arm_row(ctx, arm, games))
        seats = ctx.results.arm_seats(arm)
        for (strategy,), own in seats.group_by("strategy", maintain_order=True):
            row = {**ctx.arm_values(arm), "strategy": strategy, "seat_games": own.height}
            for column in SEAT_COUNTS:
                row.update(prefixed(mean(own.get_column(column).to_numpy()), column))
            strategy_rows.append(row)
    shown = [o for o in OUTCOMES if any(row[o] > 0 for row in rows)]
    section.add(Table(
        "overview_outcomes",
        "How the games end",
        pl.DataFrame(rows, infer_schema_length=None),
        [*ident, Column.count("games", "games"),
         *[Column.pct_ci(o, OUTCOME_LABELS[o]) for o in shown],
         Column.num_ci("rounds", "rounds"), Column.num_ci("planet", "planet health left"),
         Column.num_ci("score", "team score")],
        note="Rates with 95% Wilson intervals; means with 95% normal intervals. The score is "
        "the printed one (lines 365-372), the team's.",
    ))  # fmt: skip
    section.add(Table(
        "overview_strategies",
        "What each strategy's seats did, per game",
        pl.DataFrame(strategy_rows, infer_schema_length=None),
        [*ident, Column.text("strategy", "strategy"), Column.count("seat_games", "seat-games"),
         *[Column.num_ci(c, label) for c, label in SEAT_COUNTS.items()]],
        note="Means per seat and game, 95% normal intervals; a 1-player game's seat plays "
        "every hand.",
    ))  # fmt: skip
    return section


def _arm_row(ctx: Context, arm: str, games: pl.DataFrame) -> dict:
    n = games.height
    counts = dict(games.group_by("outcome").len().iter_rows())
    row = {**ctx.arm_values(arm), "games": n}
    for outcome in OUTCOMES:
        row.update(prefixed(rate(counts.get(outcome, 0), n), outcome))
    for column, key in (("rounds", "rounds"), ("planet_left", "planet"), ("score", "score")):
        row.update(prefixed(mean(games.get_column(column).to_numpy()), key))
    return row
