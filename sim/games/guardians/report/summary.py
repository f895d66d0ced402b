"""Overview: every arm's outcome rates, game length and scores; win share by strategy and by
seat. Shown in every report (and alone when the experiment names no section)."""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.games.guardians.report import words
from sim.games.guardians.report.compared import OUTCOMES
from sim.measures import Value
from sim.report import data_quality, fmt, plots
from sim.report.answers import Answer, Estimate, Label, Row, sentence
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.render import Finding, Section
from sim.report.table import Column, Table
from sim.stats.interval_columns import high_key, interval_in, low_key

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
        for o in OUTCOMES:
            row.update(prefixed(ctx.measure(arm, f"{o}_rate"), o))
        row.update(prefixed(ctx.measure(arm, "mean_turns"), "turns"))
        if "rounds" in g.columns:
            row.update(prefixed(ctx.measure(arm, "mean_rounds"), "rounds"))
        row.update(prefixed(ctx.measure(arm, "mean_score"), "score"))
        rows.append(row)
        players = int(g.get_column("players")[0])
        seat_row = {
            **ctx.arm_values(arm),
            "games": n,
            "fair": ctx.measure(arm, "decided_rate").value / players if n else np.nan,
        }
        for seat in sorted(s.get_column("seat").unique().to_list()):
            seat_row.update(prefixed(ctx.measure(arm, f"win_share.seat.{seat}"), f"seat{seat + 1}"))
        seat_rows.append(seat_row)
        seat_games = dict(s.group_by("strategy", maintain_order=True).len().iter_rows())
        for strategy in sorted(seat_games):
            strat_rows.append(
                {
                    "arm": arm,
                    **ctx.arm_values(arm),
                    "strategy": strategy,
                    "seat_games": seat_games[strategy],
                    **prefixed(ctx.measure(arm, f"win_share.{strategy}"), "win"),
                    **prefixed(ctx.measure(arm, f"seat_mean.score.{strategy}"), "score"),
                }
            )
    data = pl.DataFrame(rows)
    ident = ctx.arm_columns()
    shown = [o for o in OUTCOMES if any(row[o] > 0 for row in rows)]
    section.add(_outcome_figure(data, shown, ctx))  # the picture first
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
        cols = [
            *ident,
            Column.text("strategy", "strategy"),
            Column.count("seat_games", "seat-games"),
            Column.pct_ci("win", "win share"),
            Column.num_ci("score", "mean score"),
        ]
        section.add(
            Table(
                "overview_strategies",
                "Win share by strategy",
                pl.DataFrame(strat_rows),
                cols,
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
    total = sum(row["games"] for row in rows)
    cap = ctx.measure(ctx.results.all_games(), "cap_rate")
    section.findings.append(
        Finding(
            f"{fmt.integer(total)} games in {len(rows)} arm{'s' if len(rows) != 1 else ''}; "
            f"invaders won (raid) {_range(data, 'raid')} of the games; "
            f"{fmt.pct_ci(cap.value, cap.low, cap.high)} hit the turn cap."
        )
    )
    section.answers.append(_answer(ctx, rows, cap, total))
    return section


def _pct(key: str, label: str, d: dict) -> Estimate:
    return Estimate(key, label, d["value"], d["low"], d["high"], unit="pct", signed=False)


def _answer(ctx: Context, rows: list[dict], cap: Value, total: int) -> Answer:
    """'The invaders win 29.0% (27.4 to 30.7) of the games; ...': the raid rate (the range over
    the arms, each arm's in the rows), and the turn cap only when a game reached it."""
    key = "overview.outcomes"
    raid = words.term("invaders' wins", "invaders win")
    capped = _pct(f"{key}.cap", "share of games that hit the turn cap", cap.as_dict())
    more = (sentence(capped, " of all games hit the ", words.term("turn cap"), ".")
            if cap.value > 0 else [])  # fmt: skip
    table = [
        Row(
            ctx.arm_label(r["arm"]),
            _pct(f"{key}.raid@{r['arm']}", "raid rate", _d(r, "raid")),
            key=r["arm"],
        )
        for r in rows
    ]
    if len(rows) == 1:
        r = rows[0]
        head = _pct(f"{key}.raid", "raid rate", _d(r, "raid"))
        parts = sentence(
            "The ", raid, " ", head, " of the games; the board is cleared in ",
            _pct(f"{key}.victory", "victory rate", _d(r, "victory")),
            " and play stalls in ", _pct(f"{key}.stall", "stall rate", _d(r, "stall")), ".",
        )  # fmt: skip
        table = []
    elif len({r["raid"] for r in rows}) == 1:
        head = None
        parts = sentence("The ", raid, " ", _pct(f"{key}.raid", "raid rate", _d(rows[0], "raid")),
                         " of the games in every arm.")  # fmt: skip
        table = []
    else:
        lo = min(rows, key=lambda r: r["raid"])
        hi = max(rows, key=lambda r: r["raid"])
        head = None
        parts = sentence(
            "The ", raid, " from ", _pct(f"{key}.raid_low", "lowest raid rate", _d(lo, "raid")),
            " (", Label(ctx.arm_words(lo["arm"])), ") to ",
            _pct(f"{key}.raid_high", "highest raid rate", _d(hi, "raid")),
            " (", Label(ctx.arm_words(hi["arm"])), ") of the games.",
        )  # fmt: skip
    warn = data_quality.cap_warning(cap.value * total, total, words.OUTCOMES["cap"])
    return Answer(
        key=key,
        question="How do the games end?",
        parts=parts,
        headline=head,
        category="",
        quality=data_quality.Quality(
            games=total, basis="games", mde=float("nan"), warnings=(warn,) if warn else ()
        ),
        section=ID,
        more=more,
        rows=table,
        rows_head="arm",
    )


def _d(row: dict, key: str) -> dict:
    return dict(zip(("value", "low", "high"), interval_in(row, key), strict=True))


_OUTCOME_HELP = {
    "victory": "The board was cleared of invaders: the top scorer wins.",
    "stall": "A full round of shots without a hit: the top scorer wins.",
    "raid": "The invaders reached the planet: everybody loses.",
    "cap": "Stopped at the turn cap (a safety net): nobody wins.",
}


def _range(data: pl.DataFrame, key: str) -> str:
    values = data.get_column(key).to_numpy()
    if values.size == 1:
        return fmt.pct_ci(values[0], data[low_key(key)][0], data[high_key(key)][0])
    return f"{fmt.pct(values.min())} to {fmt.pct(values.max())}"


def _outcome_figure(data: pl.DataFrame, outcomes: list[str], ctx: Context) -> plots.Figure:
    labels = [
        f"{ctx.arm_label(a)} (n={n:,})"
        for a, n in zip(
            data.get_column("arm").to_list(), data.get_column("games").to_list(), strict=True
        )
    ]
    height = max(2.4, (0.3 if len(labels) <= 20 else 0.17) * len(labels) + 1.3)
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
