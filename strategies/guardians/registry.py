"""Built-in Guardians strategies by name, the skill ladder and parameter validation."""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import import_module
from typing import Any

import numpy as np

from sim.config import Field
from strategies.guardians.skilled import LEVELS
from strategies.registry import ModuleStrategy, checked_params, unknown_strategy

# The built-in strategies, one module each under strategies/guardians/.
BUILTIN = (
    "random", "greedy", "cautious", "economist", "miner", "thief", "expert", "skilled", "master",
)  # fmt: skip

# The skill ladder, weakest first: each level is a built-in and the parameters that place it
# (the levels below the master are points on `skilled`'s continuous `skill`).
LADDER: dict[str, tuple[str, dict[str, float]]] = {
    **{level: ("skilled", {"skill": skill}) for level, skill in LEVELS.items()},
    "master": ("master", {}),
}
SKILLS = tuple(LADDER)
# parameters with narrower limits than any number, per built-in: `shop` is off or on
FIELDS: dict[str, dict[str, Field]] = {"skilled": {"shop": Field("int", min=0, max=1)}}
CONTINUOUS = ("skilled", "skill")  # the strategy and parameter of the continuous knob
__all__ = [
    "BUILTIN", "CONTINUOUS", "LADDER", "LEVELS", "SKILLS", "builtins", "param_vector", "resolve",
]  # fmt: skip


@dataclass(frozen=True)
class BuiltinStrategy(ModuleStrategy):
    preset: tuple[tuple[str, float], ...] = ()  # a ladder level's parameters

    @property
    def defaults(self) -> dict[str, float]:
        return {**self.module.PARAMS, **dict(self.preset)}


def builtins() -> dict[str, BuiltinStrategy]:
    return {
        name: BuiltinStrategy(name, import_module(f"strategies.guardians.{name}"))
        for name in BUILTIN
    }


def resolve(name: str, *, source: str | None = None) -> BuiltinStrategy:
    """A built-in strategy or a ladder level by name; unknown names get the nearest one."""
    table = builtins()
    if name in LADDER:
        base, preset = LADDER[name]
        return replace(table[base], preset=tuple(preset.items()))
    if name in table:
        return table[name]
    known = sorted(table) + [s for s in SKILLS if s not in table]  # `master` is both
    hint = None
    if name == "skill":
        hint = "A seat named 'skill' takes each level of the experiment's `skills` key."
    raise unknown_strategy(name, known, source=source, hint=hint)


def param_vector(
    strategy: BuiltinStrategy, params: dict[str, Any], *, source: str | None = None
) -> np.ndarray:
    """The strategy's parameters in PARAMS order, defaults filled in, each key validated;
    a module's `derive` then fills the parameters that follow from others."""
    defaults = strategy.defaults
    fields = FIELDS.get(strategy.name)
    values = checked_params(strategy.name, defaults, params, source=source, fields=fields)
    module = getattr(strategy, "module", None) or getattr(strategy, "target", None)
    derive = getattr(module, "derive", None)
    if derive is not None:
        values = derive(values)
    return np.array([values[k] for k in defaults] or [0.0], np.float64)
