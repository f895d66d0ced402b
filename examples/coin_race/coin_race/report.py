"""The coin race's report: an overview of how games end and who wins, from stored games only."""

from __future__ import annotations

import polars as pl

from sim.report.context import Context
from sim.report.metrics import prefixed, rate
from sim.report.render import Section
from sim.report.spec import GameReport
from sim.report.table import Column, Table


def overview(ctx: Context) -> Section:
    section = Section("overview", "Overview", "Who wins the race, by strategy?")
    rows = []
    for arm in ctx.arm_names:
        seats = ctx.results.arm_seats(arm)
        by = seats.group_by("strategy").agg(pl.col("win_share").sum().alias("wins"), pl.len())
        for strategy, wins, n in by.sort("strategy").iter_rows():
            rows.append(
                {
                    "arm": arm,
                    "strategy": strategy,
                    "seat_games": n,
                    **prefixed(rate(wins, n), "win"),
                }
            )
    section.add(
        Table(
            "coin_race_wins",
            "Win share by strategy",
            pl.DataFrame(rows),
            [
                Column.text("arm", "arm"),
                Column.text("strategy", "strategy"),
                Column.count("seat_games", "seat-games"),
                Column.pct_ci("win", "win share"),
            ],
        )
    )
    return section


REPORT = GameReport(
    title="Coin race balance report", sections={}, overview=overview, seat_columns=("dashes",)
)
