"""The Space Invaders plug-in: Space Invaders (Buffalo Games 2021), a cooperative dexterity
game for 1-4 players, with the printed variants as presets (docs/games/space_invaders/rules.md).

This module is what the entry point `sim.games: space-invaders` names. It is light: the
engine, the strategies and the report sections are imported by the methods that need them
(`PackageParts`), so building a report never loads the compiled engine.
"""

from __future__ import annotations

from sim.games.base import PackageParts, lazy
from sim.games.space_invaders.layout import ENGINE_VERSION, STATUS_NAMES
from sim.games.space_invaders.ruleset import PRESETS, load_ruleset
from sim.games.space_invaders.schema import TEAM_SKILLS


class SpaceInvaders(PackageParts):
    package = "sim.games.space_invaders"
    name = "space-invaders"
    title = "Space Invaders (Buffalo Games 2021)"
    version = ENGINE_VERSION
    presets = PRESETS
    player_counts = (1, 2, 3, 4)
    outcomes = STATUS_NAMES[1:]  # victory, planet_destroyed, ufo_survived, cap
    skills = TEAM_SKILLS  # the team-skill ladder, weakest first
    demo_lineup = "tactical,tactical"  # sim play without --strategies

    load_ruleset = staticmethod(load_ruleset)  # (name_or_path, overrides=(), *, source)
    bench = lazy("sim.games.space_invaders.bench", "bench_rows")  # (*, quick) -> rows

    def strategy_names(self) -> tuple[str, ...]:
        return TEAM_SKILLS


GAME = SpaceInvaders()
