"""The alien-raid report: its sections by the experiment's `report:` names, its overview, and
the per-seat columns they read. Computed from the stored tables only (polars): nothing here
imports the engine, the strategies or numba."""

from __future__ import annotations

from sim.games.alien_raid.report import cards, credit_tasks, options, overview, raid_catch
from sim.plugins import trajectory
from sim.report.spec import GameReport

METHODS = (
    "Randomised probes: once per game, a captain's purchase of one offered card "
    "(probe_buy), first reward choice (probe_reward) and first credit decision "
    "(probe_credit) is made by a fair coin, so the two sides of the coin face the same "
    "situations; their difference in final humans and win share (a 95% normal interval, each "
    "game one unit) is the effect of the decision, free of the bias of who chooses what.",
    "A card's fair price (break-even) is its price plus the humans buying it adds; a card is "
    "priced above or below its worth when that interval lies wholly below or above the price "
    "(with at least 30 probes on each side).",
    "Optional steps: an arm seats one captain (rotating through the seats) who keeps a "
    "bonus-humans card or repays credits early; on the same games, that captain's win share "
    "and final humans against the same seat of the baseline arm (paired normal intervals).",
    "Seat fairness: a chi-square (or exact multinomial) test that every seat wins equally "
    "often, Holm-corrected over the arms; a shared win counts 1/k to each winner.",
    "The card catalog is an assumption (docs/games/alien_raid/rules.md): every section says "
    "so when an arm plays it, and any card field can be changed like a rule key "
    "(catalog.<section>.<card>.<field>) to see how an answer moves.",
)

REPORT = GameReport(
    title="Alien raid balance report",
    overview=overview.build,
    methods=METHODS,
    seat_columns=tuple(
        dict.fromkeys(
            (
                *overview.READS,
                *cards.READS,
                *credit_tasks.READS,
                *raid_catch.READS,
                *options.READS,
                *trajectory.SEAT_COLUMNS,
            )
        )
    ),  # fmt: skip
)


def game_report() -> GameReport:
    """The plug-in's `report`."""
    return REPORT
