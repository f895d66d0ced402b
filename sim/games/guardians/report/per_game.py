"""The per-game view of a Guardians arm the comparisons read: outcome indicators, length,
scores and the table's totals of the per-seat statistics; and the metrics a what-if compares."""

from __future__ import annotations

import polars as pl

from sim.games.guardians.columns import SEAT_STATS
from sim.report.data import Results
from sim.report.metrics import Metric

OUTCOMES = ("victory", "stall", "raid", "cap")

# per-seat statistics summed over the table for a per-game view (column -> what it counts)
SEAT_TOTALS = {stat.column: stat.per_game for stat in SEAT_STATS if stat.per_game}


def per_game(results: Results, arm: str) -> pl.DataFrame:
    """One row per game of the arm: outcome indicators, length, scores and table totals.

    Columns: game, raid/victory/stall/cap (0/1), turns, rounds (if stored), total_score,
    top_score, winner_score (NaN without a winner), score_seat<k>, win_seat<k>, and the sum
    over seats of every SEAT_TOTALS statistic present.
    """
    g = results.arm_games(arm)
    s = results.arm_seats(arm)
    cols: list[pl.Expr] = [pl.col("game")]
    for o in OUTCOMES:
        cols.append((pl.col("outcome") == o).cast(pl.Float64).alias(o))
    cols.append(pl.col("turns").cast(pl.Float64))
    if "rounds" in g.columns:
        cols.append(pl.col("rounds").cast(pl.Float64))
    out = g.select(cols)
    totals = [
        pl.col("score").sum().cast(pl.Float64).alias("total_score"),
        pl.col("score").max().cast(pl.Float64).alias("top_score"),
        pl.col("score")
        .filter(pl.col("win_share") > 0)
        .max()
        .cast(pl.Float64)
        .alias("winner_score"),
    ]
    totals += [pl.col(c).sum().cast(pl.Float64).alias(c) for c in SEAT_TOTALS if c in s.columns]
    agg = s.group_by("game").agg(totals)
    seats = int(s.get_column("seat").max()) + 1 if s.height else 0
    wide = s.select("game", "seat", "score", "win_share")
    for k in range(seats):
        one = wide.filter(pl.col("seat") == k).select(
            "game",
            pl.col("score").cast(pl.Float64).alias(f"score_seat{k}"),
            pl.col("win_share").alias(f"win_seat{k}"),
        )
        agg = agg.join(one, on="game", how="left")
    return out.join(agg, on="game", how="left").sort("game")


# the metrics the what-ifs compare: key -> (label, unit, the tolerance its changes are judged
# against), written once for every section that compares arms game by game
GAME_METRICS = {
    "raid": ("invaders win (raid rate)", "pp", "outcome_rate"),
    "victory": ("board cleared (victory rate)", "pp", "outcome_rate"),
    "stall": ("stalled (stall rate)", "pp", "outcome_rate"),
    "cap": ("cut at the turn cap", "pp", "outcome_rate"),
    "turns": ("game length (turns)", "num", "game_length"),
    "rounds": ("game length (rounds)", "num", ""),
    "total_score": ("total score of the table (points)", "num", "score"),
    "winner_score": ("winner's score (points)", "num", "score"),
    "win_seat0": ("first player's win share", "pp", "win_share"),
}


def game_metrics(keys: list[str], headlines: set[str], players: int) -> list[Metric]:
    """The GAME_METRICS named, in that order (the `headlines` among them marked), then every
    seat's score."""
    out = []
    for key in keys:
        label, unit, tolerance = GAME_METRICS[key]
        out.append(Metric(key, label, unit, tolerance=tolerance, headline=key in headlines))
    return out + [
        Metric(f"score_seat{k}", f"score of seat {k + 1} (points)", "num", tolerance="score")
        for k in range(players)
    ]


def standard_metrics(frame: pl.DataFrame, players: int) -> list[Metric]:
    """The metrics a what-if compares, in display order (rates first)."""
    rounds = ["rounds"] if "rounds" in frame.columns else []
    keys = ["raid", "victory", "stall", "cap", "turns", *rounds, "total_score", "winner_score",
            "win_seat0"]  # fmt: skip
    headlines = {"raid", "victory", "turns", "total_score", "winner_score", "win_seat0"}
    m = game_metrics(keys, headlines, players)
    for key, label in SEAT_TOTALS.items():
        if key in frame.columns:
            m.append(Metric(key, f"{label} per game (all players)", "num", digits=2))
    return m
