"""The alien-raid plug-in (the entry point `sim.games: alien-raid`): the competitive card game
of rulebook 002 for 2-5 captains, the rulebook's contradictions ruled and the other readings
a preset (docs/games/alien_raid/rules.md). PackageParts finds its parts, each imported when
first needed; the rules meet the players in `resolve`.
"""

from __future__ import annotations

from types import MappingProxyType

from sim.plugins.base import QUALITY_SECTION, BenchPlan, PackageParts, lazy


class AlienRaid(PackageParts):
    name = "alien-raid"
    title = "Alien raid (rulebook 002)"
    player_counts = (2, 3, 4, 5)
    outcomes = ("win", "shared", "refused")  # one winner, equal humans, a refused decision
    demo_lineup = "value,planner,strong"  # sim play without --strategies
    # where PackageParts finds the parts: the rules' package and the players'
    package = "sim.games.alien_raid"
    strategies = "strategies.alien_raid"
    # sim bench: four captains; the naive pool (naive and random alternating seats) beside
    # each strategy alone, the slower ones on a share of the games; the naive pool runs
    bench_plan = BenchPlan(
        players=4,
        lineups={"naive pool": ("naive", "random")},
        share={"value": 0.1, "planner": 0.1, "strong": 0.02, "skilled": 0.05},
        run_lineup=("naive", "random"),
        run_games=200_000,
    )
    # the report's sections by `report:` name, each built by a function of the report package
    report_sections = MappingProxyType(
        {
            "alien_raid_cards": "sim.games.alien_raid.report.cards:build",
            "alien_raid_credit_tasks": "sim.games.alien_raid.report.credit_tasks:build",
            "alien_raid_raid_catch": "sim.games.alien_raid.report.raid_catch:build",
            "alien_raid_fairness": "sim.games.alien_raid.report.fairness:build",
            "alien_raid_options": "sim.games.alien_raid.report.options:build",
            **QUALITY_SECTION,
        }
    )
    measures = lazy("sim.games.alien_raid.measures", "game_measures")  # sim.measures' part


GAME = AlienRaid()
