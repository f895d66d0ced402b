"""What an optional action is worth: arms that differ from the baseline arm only in how some
seats decide (a strategy parameter that takes or declines the action), compared with it on
the same games (game i of every arm plays the same seed, so a game without a different
decision plays out identically). A cooperative game compares the team's results per game; a
competitive one compares each seat that plays differently with the same seat of the same
game in the baseline. Nothing here knows a game: the sections say which columns to compare.
"""

from __future__ import annotations

import polars as pl

from sim.report.context import Context


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


def deviating(ctx: Context, arm: str, base: str) -> list[str]:
    """The strategies (labels, parameters included) of the arm's seats that differ from the
    baseline's seat of the same game: the registry's per-seat measures of these labels,
    paired, compare them with the same seats in the baseline (sim.measures.seats.SeatRatio)."""
    a = ctx.results.arm_seats(arm).select("game", "seat", "strategy")
    b = ctx.results.arm_seats(base).select("game", "seat", pl.col("strategy").alias("was"))
    moved = a.join(b, on=["game", "seat"]).filter(pl.col("strategy") != pl.col("was"))
    return sorted(moved.get_column("strategy").unique().to_list())
