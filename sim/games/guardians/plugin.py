"""The Guardians of Space plug-in: Guardians of Space, its advanced variant, and the original
Space Defenders with its Defender Upgrades expansion (four presets of one rules engine).

This module is what the entry point `sim.games: guardians` names. It is light: the engine,
the strategies and the report sections are imported by the methods that need them, so
building a report never loads the compiled engine (`PackageParts`).
"""

from __future__ import annotations

from sim.games.base import PackageParts, lazy
from sim.games.guardians.layout import ENGINE_VERSION
from sim.games.guardians.ruleset import PRESETS, load_ruleset


class Guardians(PackageParts):
    package = "sim.games.guardians"
    name = "guardians"
    title = "Guardians of Space"
    version = ENGINE_VERSION
    presets = PRESETS
    player_counts = (2, 3, 4)
    outcomes = ("victory", "stall", "raid", "cap")
    demo_lineup = "greedy,greedy"  # sim play without --strategies
    # sim bench: strategies that search (about 100 times slower than the rest, timed on a
    # tenth of the games), and plain-Python strategies (the Python game loop) timed beside the
    # compiled ones: an example that decides something, and one that decides nothing
    bench_searchers = ("expert", "master")
    bench_python = (
        ("python-user", "strategies.guardians.examples:Sniper"),
        ("python-loop", "strategies.guardians.examples:Stay"),
    )

    load_ruleset = staticmethod(load_ruleset)  # (name_or_path, overrides=(), *, source)
    measures = lazy("sim.games.guardians.measures", "game_measures")  # sim.measures' part

    @property
    def skills(self) -> tuple[str, ...]:
        """The skill ladder's levels, weakest first."""
        from strategies.guardians.registry import SKILLS

        return SKILLS

    @property
    def skill_knob(self) -> tuple[str, str]:
        """(strategy, parameter) of the continuous skill the ladder's levels are points on."""
        from strategies.guardians.registry import CONTINUOUS

        return CONTINUOUS

    @property
    def skill_points(self) -> dict[str, float]:
        """The levels on the continuous knob: name -> skill."""
        from strategies.guardians.registry import LEVELS

        return LEVELS

    def strategy_names(self) -> tuple[str, ...]:
        from strategies.guardians.registry import BUILTIN, SKILLS

        return (*BUILTIN, *SKILLS)


GAME = Guardians()
