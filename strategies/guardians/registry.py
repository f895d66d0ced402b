"""Built-in Guardians strategies by name, and their parameters' validation."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches
from importlib import import_module
from types import ModuleType
from typing import Any

import numpy as np

from sim.config import Field, coerce
from sim.errors import ConfigError

# The built-in strategies, one module each under strategies/guardians/.
BUILTIN = ("random", "greedy", "cautious", "economist", "miner", "thief", "expert")

# Skill presets: difficulty tables speak of player skill through these names.
SKILLS = {"novice": "random", "casual": "greedy", "expert": "expert"}


@dataclass(frozen=True)
class BuiltinStrategy:
    name: str
    module: ModuleType

    @property
    def policy(self):
        """The compiled policy (sim/games/guardians/decision.py says how it is called)."""
        return self.module.policy

    @property
    def policy_source(self) -> tuple[str, str]:
        return self.module.__name__, "policy"

    @property
    def defaults(self) -> dict[str, float]:
        return dict(self.module.PARAMS)

    @property
    def doc(self) -> str:
        return (self.module.__doc__ or "").strip()


def builtins() -> dict[str, BuiltinStrategy]:
    return {
        name: BuiltinStrategy(name, import_module(f"strategies.guardians.{name}"))
        for name in BUILTIN
    }


def resolve(name: str, *, source: str | None = None) -> BuiltinStrategy:
    """A built-in strategy or skill preset by name; unknown names get the nearest one."""
    table = builtins()
    name = SKILLS.get(name, name)
    if name in table:
        return table[name]
    known = sorted(table) + sorted(set(SKILLS) - set(table))  # `expert` is both
    close = get_close_matches(name, known, n=1)
    hint = f"Did you mean {close[0]!r}?" if close else f"Known strategies: {', '.join(known)}."
    raise ConfigError(f"unknown strategy {name!r}", file=source, key="strategy", hint=hint)


def param_vector(
    strategy: BuiltinStrategy, params: dict[str, Any], *, source: str | None = None
) -> np.ndarray:
    """The strategy's parameters in PARAMS order, defaults filled in, each key validated."""
    defaults = strategy.defaults
    values = dict(defaults)
    for key, raw in params.items():
        if key not in defaults:
            close = get_close_matches(key, list(defaults), n=1)
            hint = (
                f"Did you mean {close[0]!r}?"
                if close
                else f"{strategy.name} takes: {', '.join(defaults) or 'no parameters'}."
            )
            raise ConfigError(
                f"unknown parameter {key!r} of strategy {strategy.name!r}",
                file=source,
                key=f"strategy.{key}",
                hint=hint,
            )
        values[key] = coerce(Field("float"), raw, file=source, key=f"{strategy.name}.{key}")
    return np.array([values[k] for k in defaults] or [0.0], np.float64)
