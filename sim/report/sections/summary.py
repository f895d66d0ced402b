"""Overview: every arm's outcome rates, game length and scores; win share by strategy and by
seat. Shown in every report (and alone when the experiment names no section)."""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.report import fmt, plots
from sim.report.context import Context, describe_params
from sim.report.metrics import OUTCOMES, mean, prefixed, rate
from sim.report.render import Finding, Section
from sim.report.table import Column, Table

ID = "overview"
TITLE = "Overview"


def build(ctx: Context) -> Section:
    r = ctx.results
    section = Section(
        ID, TITLE, "What happened in each arm: how games end, how long they last, who wins."
    )
    rows = []
    seat_rows = []
    strat_rows = []
    for arm in ctx.arm_names:
        g = r.arm_games(arm)
        s = r.arm_seats(arm)
        n = g.height
        row = ctx.arm_values(arm)
        row["games"] = n
        counts = dict(g.group_by("outcome").len().iter_rows())
        for o in OUTCOMES:
            row.update(prefixed(rate(counts.get(o, 0), n), o))
        row.update(prefixed(mean(g.get_column("turns").to_numpy()), "turns"))
        if "rounds" in g.columns:
            row.update(prefixed(mean(g.get_column("rounds").to_numpy()), "rounds"))
        row.update(prefixed(mean(s.get_column("score").to_numpy()), "score"))
        rows.append(row)
        players = int(g.get_column("players")[0])
        decided = float(s.get_column("win_share").sum())
        by_seat = s.group_by("seat").agg(pl.col("win_share").sum().alias("wins"), pl.len())
        seat_row = {
            **ctx.arm_values(arm),
            "games": n,
            "fair": decided / n / players if n else np.nan,
        }
        for seat, wins, count in by_seat.sort("seat").iter_rows():
            seat_row.update(prefixed(rate(wins, count), f"seat{seat + 1}"))
        seat_rows.append(seat_row)
        by_strat = s.group_by("strategy").agg(
            pl.col("win_share").sum().alias("wins"),
            pl.len().alias("seat_games"),
            pl.col("score").alias("scores"),
        )
        for strategy, wins, count, scores in by_strat.sort("strategy").iter_rows():
            strat_rows.append(
                {
                    "arm": arm,
                    **ctx.arm_values(arm),
                    "strategy": strategy,
                    "seat_games": count,
                    **prefixed(rate(wins, count), "win"),
                    **prefixed(mean(np.asarray(scores, float)), "score"),
                }
            )
    data = pl.DataFrame(rows)
    ident = ctx.arm_columns()
    shown = [o for o in OUTCOMES if any(row[o] > 0 for row in rows)]
    cols = [*ident, Column.count("games", "games")]
    cols += [Column.pct_ci(o, f"{o} rate", help=_OUTCOME_HELP[o]) for o in shown]
    if "rounds" in data.columns:
        cols.append(
            Column.num_ci(
                "rounds",
                "rounds",
                help="Mean rounds per game (every player "
                "plays once a round); turns are in the CSV.",
            )
        )
    else:
        cols.append(Column.num_ci("turns", "turns", help="Mean player turns per game."))
    cols.append(
        Column.num_ci(
            "score",
            "score per player",
            help="Mean final score of a player (points held at the end).",
        )
    )
    section.add(
        Table(
            "overview_outcomes",
            "Outcomes by arm",
            data,
            cols,
            note="Rates with 95% Wilson intervals; means with 95% normal intervals.",
        )
    )
    if len(strat_rows) > len(rows):
        section.add(
            Table(
                "overview_strategies",
                "Win share by strategy",
                pl.DataFrame(strat_rows),
                [
                    *ident,
                    Column.text("strategy", "strategy"),
                    Column.count("seat_games", "seat-games"),
                    Column.pct_ci("win", "win share"),
                    Column.num_ci("score", "mean score"),
                ],
                note="Win share: the share of its seat-games a strategy won (a shared win counts "
                "1/k).",
            )
        )
    max_seats = max(int(ctx.arm_values(a)["players"]) for a in ctx.arm_names)
    section.add(
        Table(
            "overview_seats",
            "Win share by seat",
            pl.DataFrame(seat_rows, infer_schema_length=None),
            [
                *ident,
                Column.count("games", "games"),
                *[Column.pct_ci(f"seat{k}", f"seat {k}") for k in range(1, max_seats + 1)],
                Column.pct("fair", "fair share", help="Share of games with a winner / players."),
            ],
            note="Seat 1 plays first. The fair share is what every seat would win if the seat did "
            "not matter: the share of games that have a winner, divided by the players.",
        )
    )
    if 1 < len(rows) <= 40 and shown:  # shown: none for a game without these outcomes
        section.add(_outcome_figure(data, shown, ctx))
    total = sum(row["games"] for row in rows)
    section.findings.append(
        Finding(
            f"{fmt.integer(total)} games in {len(rows)} arm{'s' if len(rows) != 1 else ''}; "
            f"invaders won (raid) {_range(data, 'raid')} of the games."
        )
    )
    return section


_OUTCOME_HELP = {
    "victory": "The board was cleared of invaders: the top scorer wins.",
    "stall": "A full round of shots without a hit: the top scorer wins.",
    "raid": "The invaders reached the planet: everybody loses.",
    "cap": "Stopped at the turn cap (a safety net): nobody wins.",
}


def _range(data: pl.DataFrame, key: str) -> str:
    values = data.get_column(key).to_numpy()
    if values.size == 1:
        return fmt.pct_ci(values[0], data[f"{key}_low"][0], data[f"{key}_high"][0])
    return f"{fmt.pct(values.min())} to {fmt.pct(values.max())}"


def _outcome_figure(data: pl.DataFrame, outcomes: list[str], ctx: Context) -> plots.Figure:
    keys = ctx.label_columns()
    labels = [
        (describe_params(ctx.arm_values(a), keys) if keys else a) + f" (n={n:,})"
        for a, n in zip(
            data.get_column("arm").to_list(), data.get_column("games").to_list(), strict=True
        )
    ]
    height = max(2.4, 0.3 * len(labels) + 1.3)
    fig, axes = plots.new(1, 1, width=9, height=height)
    ax = axes[0, 0]
    y = np.arange(len(labels))[::-1]
    left = np.zeros(len(labels))
    colors = {"victory": "#2ca02c", "stall": "#1f77b4", "raid": "#d62728", "cap": "#7f7f7f"}
    for o in outcomes:
        v = data.get_column(o).to_numpy() * 100
        ax.barh(y, v, left=left, color=colors[o], alpha=0.85, label=o)
        left += v
    raid = data.get_column("raid").to_numpy() * 100
    if "raid" in outcomes:
        start = sum(data.get_column(o).to_numpy() * 100 for o in outcomes[: outcomes.index("raid")])
        lo = data.get_column("raid_low").to_numpy() * 100
        hi = data.get_column("raid_high").to_numpy() * 100
        ax.errorbar(
            start + raid,
            y,
            xerr=np.vstack([raid - lo, hi - raid]),
            fmt="none",
            ecolor="black",
            capsize=2,
            elinewidth=1,
        )
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of games (%)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(outcomes))
    return plots.finish(
        fig,
        "overview_outcomes",
        "How games end, by arm",
        "Share of games by outcome; whiskers: 95% interval of the raid rate.",
    )
