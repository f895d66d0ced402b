"""The Space Invaders plug-in: Space Invaders (Buffalo Games 2021), a cooperative dexterity
game for 1-4 players, with the printed variants as presets (docs/rules-space-invaders.md).

This module is what the entry point `sim.games: space-invaders` names. It is light: the
engine, the strategies and the report sections are imported by the methods that need them,
so building a report never loads the compiled engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.games.base import Chunk, Scenarios, StrategySpec, Watch
from sim.games.space_invaders.layout import ENGINE_VERSION, STATUS_NAMES
from sim.games.space_invaders.ruleset import PRESETS, load_ruleset
from sim.games.space_invaders.schema import TEAM_SKILLS


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

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        from sim.games.space_invaders import play

        return play.check_strategy(spec, source=source)

    def prepare(self, lineup: Sequence[StrategySpec], *, notice: Any = None) -> float:
        from sim.games.space_invaders import play

        return play.prepare(lineup, notice=notice)

    def play_chunk(self, ruleset, n_players, lineup, seat_lineup, seeds, *, trace=False) -> Chunk:
        from sim.games.space_invaders import play

        return play.play_chunk(ruleset, n_players, lineup, seat_lineup, seeds, trace=trace)

    def watch(self, ruleset, lineup: list[StrategySpec], seed: int) -> Watch:
        from sim.games.space_invaders import watch

        return watch.watch_game(ruleset, lineup, seed)

    def scenarios(self) -> Scenarios:
        from sim.games.space_invaders import scenario

        return Scenarios(run_file=scenario.run_file, check_file=scenario.check_file)

    def report(self):
        from sim.games.space_invaders.report import REPORT

        return REPORT

    def bench(self, quick: bool = False) -> list[dict[str, Any]]:
        """Games per second per core of each strategy (`sim bench --game space-invaders`)."""
        from sim.games.space_invaders import bench

        return bench.bench_rows(quick=quick)


GAME = SpaceInvaders()
