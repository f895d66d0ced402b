"""Overview: how every arm's games end (victory, the planet destroyed, the UFO surviving the
final assault; a picture first when the arms are few enough to read), how long they last and
what the team scores; and what each strategy's seats did (launches, landings, invaders
destroyed, UFO hits). Shown in every report, and alone when the experiment names no
section."""

from __future__ import annotations

import polars as pl

from sim.games.space_invaders.report import answers, figures
from sim.games.space_invaders.report.common import outcome_columns, outcome_stats
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.render import Section
from sim.report.table import ARM, Column, Table

MAX_LABELS = 4
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
    # the settings that tell arms apart, or the arms' names when they are too many to read
    ident = ctx.arm_columns() if len(ctx.label_columns()) <= MAX_LABELS else [ARM]
    rows, strategy_rows = [], []
    for arm in ctx.arm_names:
        rows.append({**ctx.arm_values(arm), **outcome_stats(ctx, arm)})
        seats = ctx.results.arm_seats(arm)
        for (strategy,), own in seats.group_by("strategy", maintain_order=True):
            row = {**ctx.arm_values(arm), "strategy": strategy, "seat_games": own.height}
            for column in SEAT_COUNTS:
                row.update(prefixed(ctx.measure(arm, f"seat_mean.{column}.{strategy}"), column))
            strategy_rows.append(row)
    picture = figures.outcomes(rows, [ctx.arm_label(r["arm"]) for r in rows])
    if picture is not None:
        section.add(picture)
    section.add(Table(
        "overview_outcomes",
        "How the games end",
        pl.DataFrame(rows, infer_schema_length=None),
        [*ident, *outcome_columns(rows)],
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
    section.answers.append(answers.overview(rows, {a: ctx.arm_words(a) for a in ctx.arm_names}))
    return section
