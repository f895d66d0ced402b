"""Pig's report: who wins from which seat, and how long and close the games are, per arm, and
the lab's `quality` section (is it a good game?), from the stored games only (never the
engine)."""

from __future__ import annotations

import polars as pl

from pig.columns import QUALITY
from sim.measures import Value
from sim.report import plots
from sim.report.answers import Answer, Estimate, Label, joined, sentence
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.render import Section
from sim.report.spec import GameReport
from sim.report.table import Column, Table


def overview(ctx: Context) -> Section:
    section = Section("overview", "Overview", "Who wins, from which seat, and how close is it?")
    seat_rows, game_rows, first = [], [], []
    for arm in ctx.arm_names:
        seats, games = ctx.results.arm_seats(arm), ctx.results.arm_games(arm)
        by = seats.group_by("seat", "strategy", maintain_order=True).len()
        for seat, strategy, n in by.sort("seat").iter_rows():
            held = ctx.results.stored(arm).where(seats=pl.col("strategy") == strategy)
            win = ctx.measure(held, f"win_share.seat.{seat}")
            seat_rows.append({"arm": ctx.arm_label(arm), "seat": f"seat {seat + 1}",
                              "strategy": strategy, "games": n,
                              **prefixed(win, "win")})  # fmt: skip
        first.append((ctx.arm_label(arm), ctx.measure(arm, "win_share.seat.0")))
        game_rows.append({"arm": ctx.arm_label(arm), "games": games.height,
                          **prefixed(ctx.measure(arm, "mean_turns"), "turns"),
                          **prefixed(ctx.measure(arm, "lead_changes"), "lead"),
                          **prefixed(ctx.measure(arm, "loser_score"), "loser")})  # fmt: skip
    section.add(plots.interval_figure(
        "pig_seats", "Win share by seat",
        "Each seat's win share with its 95% interval; the dashed line is a fair seat's 50%.",
        [f"{r['arm']}: {r['seat']} ({r['strategy']})" for r in seat_rows],
        [r["win"] for r in seat_rows], [r["win_low"] for r in seat_rows],
        [r["win_high"] for r in seat_rows], xlabel="win share (%)", reference=0.5,
        reference_label="a fair seat", scale=100,
    ))  # fmt: skip
    section.add(
        Table(
            "pig_seats",
            "Win share by seat",
            pl.DataFrame(seat_rows),
            [
                Column.text("arm", "arm"),
                Column.text("seat", "seat"),
                Column.text("strategy", "strategy"),
                Column.count("games", "games"),
                Column.pct_ci("win", "win share", digits=2),
            ],
        )
    )
    section.add(
        Table(
            "pig_games",
            "Length and closeness of the games",
            pl.DataFrame(game_rows),
            [
                Column.text("arm", "arm"),
                Column.count("games", "games"),
                Column.num_ci("turns", "turns per game"),
                Column.num_ci("lead", "lead changes per game", digits=2),
                Column.num_ci("loser", "loser's final score"),
            ],
        )
    )
    section.answers.append(_first_seat(first))
    return section


def _first_seat(first: list[tuple[str, Value]]) -> Answer:
    """'Seat 1 (who starts) wins 53.09% (53.00 to 53.19) of the games in optimal, ...'."""
    per_arm = [sentence(_share(label, r), " in ", Label(label)) for label, r in first]
    return Answer(key="pig.first_seat", question="How often does the first player win?",
                  parts=sentence("Seat 1 (who starts) wins ", joined(per_arm), "."),
                  section="overview")  # fmt: skip


def _share(arm: str, r: Value) -> Estimate:
    return Estimate(f"pig.first_seat@{arm}", "seat 1's win share", r.value, r.low, r.high,
                    unit="pct", digits=2)  # fmt: skip


def game_report() -> GameReport:
    return GameReport(
        title="Pig balance report",
        overview=overview,
        methods=("The loser's final score: the points the seat that did not win had banked.",),
        seat_columns=QUALITY,
    )
