"""Built-in alien-raid strategies by name, their compiled policies, parameters and the skill
ladder. A strategy is a module of this package (NAME, PARAMS and a compiled `policy`, see
common.py); the rules call its policy through a function pointer (decision.py)."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches
from importlib import import_module
from types import ModuleType
from typing import Any

import numpy as np

from sim.config import Field, coerce
from sim.errors import ConfigError
from sim.games.alien_raid.schema import SKILLS

ORDER = LADDER = SKILLS  # every built-in strategy, weakest first (tests/alien_raid/test_ladder.py)


@dataclass(frozen=True)
class BuiltinStrategy:
    name: str
    module: ModuleType

    @property
    def defaults(self) -> dict[str, float]:
        return dict(self.module.PARAMS)

    @property
    def doc(self) -> str:
        return (self.module.__doc__ or "").strip()

    @property
    def policy(self) -> Any:
        """The compiled policy the rules call."""
        return self.module.policy

    @property
    def policy_source(self) -> tuple[str, str]:
        """(module, attribute) of the policy, for compiling it before a run."""
        return self.module.__name__, "policy"


def builtins() -> dict[str, BuiltinStrategy]:
    return {name: BuiltinStrategy(name, import_module(f"strategies.alien_raid.{name}"))
            for name in ORDER}  # fmt: skip


def resolve(name: str, *, source: str | None = None) -> BuiltinStrategy:
    table = builtins()
    if name in table:
        return table[name]
    close = get_close_matches(name, sorted(table), n=1)
    hint = f"Did you mean {close[0]!r}?" if close else f"Known strategies: {', '.join(table)}."
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
                else f"{strategy.name} takes: {', '.join(defaults)}."
            )
            raise ConfigError(
                f"unknown parameter {key!r} of strategy {strategy.name!r}",
                file=source,
                key=f"strategy.{key}",
                hint=hint,
            )
        values[key] = coerce(Field("float"), raw, file=source, key=f"{strategy.name}.{key}")
    return np.array([values[k] for k in defaults], np.float64)
