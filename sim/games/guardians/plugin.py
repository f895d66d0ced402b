"""The Guardians of Space plug-in: Guardians of Space, its advanced variant, and the original
Space Defenders with its Defender Upgrades expansion (four presets of one rules engine).

This module is what the entry point `sim.games: guardians` names. It is light: the engine,
the strategies and the report sections are imported by the methods that need them, so
building a report never loads the compiled engine (`PackageParts`). It is where the rules
meet the players: the rules find a strategy through `resolve` alone.
"""

from __future__ import annotations

from typing import Any

from sim.games.base import BenchPlan, PackageParts, StrategySpec
from sim.games.guardians.layout import ENGINE_VERSION
from sim.games.guardians.ruleset import PRESETS, load_ruleset


class Guardians(PackageParts):
    package = "sim.games.guardians"
    players = "strategies.guardians"
    name = "guardians"
    title = "Guardians of Space"
    version = ENGINE_VERSION
    presets = PRESETS
    player_counts = (2, 3, 4)
    outcomes = ("victory", "stall", "raid", "cap")
    demo_lineup = "greedy,greedy"  # sim play without --strategies
    # sim bench: every preset; the strategies that search (about 100 times slower than the
    # rest) on a tenth of the games, and plain-Python strategies (the Python game loop) beside
    # the compiled ones: an example that decides something, and one that decides nothing
    bench_plan = BenchPlan(
        players=4,
        presets=PRESETS,
        lineups={
            "python-user": ("strategies.guardians.examples:Sniper",),
            "python-loop": ("strategies.guardians.examples:Stay",),
        },
        share={"expert": 0.1, "master": 0.1, "python-user": 0.05, "python-loop": 0.05},
        counted=("turns",),
        run_lineup=("greedy",),
    )

    load_ruleset = staticmethod(load_ruleset)  # (name_or_path, overrides=(), *, source)

    def resolve(self, spec: StrategySpec, *, source: str | None = None) -> tuple[Any, Any]:
        """A built-in, a ladder level or a user strategy (`package.module:Name`), with its
        parameter vector checked (strategies/guardians/registry.py)."""
        from strategies.guardians.registry import resolve_spec

        return resolve_spec(spec, source=source)


GAME = Guardians()
