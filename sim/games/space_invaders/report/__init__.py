"""The Space Invaders report: its sections by the experiment's `report:` names, its overview,
and the sections a report infers from what the arms vary. Computed from the stored tables
only (polars): nothing here imports the engine, the strategies or numba."""

from __future__ import annotations

from sim.games.space_invaders.columns import POWER_COLUMNS, TOKEN_COLUMNS
from sim.games.space_invaders.report import options, overview
from sim.report.data import Results
from sim.report.spec import GameReport

METHODS = (
    "Level steps, power uplift and sensitivity compare two arms on the same games (the same "
    "seed deals the same cards and draws the same launch errors in every arm): the per-game "
    "differences in winning get a paired normal interval.",
    "Option values compare each arm with the baseline arm, the same table with one strategy "
    "parameter changed (an optional action never taken, or taken without judging), on the "
    "same games: paired normal intervals of the win and score differences.",
    "The invader cards, the board's measurements and the players' dexterity are assumptions "
    "(docs/games/space_invaders/rules.md): the sensitivity table shows how the answers move with "
    "them.",
)


def infer_sections(results: Results) -> list[str]:
    """The difficulty table when the level varies. (A chart for target win rates is a tune:
    experiments/tune_invaders_chart.yaml.)"""
    values = [arm.rules for arm in results.arms]
    return ["invaders_difficulty"] if len({v.get("setup.level") for v in values}) > 1 else []


REPORT = GameReport(
    title="Space Invaders difficulty report",
    overview=overview.build,
    methods=METHODS,
    seat_columns=(*POWER_COLUMNS, *TOKEN_COLUMNS, *overview.SEAT_COUNTS, *options.READS),
    infer=infer_sections,
)


def game_report() -> GameReport:
    """The plug-in's `report`."""
    return REPORT
