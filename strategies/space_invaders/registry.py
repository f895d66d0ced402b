"""Built-in Space Invaders strategies by name, their compiled policies and parameter checks.

Every strategy's first parameter is `spread_scale`, the seat's own dexterity factor (it
multiplies the table's launch error: 1.5 for a child among adults)."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches
from importlib import import_module
from types import ModuleType
from typing import Any

import numpy as np

from sim.config import Field, coerce
from sim.errors import ConfigError
from sim.games.space_invaders.schema import TEAM_SKILLS as ORDER

# the team-skill ladder, weakest first
SKILLS = ORDER
_LIMITS = {"spread_scale": Field("float", min=0.1, max=5.0)}


@dataclass(frozen=True)
class BuiltinStrategy:
    name: str
    module: ModuleType

    @property
    def policy(self):
        """The compiled policy (sim/games/space_invaders/decision.py says how it is called)."""
        return self.module.policy

    @property
    def policy_source(self) -> tuple[str, str]:
        """(module, attribute) of the policy: what prepare() compiles."""
        return self.module.__name__, "policy"

    @property
    def defaults(self) -> dict[str, float]:
        return dict(self.module.PARAMS)

    @property
    def doc(self) -> str:
        return (self.module.__doc__ or "").strip()


def builtins() -> dict[str, BuiltinStrategy]:
    return {name: BuiltinStrategy(name, import_module(f"strategies.space_invaders.{name}"))
            for name in ORDER}  # fmt: skip


def resolve(name: str, *, source: str | None = None) -> BuiltinStrategy:
    table = builtins()
    if name in table:
        return table[name]
    close = get_close_matches(name, list(table), n=1)
    hint = f"Did you mean {close[0]!r}?" if close else f"Known strategies: {', '.join(table)}."
    raise ConfigError(f"unknown strategy {name!r}", file=source, key="strategy", hint=hint)


def param_vector(
    strategy: BuiltinStrategy, params: dict[str, Any], *, source: str | None = None
) -> np.ndarray:
    """The parameters in PARAMS order, defaults filled in, each checked."""
    values = strategy.defaults
    for key, raw in params.items():
        if key not in values:
            close = get_close_matches(key, list(values), n=1)
            hint = f"Did you mean {close[0]!r}?" if close else f"Takes: {', '.join(values)}."
            raise ConfigError(
                f"unknown parameter {key!r} of strategy {strategy.name!r}",
                file=source,
                key=f"strategy.{key}",
                hint=hint,
            )
        field = _LIMITS.get(key, Field("float"))
        values[key] = coerce(field, raw, file=source, key=f"{strategy.name}.{key}")
    return np.array(list(values.values()), np.float64)
