"""Built-in Space Invaders strategies by name, their compiled policies and parameter checks.

Every strategy's first parameter is `spread_scale`, the seat's own dexterity factor (it
multiplies the table's launch error: 1.5 for a child among adults)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.config import Field
from sim.games.space_invaders.schema import TEAM_SKILLS as ORDER
from strategies.registry import (
    ModuleStrategy,
    checked_params,
    find_strategy,
    module_strategies,
)

# the team-skill ladder, weakest first
SKILLS = ORDER
_LIMITS = {"spread_scale": Field("float", min=0.1, max=5.0)}


BuiltinStrategy = ModuleStrategy


def builtins() -> dict[str, BuiltinStrategy]:
    return module_strategies("strategies.space_invaders", ORDER)


def resolve(name: str, *, source: str | None = None) -> BuiltinStrategy:
    return find_strategy(builtins(), name, source=source)


def param_vector(
    strategy: BuiltinStrategy, params: dict[str, Any], *, source: str | None = None
) -> np.ndarray:
    """The parameters in PARAMS order, defaults filled in, each checked."""
    values = checked_params(strategy.name, strategy.defaults, params, source=source,
                            fields=_LIMITS)  # fmt: skip
    return np.array(list(values.values()), np.float64)
