"""Built-in Space Invaders strategies by name, their compiled policies and parameter checks.

Every strategy's first parameter is `spread_scale`, the seat's own dexterity factor (it
multiplies the table's launch error: 1.5 for a child among adults)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any

import numpy as np

from sim.config import Field
from sim.games.space_invaders.schema import TEAM_SKILLS as ORDER
from strategies.registry import checked_params, unknown_strategy

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
    raise unknown_strategy(name, tuple(table), source=source)


def param_vector(
    strategy: BuiltinStrategy, params: dict[str, Any], *, source: str | None = None
) -> np.ndarray:
    """The parameters in PARAMS order, defaults filled in, each checked."""
    values = checked_params(strategy.name, strategy.defaults, params, source=source,
                            fields=_LIMITS)  # fmt: skip
    return np.array(list(values.values()), np.float64)
