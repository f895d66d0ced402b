"""Built-in Guardians strategies by name, what each level of the skill ladder plays, and
parameter validation. Light: a strategy's module is imported when it is resolved."""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import import_module
from typing import Any

import numpy as np

from sim.config.fields import Field
from strategies.guardians.ladder import KNOB, LADDER, POINTS
from strategies.registry import ModuleStrategy, checked_params, unknown_strategy

# The built-in strategies, one module each under strategies/guardians/.
BUILTIN = (
    "random", "greedy", "cautious", "economist", "miner", "thief", "expert", "skilled", "master",
)  # fmt: skip

# What each level of the skill ladder (ladder.py) plays: a built-in and the parameters that
# place it (the levels below the master are points on the continuous knob).
LEVEL_PLAYS: dict[str, tuple[str, dict[str, float]]] = {
    **{level: (KNOB[0], {KNOB[1]: skill}) for level, skill in POINTS.items()},
    "master": ("master", {}),
}
assert tuple(LEVEL_PLAYS) == LADDER, "every level of the ladder plays a built-in"
# parameters with narrower limits than any number, per built-in: `shop` is off or on
FIELDS: dict[str, dict[str, Field]] = {"skilled": {"shop": Field("int", min=0, max=1)}}


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


def resolve_spec(spec: Any, *, source: str | None = None) -> tuple[Any, np.ndarray]:
    """The strategy `spec` (a StrategySpec) names, a built-in, a ladder level or a user
    strategy (`package.module:Name`, strategies/guardians/user.py), and its parameter vector,
    each parameter checked (a ConfigError naming `source`)."""
    from strategies.guardians import user  # imports numba: only for a user strategy

    if user.is_user_name(spec.name):
        strategy = user.load(spec.name, source=source)
    else:
        strategy = resolve(spec.name, source=source)
    return strategy, param_vector(strategy, dict(spec.params), source=source)


def resolve(name: str, *, source: str | None = None) -> BuiltinStrategy:
    """A built-in strategy or a ladder level by name; unknown names get the nearest one."""
    table = builtins()
    if name in LEVEL_PLAYS:
        base, preset = LEVEL_PLAYS[name]
        return replace(table[base], preset=tuple(preset.items()))
    if name in table:
        return table[name]
    known = sorted(table) + [s for s in LADDER if s not in table]  # `master` is both
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
