"""The metrics a Guardians comparison of two arms reads game by game (the what-if and the mine
sections): each a measure of the registry (sim/measures), with its words, its unit and the
tolerance its changes are judged against."""

from __future__ import annotations

from sim.games.guardians.columns import SEAT_STATS
from sim.report.metrics import Metric
from sim.results import StoredArm

OUTCOMES = ("victory", "stall", "raid", "cap")

# per-seat statistics summed over the table for a per-game view (column -> what it counts)
SEAT_TOTALS = {stat.column: stat.per_game for stat in SEAT_STATS if stat.per_game}

# registry name -> (label, unit, the tolerance its changes are judged against)
GAME_METRICS = {
    "raid_rate": ("invaders win (raid rate)", "pp", "outcome_rate"),
    "victory_rate": ("board cleared (victory rate)", "pp", "outcome_rate"),
    "stall_rate": ("stalled (stall rate)", "pp", "outcome_rate"),
    "cap_rate": ("cut at the turn cap", "pp", "outcome_rate"),
    "mean_turns": ("game length (turns)", "num", "game_length"),
    "mean_rounds": ("game length (rounds)", "num", ""),
    "game_total.score": ("total score of the table (points)", "num", "score"),
    "winner_score": ("winner's score (points)", "num", "score"),
    "win_share.seat.0": ("first player's win share", "pp", "win_share"),
}


def game_metrics(names: list[str], headlines: set[str], players: int) -> list[Metric]:
    """The GAME_METRICS named, in that order (the `headlines` among them marked), then every
    seat's score."""
    out = []
    for name in names:
        label, unit, tolerance = GAME_METRICS[name]
        out.append(Metric(name, label, unit, tolerance=tolerance, headline=name in headlines))
    return out + [
        Metric(f"score.seat.{k}", f"score of seat {k + 1} (points)", "num", tolerance="score")
        for k in range(players)
    ]


def standard_metrics(arm: StoredArm, players: int) -> list[Metric]:
    """The metrics a what-if compares, in display order (rates first)."""
    rounds = ["mean_rounds"] if "rounds" in arm.games.columns else []
    names = ["raid_rate", "victory_rate", "stall_rate", "cap_rate", "mean_turns", *rounds,
             "game_total.score", "winner_score", "win_share.seat.0"]  # fmt: skip
    headlines = {"raid_rate", "victory_rate", "mean_turns", "game_total.score", "winner_score",
                 "win_share.seat.0"}  # fmt: skip
    m = game_metrics(names, headlines, players)
    for column, label in SEAT_TOTALS.items():
        if column in arm.seats.columns:
            m.append(Metric(f"game_total.{column}", f"{label} per game (all players)", "num",
                            digits=2))  # fmt: skip
    return m
