"""What an optional action is worth: arms that differ from the baseline arm only in how some
seats decide (a strategy parameter that takes or declines the action), compared with it on
the same games (game i of every arm plays the same seed, so a game without a different
decision plays out identically). A cooperative game compares the team's results per game; a
competitive one compares each seat that plays differently with the same seat of the same
game in the baseline. Nothing here knows a game: the sections say which columns to compare.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.report.context import Context
from sim.stats.paired import Difference, paired_difference


def option_pairs(ctx: Context, base: str) -> list[tuple[str, str]]:
    """(arm, its reference) for every arm that plays the same strategies as another arm with
    some parameters changed: the reference is the arm of the same players and rules whose
    seats play those strategies with their defaults (the baseline arm if none does). An arm
    whose reference would be itself is left out."""
    pairs = []
    for name in ctx.arm_names:
        info = ctx.results.arm(name)
        plain = tuple(label.split("(")[0] for label in info.lineup)
        same = [
            other
            for other in ctx.arm_names
            if ctx.results.arm(other).players == info.players
            and ctx.results.arm(other).rules == info.rules
        ]
        reference = next((o for o in same if ctx.results.arm(o).lineup == plain), None)
        if reference is None and base in same:
            reference = base
        if reference is not None and reference != name:
            pairs.append((name, reference))
    return pairs


def team_difference(ctx: Context, arm: str, base: str, column: str) -> Difference:
    """arm - base of a games-table column, paired by game."""
    a = ctx.results.arm_games(arm).select("game", column)
    b = ctx.results.arm_games(base).select("game", column)
    both = a.join(b, on="game", suffix="_base").sort("game")
    return paired_difference(
        both.get_column(column).to_numpy().astype(float),
        both.get_column(f"{column}_base").to_numpy().astype(float),
    )


def deviators(ctx: Context, arm: str, base: str) -> pl.DataFrame:
    """The arm's seats whose strategy (label, parameters included) differs from the baseline
    seat of the same game, joined with that seat's row (columns suffixed `_base`)."""
    a = ctx.results.arm_seats(arm)
    b = ctx.results.arm_seats(base)
    both = a.join(b, on=["game", "seat"], suffix="_base")
    return both.filter(pl.col("strategy") != pl.col("strategy_base"))


def deviator_difference(frame: pl.DataFrame, column: str) -> Difference:
    """The deviating seats' `column` minus the baseline seats', paired by game (a game's
    deviators averaged)."""
    per_game = frame.group_by("game").agg(
        pl.col(column).cast(pl.Float64).mean(), pl.col(f"{column}_base").cast(pl.Float64).mean()
    )
    return paired_difference(
        per_game.get_column(column).to_numpy(), per_game.get_column(f"{column}_base").to_numpy()
    )


def per_game_total(ctx: Context, arm: str, columns: tuple[str, ...]) -> np.ndarray:
    """Per game (in game order), the sum over its seats of the seats-table `columns`."""
    seats = ctx.results.arm_seats(arm)
    total = pl.sum_horizontal(pl.col(c) for c in columns)
    per_game = seats.group_by("game").agg(total.sum().alias("n")).sort("game")
    return per_game.get_column("n").to_numpy()
