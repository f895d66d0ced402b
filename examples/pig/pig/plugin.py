"""Pig's plug-in object: what `sim` needs to play, watch, check and report the game.

`sim` finds it through the entry point in pyproject.toml (`sim.games: pig`). It is light: it
derives from `PackageParts`, which finds the parts by the usual layout and imports each module
only when a part needs it (ruleset.py: the presets and load_ruleset; chunks.py: simulate_chunk and
what `prepare` compiles; watch.py, scenario.py, report.py), so building a report never loads
the compiled loop. The players live in pig/strategies/ (registry.py: the names and `resolve`;
ladder.py: the skill ladder as plain data); this is the one place where they meet the rules.
`measures` (measures.py) tells the lab's measures, the quality report and `sim tune`, what
only Pig knows: what one scoring event is and which turns offer no real choice.
"""

from __future__ import annotations

from pig.rules import OUTCOMES
from sim.plugins.base import QUALITY_SECTION, BenchPlan, PackageParts, lazy


class Pig(PackageParts):
    package = "pig"
    strategies = "pig.strategies"
    name = "pig"
    title = "Pig"
    version = 2  # 2: lead_changes read after each round (the lab's trajectory columns)
    player_counts = (2,)
    outcomes = OUTCOMES
    measures = lazy("pig.measures", "game_measures")  # what the lab's measures need to know
    # an experiment's `report:` names, checked without importing the report (pig/report.py
    # builds its sections from the same mapping)
    report_sections = QUALITY_SECTION
    demo_lineup = "optimal,steady"  # sim play without --strategies
    # `sim bench --game pig`: each level, by the compiled loop and by the plain-Python rules
    # (the same games; what a designer's first plug-in runs at)
    bench_plan = BenchPlan(players=2, engines={"python": "pig.chunks:simulate_chunk_python"},
                           run_lineup=("steady",))  # fmt: skip


GAME = Pig()
