"""The Space Invaders plug-in (the entry point `sim.games: space-invaders`): Space Invaders
(Buffalo Games 2021), a cooperative dexterity game for 1-4 players, with the printed
variants as presets (docs/games/space_invaders/rules.md). PackageParts finds its parts, each
imported when first needed; the rules meet the players in `resolve`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from sim.games.space_invaders.layout import STATUS_NAMES
from sim.plugins.base import QUALITY_SECTION, BenchPlan, PackageParts

if TYPE_CHECKING:
    from sim.measures.spec import GameMeasures


class SpaceInvaders(PackageParts):
    name = "space-invaders"
    title = "Space Invaders (Buffalo Games 2021)"
    player_counts = (1, 2, 3, 4)
    outcomes = STATUS_NAMES[1:]  # victory, planet_destroyed, ufo_survived, cap
    demo_lineup = "tactical,tactical"  # sim play without --strategies
    # where PackageParts finds the parts: the rules' package and the players'
    package = "sim.games.space_invaders"
    strategies = "strategies.space_invaders"
    # sim bench: two-player Standard games, the launches of a game counted
    bench_plan = BenchPlan(
        players=2, rules={"setup.level": "standard"}, counted=("launches",), run_lineup=("naive",)
    )
    # the report's sections by `report:` name, each built by a function of the report package
    report_sections = MappingProxyType(
        {
            "invaders_difficulty": "sim.games.space_invaders.report.difficulty:build",
            "invaders_options": "sim.games.space_invaders.report.options:build",
            **QUALITY_SECTION,
        }
    )

    def measures(self) -> GameMeasures:
        """sim.measures' part, the team-skill ladder (the players' plain data) handed over."""
        from sim.games.space_invaders.measures import game_measures

        return game_measures(self.skills)


GAME = SpaceInvaders()
