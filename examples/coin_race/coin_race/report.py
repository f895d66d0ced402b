"""The coin race's report: an overview of how games end and who wins, from stored games only."""

from __future__ import annotations

import polars as pl

from sim.report import plots
from sim.report.answers import Answer, Estimate, Label, Row, sentence
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.render import Section
from sim.report.spec import GameReport
from sim.report.table import Column, Table


def overview(ctx: Context) -> Section:
    section = Section("overview", "Overview", "Who wins the race, by strategy?")
    rows = []
    for arm in ctx.arm_names:
        seats = ctx.results.arm_seats(arm)
        for strategy, n in (
            seats.group_by("strategy", maintain_order=True).len().sort("strategy").iter_rows()
        ):
            rows.append(
                {
                    "arm": arm,
                    "strategy": strategy,
                    "seat_games": n,
                    **prefixed(ctx.measure(arm, f"win_share.{strategy}"), "win"),
                }
            )
    section.add(plots.interval_figure(
        "coin_race_wins", "Win share by strategy",
        "Each strategy's win share with its 95% interval; the dashed line is an even 50%.",
        [f"{r['arm']}: {r['strategy']}" for r in rows], [r["win"] for r in rows],
        [r["win_low"] for r in rows], [r["win_high"] for r in rows],
        xlabel="win share (%)", reference=0.5, reference_label="an even share", scale=100,
    ))  # fmt: skip
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
    section.answers.append(_who_wins(rows))
    return section


def _who_wins(rows: list[dict]) -> Answer:
    """'bold wins 70.0% (...) of its seat-games, steady 30.0% (...)': the best and the worst
    strategy (named with its arm when there are several), every one in the rows."""
    arms = len({r["arm"] for r in rows})
    said = [Row(f"{r['arm']}: {r['strategy']}" if arms > 1 else r["strategy"],
                Estimate(f"coin_race.win@{r['arm']}.{r['strategy']}", "win share", r["win"],
                         r["win_low"], r["win_high"], unit="pct"),
                key=f"win_share.{r['strategy']}") for r in rows]  # fmt: skip
    best = max(said, key=lambda r: r.figure.value)
    worst = min(said, key=lambda r: r.figure.value)
    parts = sentence(Label(best.where), " wins ", best.figure, " of its seat-games")
    if worst is not best:
        parts += sentence(", ", Label(worst.where), " ", worst.figure)
    return Answer("coin_race.wins", "Who wins the race, by strategy?", parts + ["."],
                  section="overview", rows=said, rows_head="strategy")  # fmt: skip


REPORT = GameReport(
    title="Coin race balance report", sections={}, overview=overview, seat_columns=("dashes",)
)
