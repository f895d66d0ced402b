"""The Guardians of Space plug-in: Guardians of Space, its advanced variant, and the original
Space Defenders with its Defender Upgrades expansion (four presets of one rules engine).

This module is what the entry point `sim.games: guardians` names. It is light: the engine,
the strategies and the report sections are imported by the methods that need them, so
building a report never loads the compiled engine (`lazy`).
"""

from __future__ import annotations

from typing import Any

from sim.games.base import Scenarios, lazy
from sim.games.guardians.ruleset import PRESETS, load_ruleset

_PACKAGE = "sim.games.guardians"


class Guardians:
    name = "guardians"
    title = "Guardians of Space"
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

    def load_ruleset(self, name_or_path: str, overrides: Any = (), *, source: str = "--set"):
        return load_ruleset(name_or_path, overrides, source=source)

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

    # check_strategy(spec, *, source), prepare(lineup, *, notice),
    # play_chunk(ruleset, n_players, lineup, seat_lineup, seeds, *, trace=False)
    check_strategy = lazy(f"{_PACKAGE}.play", "check_strategy")
    prepare = lazy(f"{_PACKAGE}.play", "prepare")
    compile_jobs = lazy(f"{_PACKAGE}.play", "compile_jobs")  # (lineup) -> sim.compiling jobs
    play_chunk = lazy(f"{_PACKAGE}.play", "play_chunk")
    watch = lazy(f"{_PACKAGE}.watch", "watch_game")  # (ruleset, lineup, seed) -> Watch

    def scenarios(self) -> Scenarios:
        from sim.games.guardians import scenario

        return Scenarios(run_file=scenario.run_file, check_file=scenario.check_file)

    def report(self):
        from sim.games.guardians.report import REPORT

        return REPORT


GAME = Guardians()
