"""The Space Invaders plug-in: Space Invaders (Buffalo Games 2021), a cooperative dexterity
game for 1-4 players, with the printed variants as presets (docs/rules-space-invaders.md).

This module is what the entry point `sim.games: space-invaders` names. It is light: the
engine, the strategies and the report sections are imported by the methods that need them
(`lazy`), so building a report never loads the compiled engine.
"""

from __future__ import annotations

from typing import Any

from sim.games.base import lazy
from sim.games.space_invaders.layout import ENGINE_VERSION, STATUS_NAMES
from sim.games.space_invaders.ruleset import PRESETS, load_ruleset
from sim.games.space_invaders.schema import TEAM_SKILLS

_PACKAGE = "sim.games.space_invaders"


class SpaceInvaders:
    name = "space-invaders"
    title = "Space Invaders (Buffalo Games 2021)"
    version = ENGINE_VERSION
    presets = PRESETS
    player_counts = (1, 2, 3, 4)
    outcomes = STATUS_NAMES[1:]  # victory, planet_destroyed, ufo_survived, cap
    skills = TEAM_SKILLS  # the team-skill ladder, weakest first
    demo_lineup = "tactical,tactical"  # sim play without --strategies

    def load_ruleset(self, name_or_path: str, overrides: Any = (), *, source: str = "--set"):
        return load_ruleset(name_or_path, overrides, source=source)

    def strategy_names(self) -> tuple[str, ...]:
        return TEAM_SKILLS

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


GAME = SpaceInvaders()
