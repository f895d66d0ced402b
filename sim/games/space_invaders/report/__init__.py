"""The Space Invaders report: its sections by the experiment's `report:` names, its overview,
and the sections a report infers from what the arms vary. Computed from the stored tables
only (polars): nothing here imports the engine, the strategies or numba."""

from __future__ import annotations

from sim.games.space_invaders.columns import POWER_COLUMNS, TOKEN_COLUMNS
from sim.games.space_invaders.report import chart, difficulty, overview
from sim.report.data import Results
from sim.report.spec import GameReport

SECTIONS = {"invaders_difficulty": difficulty.build, "invaders_chart": chart.build}

METHODS = (
    "Level steps, power uplift and sensitivity compare two arms on the same games (the same "
    "seed deals the same cards and draws the same launch errors in every arm): the per-game "
    "differences in winning get a paired t interval.",
    "The re-derived chart: for each player count, level and chart number, the win rate along "
    "the values tried is smoothed to be monotone (isotonic regression) and read where it "
    "crosses the level's target (linear interpolation); its 95% interval holds the values "
    "where a paired z test of 'the win rate is the target there' does not reject (the rate "
    "read as a straight line between values tried; the same games at every value).",
    "The invader cards, the board's measurements and the players' dexterity are assumptions "
    "(docs/games/space_invaders/rules.md): the sensitivity table shows how the answers move with "
    "them.",
)


def infer_sections(results: Results) -> list[str]:
    """The chart when an arm scales a chart number, the difficulty table when the level
    varies."""
    values = [arm.ruleset_values for arm in results.arms]
    out = []
    if len({v.get("setup.level") for v in values}) > 1:
        out.append("invaders_difficulty")
    if any(v.get("search.knob", "none") != "none" for v in values):
        out.append("invaders_chart")
    return out


REPORT = GameReport(
    title="Space Invaders difficulty report",
    sections=SECTIONS,
    overview=overview.build,
    methods=METHODS,
    seat_columns=(*POWER_COLUMNS, *TOKEN_COLUMNS, *overview.SEAT_COUNTS),
    infer=infer_sections,
)


def game_report() -> GameReport:
    """The plug-in's `report`."""
    return REPORT
