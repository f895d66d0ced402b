"""The players of a plain-Python game by name: the generic ones every such game has
(strategies/generic/: random, greedy, mcts, and the skill ladder novice .. master as points on
mcts's skill), the game's own (`PlainGame.strategies`), and a designer's strategy class named
`package.module:Class`. `Players.resolve` finds a spec's player and checks its parameters; the
player then makes a `Strategy` for one seat of one game. This is where a plain game's rules
meet the players, as a compiled game's plugin.py is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim import plugin_path
from sim.config.fields import Field
from sim.errors import ConfigError
from sim.plain.game import PlainGame, Strategy, gives_value
from sim.plugins.base import StrategySpec
from strategies.generic import ladder, registry
from strategies.registry import checked_params, unknown_strategy

# narrower limits of the generic players' parameters than "a number"
FIELDS = {
    "skill": Field("float", min=0.0, max=1.0),
    "budget": Field("int", min=0, max=10**7),
    "explore": Field("float", min=0.0, max=100.0),
    "rollout": Field("int", min=0, max=10**7),
    "expand": Field("int", min=0, max=10**7),
    "samples": Field("int", min=1, max=10**5),
}


@dataclass(frozen=True)
class Player:
    """A strategy class with its checked parameters."""

    name: str  # the class's name in the registry (a level: the strategy it plays)
    cls: type[Strategy]
    params: tuple[tuple[str, Any], ...]

    def make(self, game: PlainGame, rules: Any, seat: int) -> Strategy:
        """The strategy for `seat` of one game."""
        return self.cls(game=game, rules=rules, seat=seat, params=dict(self.params))


class Players:
    """A plain game's players: the generic ones, its skill ladder, its own."""

    def __init__(self, game: PlainGame) -> None:
        own = dict(game.strategies)
        clash = sorted(set(own) & (set(registry.BUILTIN) | set(ladder.LADDER)))
        if clash:
            raise ValueError(f"{game.name}: a strategy of the game is named like a generic "
                             f"player or a skill level: {', '.join(clash)}; rename it")  # fmt: skip
        self.game = game
        self.classes = {**registry.classes(), **own}
        self.names = tuple(dict.fromkeys((*self.classes, *ladder.LADDER)))

    def resolve(self, spec: StrategySpec, *, source: str | None = None
                ) -> tuple[Player, dict[str, Any]]:  # fmt: skip
        """The player `spec` names and its parameters, defaults filled in, each checked (a
        ConfigError naming `source`). A skill level is mcts at its point on the knob (its
        other parameters may be given); `package.module:Class` a designer's Strategy."""
        name, params = spec.name, dict(spec.params)
        if name in ladder.POINTS and name not in self.classes:
            if ladder.KNOB[1] in params:
                strategy, knob = ladder.KNOB
                hint = f"Give {strategy} the {knob} instead."
                raise ConfigError(f"the skill level {name!r} sets {knob} itself", file=source,
                                  key="strategy", hint=hint)  # fmt: skip
            name, params = ladder.KNOB[0], {ladder.KNOB[1]: ladder.POINTS[spec.name], **params}
        cls = self._class(name, source)
        if name == "greedy" and not gives_value(self.game):
            raise ConfigError(f"greedy plays on the game's heuristic, and {self.game.title} "
                              "gives none", file=source, key="strategy",
                              hint="Give the state a `value(seat)`, or play mcts.")  # fmt: skip
        values = checked_params(name, dict(cls.PARAMS), params, source=source,
                                fields={**FIELDS, **getattr(cls, "FIELDS", {})})  # fmt: skip
        return Player(name, cls, tuple(values.items())), values

    def _class(self, name: str, source: str | None) -> type[Strategy]:
        if name in self.classes:
            return self.classes[name]
        if ":" not in name:
            raise unknown_strategy(name, self.names, source=source)
        module_name, _, attr = name.partition(":")
        with plugin_path.searching(plugin_path.user_paths(source)):
            module = plugin_path.import_module(module_name, source=source)
        cls = getattr(module, attr, None)
        if not (isinstance(cls, type) and issubclass(cls, Strategy)):
            raise ConfigError(f"{name!r} is not a strategy of a plain-Python game", file=source,
                              key="strategy", hint="Name a class deriving from "
                              "sim.plain.Strategy, with a `choose` method.")  # fmt: skip
        return cls


def make_players(players: Players, lineup: list[StrategySpec]) -> list[Player]:
    """Each lineup entry's player, resolved once for a chunk."""
    return [players.resolve(spec)[0] for spec in lineup]
