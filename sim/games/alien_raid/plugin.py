"""The alien-raid plug-in: the competitive card game of rulebook 002 for 2-5 captains, with
the rulebook's contradictions ruled and the other readings as a preset
(docs/games/alien_raid/rules.md).

This module is what the entry point `sim.games: alien-raid` names. It is light: the engine,
the strategies and the report sections are imported by the methods that need them
(`PackageParts`), so building a report never loads the compiled engine. It is where the rules
meet the players: the rules find a strategy through `resolve` alone.
"""

from __future__ import annotations

from sim.games.alien_raid.layout import ENGINE_VERSION
from sim.games.alien_raid.ruleset import PRESETS, load_ruleset
from sim.games.base import BenchPlan, PackageParts


class AlienRaid(PackageParts):
    package = "sim.games.alien_raid"
    players = "strategies.alien_raid"
    name = "alien-raid"
    title = "Alien raid (rulebook 002)"
    version = ENGINE_VERSION
    presets = PRESETS
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

    load_ruleset = staticmethod(load_ruleset)  # (name_or_path, overrides=(), *, source)


GAME = AlienRaid()
