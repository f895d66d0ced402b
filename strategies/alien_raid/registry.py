"""Built-in alien-raid strategies by name, their compiled policies, parameters and the skill
ladder. A strategy is a module of this package (NAME, PARAMS and a compiled `policy`, see
common.py); the rules call its policy through a function pointer (decision.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games.alien_raid.schema import SKILLS
from strategies.registry import (
    ModuleStrategy,
    checked_params,
    find_strategy,
    module_strategies,
)

ORDER = LADDER = SKILLS  # every built-in strategy, weakest first (tests/alien_raid/test_ladder.py)
BuiltinStrategy = ModuleStrategy


def builtins() -> dict[str, BuiltinStrategy]:
    return module_strategies("strategies.alien_raid", ORDER)


def resolve(name: str, *, source: str | None = None) -> BuiltinStrategy:
    return find_strategy(builtins(), name, source=source)


def param_vector(
    strategy: BuiltinStrategy, params: dict[str, Any], *, source: str | None = None
) -> np.ndarray:
    """The strategy's parameters in PARAMS order, defaults filled in, each key validated."""
    values = checked_params(strategy.name, strategy.defaults, params, source=source)
    return np.array(list(values.values()), np.float64)
