"""The alien-raid report sections, by the name an experiment's `report:` list uses. Each is
computed from the stored games only (polars); none imports the engine, the plug-in or the
strategies. sim.report.SECTIONS reaches them through this table when a report uses one."""

from sim.games.alien_raid import report_cards, report_play

SECTIONS = {
    "alien_raid_cards": report_cards.build,
    "alien_raid_credit_tasks": report_play.credit_tasks,
    "alien_raid_raid_catch": report_play.raid_catch,
    "alien_raid_fairness": report_play.fairness,
}
