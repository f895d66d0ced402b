"""The alien-raid plug-in: the competitive card game of rulebook 002 for 2-5 captains, with
the rulebook's contradictions ruled and the other readings as a preset
(docs/rules-alien-raid.md).

This module is what the entry point `sim.games: alien-raid` names. It is light: the engine,
the strategies and the report sections are imported by the methods that need them (`lazy`),
so building a report never loads the compiled engine.
"""

from __future__ import annotations

from typing import Any

from sim.games.alien_raid.layout import ENGINE_VERSION
from sim.games.alien_raid.ruleset import PRESETS, load_ruleset
from sim.games.alien_raid.schema import SKILLS
from sim.games.base import lazy

_PACKAGE = "sim.games.alien_raid"


class AlienRaid:
    name = "alien-raid"
    title = "Alien raid (rulebook 002)"
    version = ENGINE_VERSION
    presets = PRESETS
    player_counts = (2, 3, 4, 5)
    outcomes = ("win", "shared", "refused")  # one winner, equal humans, a refused decision
    skills = SKILLS  # the skill ladder, weakest first
    demo_lineup = "value,planner,strong"  # sim play without --strategies

    def load_ruleset(self, name_or_path: str, overrides: Any = (), *, source: str = "--set"):
        return load_ruleset(name_or_path, overrides, source=source)

    def strategy_names(self) -> tuple[str, ...]:
        return SKILLS

    # check_strategy(spec, *, source), prepare(lineup, *, notice),
    # play_chunk(ruleset, n_players, lineup, seat_lineup, seeds, *, trace=False)
    check_strategy = lazy(f"{_PACKAGE}.play", "check_strategy")
    prepare = lazy(f"{_PACKAGE}.play", "prepare")
    compile_jobs = lazy(f"{_PACKAGE}.play", "compile_jobs")  # (lineup) -> sim.compiling jobs
    play_chunk = lazy(f"{_PACKAGE}.play", "play_chunk")
    watch = lazy(f"{_PACKAGE}.watch", "watch_game")  # (ruleset, lineup, seed) -> Watch
    scenarios = lazy(f"{_PACKAGE}.scenario", "scenarios")  # () -> Scenarios
    report = lazy(f"{_PACKAGE}.report", "game_report")  # () -> GameReport
    bench = lazy(f"{_PACKAGE}.bench", "bench_rows")  # (*, quick) -> rows for sim bench


GAME = AlienRaid()
