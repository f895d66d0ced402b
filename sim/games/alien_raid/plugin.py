"""The alien-raid plug-in (the entry point `sim.games: alien-raid`): the competitive card game
of rulebook 002 for 2-5 captains, the rulebook's contradictions ruled and the other readings
a preset (docs/games/alien_raid/rules.md). PackageParts finds its parts, each imported when
first needed; the rules meet the players in `resolve`.
"""

from __future__ import annotations

from sim.games.base import BenchPlan, PackageParts, lazy


class AlienRaid(PackageParts):
    package = "sim.games.alien_raid"
    name = "alien-raid"
    title = "Alien raid (rulebook 002)"
    player_counts = (2, 3, 4, 5)
    outcomes = ("win", "shared", "refused")  # one winner, equal humans, a refused decision
    demo_lineup = "value,planner,strong"  # sim play without --strategies
    # sim bench: four captains; the naive pool (naive and random alternating seats) beside
    # each strategy alone, the slower ones on a share of the games; the naive pool runs
    bench_plan = BenchPlan(
        players=4,
        lineups={"naive pool": ("naive", "random")},
        share={"value": 0.1, "planner": 0.1, "strong": 0.02, "skilled": 0.05},
        run_lineup=("naive", "random"),
        run_games=200_000,
    )
    measures = lazy("sim.games.alien_raid.measures", "game_measures")  # sim.measures' part


GAME = AlienRaid()
