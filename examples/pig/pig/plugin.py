"""Pig's plug-in object: what `sim` needs to play, watch, check and report the game.

`sim` finds it through the entry point in pyproject.toml (`sim.games: pig`). It is light: the
package's usual modules (play.py, watch.py, scenario.py, report.py, bench.py) are imported by
the methods that need them (`PackageParts`, `lazy`), so building a report never loads the
compiled loop.
"""

from __future__ import annotations

from pig.rules import OUTCOMES
from pig.ruleset import RULESETS, load_ruleset
from pig.strategies import NAMES, SKILLS
from sim.games.base import PackageParts, lazy


class Pig(PackageParts):
    package = "pig"
    name = "pig"
    title = "Pig"
    version = 1
    presets = RULESETS.presets
    player_counts = (2,)
    outcomes = OUTCOMES
    skills = SKILLS  # the skill ladder, weakest first (strategies/ladder.yaml)
    demo_lineup = "optimal,steady"  # sim play without --strategies

    load_ruleset = staticmethod(load_ruleset)  # (name_or_path, overrides=(), *, source)
    bench = lazy("pig.bench", "bench_rows")  # (*, quick) -> rows for sim bench --game pig

    def strategy_names(self) -> tuple[str, ...]:
        return NAMES


GAME = Pig()
