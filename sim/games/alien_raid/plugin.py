"""The alien-raid plug-in: the competitive card game of rulebook 002 for 2-5 captains, with
the rulebook's contradictions ruled and the other readings as a preset
(docs/games/alien_raid/rules.md).

This module is what the entry point `sim.games: alien-raid` names. It is light: the engine,
the strategies and the report sections are imported by the methods that need them
(`PackageParts`), so building a report never loads the compiled engine.
"""

from __future__ import annotations

from sim.games.alien_raid.layout import ENGINE_VERSION
from sim.games.alien_raid.ruleset import PRESETS, load_ruleset
from sim.games.alien_raid.schema import SKILLS
from sim.games.base import PackageParts, lazy


class AlienRaid(PackageParts):
    package = "sim.games.alien_raid"
    name = "alien-raid"
    title = "Alien raid (rulebook 002)"
    version = ENGINE_VERSION
    presets = PRESETS
    player_counts = (2, 3, 4, 5)
    outcomes = ("win", "shared", "refused")  # one winner, equal humans, a refused decision
    skills = SKILLS  # the skill ladder, weakest first
    demo_lineup = "value,planner,strong"  # sim play without --strategies

    load_ruleset = staticmethod(load_ruleset)  # (name_or_path, overrides=(), *, source)
    bench = lazy("sim.games.alien_raid.bench", "bench_rows")  # (*, quick) -> rows for sim bench

    def strategy_names(self) -> tuple[str, ...]:
        return SKILLS


GAME = AlienRaid()
