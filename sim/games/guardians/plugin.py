"""The Guardians of Space plug-in (the entry point `sim.games: guardians`): Guardians of Space,
its advanced variant, and the original Space Defenders with its Defender Upgrades expansion,
four presets of one rules engine (docs/games/guardians/rules.md). PackageParts finds its
parts, each imported when first needed; here the rules meet the players (`resolve`).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from sim.plugins.base import (
    QUALITY_SECTION,
    BenchPlan,
    PackageParts,
    ReportSection,
    StrategySpec,
    lazy,
)


class Guardians(PackageParts):
    name = "guardians"
    title = "Guardians of Space"
    player_counts = (2, 3, 4)
    outcomes = ("victory", "stall", "raid", "cap")
    demo_lineup = "greedy,greedy"  # sim play without --strategies
    # where PackageParts finds the parts: the rules' package and the players'
    package = "sim.games.guardians"
    strategies = "strategies.guardians"
    # sim bench: every preset; the strategies that search (about 100 times slower than the
    # rest) on a tenth of the games, and plain-Python strategies (the Python game loop) beside
    # the compiled ones: an example that decides something, and one that decides nothing
    bench_plan = BenchPlan(
        players=4,
        every_preset=True,
        lineups={
            "python-user": ("strategies.guardians.examples:Sniper",),
            "python-loop": ("strategies.guardians.examples:Stay",),
        },
        share={"expert": 0.1, "master": 0.1, "python-user": 0.05, "python-loop": 0.05},
        counted=("turns",),
        run_lineup=("greedy",),
    )
    # the report's sections by `report:` name, each built by a function of the report package
    report_sections = MappingProxyType(
        {
            "guardians_first_player": "sim.games.guardians.report.first_player:build",
            "guardians_mine_value": "sim.games.guardians.report.mine_value:build",
            "guardians_missile_pricing": "sim.games.guardians.report.pricing:missile",
            "guardians_upgrade_pricing": "sim.games.guardians.report.pricing:upgrade",
            "guardians_power_up_pricing": "sim.games.guardians.report.pricing:power_up",
            # rows by skill already: built once on every level's games, not per level
            "guardians_difficulty": ReportSection(
                "sim.games.guardians.report.difficulty:build", reads_skill=True
            ),
            "guardians_what_if": "sim.games.guardians.report.what_if:build",
            **QUALITY_SECTION,
        }
    )
    # the names the sections had before they carried the game's name, as the other games'
    report_aliases = MappingProxyType({
        name: f"guardians_{name}"
        for name in ("first_player", "mine_value", "missile_pricing", "upgrade_pricing",
                     "power_up_pricing", "difficulty", "what_if")
    })  # fmt: skip
    measures = lazy("sim.games.guardians.measures", "game_measures")  # sim.measures' part

    def resolve(self, spec: StrategySpec, *, source: str | None = None) -> tuple[Any, Any]:
        """A built-in, a ladder level or a user strategy (`package.module:Name`), with its
        parameter vector checked (strategies/guardians/registry.py)."""
        return self._strategies("registry").resolve_spec(spec, source=source)


GAME = Guardians()
