"""The report of every plain-Python game: who wins from which seat and how long and close the
games are, per arm, and the lab's `quality` section (is it a good game?), from the stored
games only (never the game loop)."""

from __future__ import annotations

import polars as pl

from sim.games.base import QUALITY_SECTION
from sim.games.trajectory import SEAT_COLUMNS as TRAJECTORY
from sim.plain.columns import DECISIONS, NO_CHOICE, TURNS, TURNS_PLAYED
from sim.plain.game import PlainGame
from sim.report.context import Context
from sim.report.metrics import mean, prefixed, rate
from sim.report.render import Section
from sim.report.spec import GameReport, section_builders
from sim.report.table import Column, Table


def overview(ctx: Context) -> Section:
    section = Section("overview", "Overview", "Who wins, from which seat, and how close is it?")
    seat_rows, game_rows = [], []
    for arm in ctx.arm_names:
        seats, games = ctx.results.arm_seats(arm), ctx.results.arm_games(arm)
        by = seats.group_by("seat", "strategy").agg(pl.col("win_share").sum().alias("wins"),
                                                     pl.len())  # fmt: skip
        for seat, strategy, wins, n in by.sort("seat", "strategy").iter_rows():
            seat_rows.append({"arm": ctx.arm_label(arm), "seat": f"seat {seat + 1}",
                              "strategy": strategy, "games": n,
                              **prefixed(rate(wins, n), "win")})  # fmt: skip
        # the best score among those who did not win: how near the game came to going
        # another way
        runner_up = (seats.filter(pl.col("win_share") == 0).group_by("game")
                     .agg(pl.col("score").max()).get_column("score"))  # fmt: skip
        game_rows.append({"arm": ctx.arm_label(arm), "games": games.height,
                          **prefixed(mean(games.get_column(TURNS)), "turns"),
                          **prefixed(mean(games.get_column(DECISIONS)), "decisions"),
                          **prefixed(mean(games.get_column("lead_changes")), "lead"),
                          **prefixed(mean(runner_up), "runner_up")})  # fmt: skip
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
        Column.num_ci("runner_up", "best score of the seats that did not win"),
    ]))  # fmt: skip
    return section


def game_report(game: PlainGame) -> GameReport:
    return GameReport(
        title=f"{game.title} balance report",
        sections=section_builders(QUALITY_SECTION),
        overview=overview,
        methods=(
            "A turn is a run of decisions by one seat; a decision with a single legal "
            "action counts too.",
            "The best score of the seats that did not win: per game, the highest final score "
            "among them (a game everyone won has none).",
        ),
        seat_columns=(*TRAJECTORY, NO_CHOICE, TURNS_PLAYED, DECISIONS),
    )
