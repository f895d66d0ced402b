"""The Space Invaders plug-in: Space Invaders (Buffalo Games 2021), a cooperative dexterity
game for 1-4 players, with the printed variants as presets (docs/games/space_invaders/rules.md).

This module is what the entry point `sim.games: space-invaders` names. It is light: the
engine, the strategies and the report sections are imported by the methods that need them
(`PackageParts`), so building a report never loads the compiled engine. It is where the rules
meet the players: the rules find a strategy through `resolve` alone.
"""

from __future__ import annotations

from sim.games.base import BenchPlan, PackageParts
from sim.games.space_invaders.layout import ENGINE_VERSION, STATUS_NAMES
from sim.games.space_invaders.ruleset import PRESETS, load_ruleset


class SpaceInvaders(PackageParts):
    package = "sim.games.space_invaders"
    players = "strategies.space_invaders"
    name = "space-invaders"
    title = "Space Invaders (Buffalo Games 2021)"
    version = ENGINE_VERSION
    presets = PRESETS
    player_counts = (1, 2, 3, 4)
    outcomes = STATUS_NAMES[1:]  # victory, planet_destroyed, ufo_survived, cap
    demo_lineup = "tactical,tactical"  # sim play without --strategies
    # sim bench: two-player Standard games, the launches of a game counted
    bench_plan = BenchPlan(
        players=2, rules={"setup.level": "standard"}, counted=("launches",), run_lineup=("naive",)
    )

    load_ruleset = staticmethod(load_ruleset)  # (name_or_path, overrides=(), *, source)


GAME = SpaceInvaders()
