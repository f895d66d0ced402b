"""Overview: what happened in each arm (how often a win is shared, the winner's humans and the
margin over the second) and what each strategy's captains did (win share, final humans,
purchases, raids, catches, battles, cities). Shown in every report, and alone when the
experiment names no section."""

from __future__ import annotations

import polars as pl

from sim.games.alien_raid.report.common import Heading, section
from sim.report import plots
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.render import Section
from sim.report.table import Column, Table

HEADING = Heading("overview", "Overview", "What happened in each arm: who wins, by how much, "
                  "and what the captains of each strategy did.")  # fmt: skip
# per-seat means shown per strategy: column -> label
SEAT_MEANS = {
    "score": "final humans",
    "spent": "humans spent on cards",
    "raids": "raids",
    "catches": "catches",
    "battles": "battles",
    "cities": "cities held",
}
READS = tuple(c for c in SEAT_MEANS if c != "score")


def build(ctx: Context) -> Section:
    out = section(HEADING, ctx)
    ident = ctx.arm_columns()
    rows, strategy_rows = [], []
    for arm in ctx.arm_names:
        rows.append({**ctx.arm_values(arm), "games": ctx.results.arm_games(arm).height,
                     **prefixed(ctx.measure(arm, "shared_rate"), "shared"),
                     **prefixed(ctx.measure(arm, "mean_top_humans"), "top"),
                     **prefixed(ctx.measure(arm, "mean_margin"), "margin")})  # fmt: skip
        seats = ctx.results.arm_seats(arm)
        for (strategy,), own in seats.group_by("strategy", maintain_order=True):
            row = {**ctx.arm_values(arm), "strategy": strategy, "seat_games": own.height,
                   **prefixed(ctx.measure(arm, f"win_share.{strategy}"), "win")}  # fmt: skip
            for column in SEAT_MEANS:
                row.update(prefixed(ctx.measure(arm, f"seat_mean.{column}.{strategy}"), column))
            strategy_rows.append(row)
    out.add(_wins_figure(ctx, strategy_rows))  # the picture first
    out.add(Table(
        "overview_outcomes", "How the games end", pl.DataFrame(rows, infer_schema_length=None),
        [*ident, Column.count("games", "games"), Column.pct_ci("shared", "shared wins"),
         Column.num_ci("top", "winner's humans", 0),
         Column.num_ci("margin", "margin over the second", 0)],
        note="A win is shared when captains end with equal humans (end.tie: share). Rates "
        "with 95% Wilson intervals; means with 95% normal intervals.",
    ))  # fmt: skip
    out.add(Table(
        "overview_strategies", "What each strategy's captains did, per game",
        pl.DataFrame(strategy_rows, infer_schema_length=None),
        [*ident, Column.text("strategy", "strategy"), Column.count("seat_games", "seat-games"),
         Column.pct_ci("win", "win share"),
         *[Column.num_ci(c, label, 0 if c in ("score", "spent") else 2)
           for c, label in SEAT_MEANS.items()]],
        note="Means per captain and game, 95% normal intervals; a shared win counts 1/k to "
        "each of the k winners.",
    ))  # fmt: skip
    return out


def _wins_figure(ctx: Context, rows: list[dict]) -> plots.Figure:
    """Each strategy's win share in each arm, against an even share (1 / captains)."""
    players = [int(ctx.arm_values(a)["players"] or 0) for a in ctx.arm_names]
    even = 1.0 / max(players) if players and min(players) == max(players) else None
    labels = [f"{ctx.arm_label(r['arm'])}: {r['strategy']}" if len(ctx.arm_names) > 1
              else r["strategy"] for r in rows]  # fmt: skip
    return plots.interval_figure(
        "overview_wins", "Win share by strategy",
        "Each strategy's win share with its 95% interval"
        + ("; the dashed line is an even share (one in the number of captains)." if even else "."),
        labels, [r["win"] for r in rows], [r["win_low"] for r in rows],
        [r["win_high"] for r in rows], xlabel="win share (%)", reference=even,
        reference_label="an even share" if even else "", scale=100,
    )  # fmt: skip
