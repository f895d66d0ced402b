"""The Guardians report: its sections by the experiment's `report:` names, its overview, and
the sections a report infers from what the arms vary. Computed from the stored tables only."""

from __future__ import annotations

from sim.games.guardians.columns import NO_CHOICE, SEAT_STATS
from sim.games.guardians.report import summary
from sim.plugins import trajectory
from sim.report.data import Results
from sim.report.spec import GameReport

METHODS = (
    "Break-even prices: the win-share uplift of the buying strategy at each price, smoothed to be "
    "monotone in price (isotonic regression), crosses zero at the break-even (linear "
    "interpolation). Its 95% interval holds the prices where a paired z test of 'the uplift is "
    "zero there' does not reject, the curve read as a straight line between tried prices (a "
    "Fieller-type interval; open-ended where a crossing beyond the range cannot be excluded).",
    "What-if and mine comparisons test many metrics at once: a difference counts as significant "
    "only after Holm's correction for the number of metrics compared (the p (Holm) column). "
    "Effect size = difference / standard deviation of the baseline's per-game values; the tables "
    "are sorted by its size.",
)

_PRICED = (
    ("missile.cost", "guardians_missile_pricing"),
    ("upgrade.cost", "guardians_upgrade_pricing"),
    ("power_up.cost", "guardians_power_up_pricing"),
)


def infer_sections(results: Results) -> list[str]:
    """Pricing when a price varies, the mine's value when the mine is switched, else a
    what-if when there is a baseline to compare with."""
    varying = set(results.varying())
    inferred = [name for key, name in _PRICED if key in varying]
    if "mine.enabled" in varying:
        inferred.append("guardians_mine_value")
    if not inferred and results.baseline and len(results.arms) > 1:
        inferred.append("guardians_what_if")
    return inferred


REPORT = GameReport(
    title="Guardians of Space balance report",
    overview=summary.build,
    methods=METHODS,
    seat_columns=(
        *(s.column for s in SEAT_STATS if s.per_game),
        "missile_points",
        "turns_played",
        *trajectory.SEAT_COLUMNS,
        NO_CHOICE,
    ),  # fmt: skip
    infer=infer_sections,
)


def game_report() -> GameReport:
    """The plug-in's `report`."""
    return REPORT
