"""A plain-Python game as a full plug-in (sim/plugins/base.py): `plug_in(game)` is the object a
designer's package names in its `sim.games` entry point, and every command of the lab reaches
the game through it, as it reaches a compiled one.

What the plug-in gives the game without a line from the designer: the rulesets through the
game's `RulesetFamily`; the players (generic ones and the skill ladder novice .. master on
the search's budget, beside the game's own; sim/plain/players.py); `simulate_chunk` storing the
lab's columns and how each game went (chunks.py); `sim play`'s transcript (watch.py); a
scenario format (scenario.py); a report with the overview and the quality section
(report.py) and what the measures need (measures.py); a bench plan timing random play and
each ladder level in decisions per second. Light: each part imports its module when first
used, so a report never loads the game loop or a search.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType
from typing import Any

from sim.plain.game import PlainGame, gives_value
from sim.plugins.base import QUALITY_SECTION, BenchPlan, Chunk, OptionalParts, StrategySpec
from strategies.generic import ladder, registry

# the bench's share of its games a level plays, by its budget (a master's decision costs a
# thousand simulations): about as many simulations per row as random play's decisions
_SIMULATIONS_PER_ROW = 2.0
_RUN_GAMES = 200_000  # the bench's whole run: a minute or so of random play on two workers


class PlainPlugin(OptionalParts):
    """The plug-in of the plain-Python game `game` (a PlainGame)."""

    def __init__(self, game: PlainGame) -> None:
        self._game = game

    # --- what the game says of itself -------------------------------------------------------

    @property
    def name(self) -> str:  # type: ignore[override]
        return self._game.name

    @property
    def title(self) -> str:
        return self._game.title

    @property
    def version(self) -> int:  # type: ignore[override]
        return int(self._game.version)

    @property
    def presets(self) -> tuple[str, ...]:
        return tuple(self._game.rulesets.presets)

    @property
    def player_counts(self) -> tuple[int, ...]:  # type: ignore[override]
        return tuple(self._game.player_counts)

    @property
    def outcomes(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(dict.fromkeys((*self._game.outcomes, "cap")))

    @property
    def demo_lineup(self) -> str:  # type: ignore[override]
        default = ",".join(["strong", *["club"] * (min(self.player_counts) - 1)])
        return self._game.demo_lineup or default

    report_sections = QUALITY_SECTION

    def load_ruleset(self, name_or_path: Any, overrides: Any = (), *, source: str = "--set"):
        return self._game.rulesets.load(name_or_path, overrides, source=source)

    # --- players ----------------------------------------------------------------------------

    skills = ladder.LADDER
    skill_knob = ladder.KNOB
    skill_points = MappingProxyType(dict(ladder.POINTS))

    def strategy_names(self) -> tuple[str, ...]:
        generic = [n for n in registry.BUILTIN if n != "greedy" or gives_value(self._game)]
        return tuple(dict.fromkeys((*generic, *ladder.LADDER, *self._game.strategies)))

    @cached_property
    def _players(self) -> Any:
        from sim.plain.players import Players

        return Players(self._game)

    def resolve(self, spec: StrategySpec, *, source: str | None = None) -> tuple[Any, Any]:
        """The player `spec` names and its checked parameters (a ConfigError naming
        `source`)."""
        return self._players.resolve(spec, source=source)

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        self.resolve(spec, source=source)
        return spec

    # --- playing, watching, checking, reporting ------------------------------------------------

    def simulate_chunk(self, ruleset: Any, n_players: int, lineup: list[StrategySpec],
                   seat_lineup: Any, seeds: Any) -> Chunk:  # fmt: skip
        from sim.plain.chunks import simulate_chunk

        return simulate_chunk(self._game, self._players, ruleset, n_players, lineup, seat_lineup,
                          seeds)  # fmt: skip

    def watch(self, ruleset: Any, lineup: list[StrategySpec], seed: int) -> Any:
        from sim.plain.watch import watch_game

        return watch_game(self._game, self._players, ruleset, lineup, seed)

    def scenarios(self) -> Any:
        from sim.plain.scenario import scenarios

        return scenarios(self._game, self._players)

    def report(self) -> Any:
        from sim.plain.report import game_report

        return game_report(self._game)

    def measures(self) -> Any:
        from sim.plain.measures import game_measures

        return game_measures(self._game)

    @property
    def bench_plan(self) -> BenchPlan:  # type: ignore[override]
        """Random play, and each level of the ladder with its share of the games cut to its
        budget; decisions counted per second."""
        top = self._game.search_budget
        share: Mapping[str, float] = {
            name: min(1.0, _SIMULATIONS_PER_ROW / ladder.budget_at(point, top))
            for name, point in ladder.POINTS.items()
        }  # fmt: skip
        return BenchPlan(players=min(self.player_counts), counted=("decisions",),
                         share={**share, "mcts": share["master"]}, run_lineup=("random",),
                         run_games=_RUN_GAMES)  # fmt: skip


def plug_in(game: PlainGame | type[PlainGame]) -> PlainPlugin:
    """The plug-in of a plain-Python game (a PlainGame, or its class): the object the game's
    `sim.games` entry point names."""
    return PlainPlugin(game() if isinstance(game, type) else game)


def plain_game(plugin: object) -> PlainGame | None:
    """The plain-Python game behind a plug-in, or None for another kind of plug-in (`sim
    check` looks into a plain game's states)."""
    return plugin._game if isinstance(plugin, PlainPlugin) else None
