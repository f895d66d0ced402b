"""Pig's built-in strategies by name, and `resolve`: the strategy a spec names (a built-in,
or a level of the ladder, ladder.py) with its parameters checked. The plug-in hands what
`resolve` finds to the rules; the rules never import the players."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from pig.ruleset import Rules
from pig.strategies import hold, ladder, optimal
from sim.errors import ConfigError
from strategies.registry import checked_params, unknown_strategy

STRATEGIES = {"hold": hold, "optimal": optimal}
BUILTIN = tuple(STRATEGIES)
NAMES = tuple(dict.fromkeys((*BUILTIN, *ladder.LADDER)))


@dataclass(frozen=True)
class Player:
    """A strategy with its checked parameters: it plays by its roll table (pig/policy.py)."""

    name: str
    params: tuple[tuple[str, Any], ...]

    def table(self, rules: Rules) -> np.ndarray:
        """The roll table for `rules` (read-only; built once per process)."""
        return _table(self.name, self.params, rules)


class Registry:
    def resolve(self, spec, *, source: str | None = None) -> tuple[Player, dict[str, Any]]:
        """The player a spec (a StrategySpec) names and its checked parameters, defaults
        filled in; a skill level is the strategy it names. ConfigError naming `source` for an
        unknown name or a bad parameter."""
        if spec.name in ladder.LEVELS and spec.name not in STRATEGIES:
            if spec.params:
                raise ConfigError(
                    f"the skill level {spec.name!r} takes no parameters",
                    file=source,
                    key="strategy",
                    hint=f"It plays {ladder.LEVELS[spec.name]}; give that strategy its "
                    "parameters instead.",
                )
            level = dict(ladder.LEVELS[spec.name])
            name, params, source = level.pop("name"), level, str(ladder.LADDER_FILE)
        elif spec.name in STRATEGIES:
            name, params = spec.name, dict(spec.params)
        else:
            raise unknown_strategy(spec.name, NAMES, source=source)
        module = STRATEGIES[name]
        values = checked_params(name, module.PARAMS, params, source=source, fields=module.FIELDS)
        return Player(name, tuple(sorted(values.items()))), values


REGISTRY = Registry()


@functools.lru_cache(maxsize=16)
def _table(name: str, params: tuple[tuple[str, Any], ...], rules: Rules) -> np.ndarray:
    table = STRATEGIES[name].table(rules, **dict(params))
    table.flags.writeable = False
    return table
