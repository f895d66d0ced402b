"""The report of every plain-Python game: who wins from which seat and how long and close the
games are, per arm, and the lab's `quality` section (is it a good game?), from the stored
games only (never the game loop)."""

from __future__ import annotations

import polars as pl

from sim.plain.columns import DECISIONS, NO_CHOICE, TURNS, TURNS_PLAYED
from sim.plain.game import PlainGame
from sim.plugins.trajectory import SEAT_COLUMNS as TRAJECTORY
from sim.report.answers import Answer, Estimate, Label, Row, sentence
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.render import Section
from sim.report.spec import GameReport
from sim.report.table import Column, Table


def overview(ctx: Context) -> Section:
    section = Section("overview", "Overview", "Who wins, from which seat, and how close is it?")
    seat_rows, game_rows, first = [], [], []
    for arm in ctx.arm_names:
        first.append(Row(ctx.arm_label(arm), _first(arm, ctx.measure(arm, "win_share.seat.0"))))
        seats, games = ctx.results.arm_seats(arm), ctx.results.arm_games(arm)
        held_seats = (
            seats.group_by("seat", "strategy", maintain_order=True).len().sort("seat", "strategy")
        )
        for seat, strategy, n in held_seats.iter_rows():
            held = ctx.results.stored(arm).where(seats=pl.col("strategy") == strategy)
            win = ctx.measure(held, f"win_share.seat.{seat}")
            seat_rows.append({"arm": ctx.arm_label(arm), "seat": f"seat {seat + 1}",
                              "strategy": strategy, "games": n,
                              **prefixed(win, "win")})  # fmt: skip
        game_rows.append({"arm": ctx.arm_label(arm), "games": games.height,
                          **prefixed(ctx.measure(arm, f"mean_{TURNS}"), "turns"),
                          **prefixed(ctx.measure(arm, f"mean_{DECISIONS}"), "decisions"),
                          **prefixed(ctx.measure(arm, "lead_changes"), "lead"),
                          **prefixed(ctx.measure(arm, "mean_margin"), "margin")})  # fmt: skip
    section.add(Table("plain_seats", "Win share by seat", pl.DataFrame(seat_rows), [
        Column.text("arm", "arm"), Column.text("seat", "seat"),
        Column.text("strategy", "strategy"), Column.count("games", "games"),
        Column.pct_ci("win", "win share", digits=2),
    ]))  # fmt: skip
    section.add(Table("plain_games", "Length and closeness of the games",
                      pl.DataFrame(game_rows), [
        Column.text("arm", "arm"), Column.count("games", "games"),
        Column.num_ci("turns", "turns per game"),
        Column.num_ci("decisions", "decisions per game"),
        Column.num_ci("lead", "lead changes per game", digits=2),
        Column.num_ci("margin", "final margin, first to second"),
    ]))  # fmt: skip
    section.answers.append(_first_seat(first))
    return section


def _first(arm: str, v) -> Estimate:
    return Estimate(f"overview.first_seat@{arm}", "seat 1's win share", v.value, v.low, v.high,
                    unit="pct", digits=1)  # fmt: skip


def _first_seat(rows: list[Row]) -> Answer:
    """'Seat 1 (who starts) wins 53.1% (...) of the games in hold at 20', the range over the
    arms when there are several (each arm's in the rows)."""
    lo = min(rows, key=lambda r: r.figure.value)
    hi = max(rows, key=lambda r: r.figure.value)
    if lo is hi:
        parts = sentence("Seat 1 (who starts) wins ", lo.figure, " of the games.")
    else:
        parts = sentence("Seat 1 (who starts) wins from ", lo.figure, " (", Label(lo.where),
                         ") to ", hi.figure, " (", Label(hi.where), ") of the games.")  # fmt: skip
    return Answer("overview.first_seat", "How often does the first player win?", parts,
                  headline=lo.figure if lo is hi else None, section="overview",
                  rows=rows if len(rows) > 1 else [], rows_head="arm")  # fmt: skip


def game_report(game: PlainGame) -> GameReport:
    return GameReport(
        title=f"{game.title} balance report",
        overview=overview,
        methods=(
            "A turn is a run of decisions by one seat; a decision with a single legal "
            "action counts too.",
        ),
        seat_columns=(*TRAJECTORY, NO_CHOICE, TURNS_PLAYED, DECISIONS),
    )
