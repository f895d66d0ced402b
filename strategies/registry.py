"""What every game's strategy registry shares: a built-in strategy as a module (PARAMS, a
compiled `policy`; the module's name is the strategy's), a registry of such modules, the error
for an unknown name, and a strategy's parameters checked against its defaults."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any

import numpy as np

from sim.config.fields import Field, coerce
from sim.config.words import did_you_mean
from sim.errors import ConfigError

_NUMBER = Field("float")


@dataclass(frozen=True)
class ModuleStrategy:
    """A built-in strategy: a module with PARAMS (name -> default) and a compiled `policy`."""

    name: str
    module: ModuleType

    @property
    def defaults(self) -> dict[str, float]:
        return dict(self.module.PARAMS)

    @property
    def doc(self) -> str:
        return (self.module.__doc__ or "").strip()

    @property
    def compiled(self) -> bool:
        """A built-in is a compiled policy (a user's strategy may be plain Python)."""
        return True

    @property
    def policy(self) -> Any:
        """The compiled policy the rules call (the game's decision.py says how)."""
        return self.module.policy

    @property
    def policy_source(self) -> tuple[str, str]:
        """(module, attribute) of the policy, for compiling it before a run."""
        return self.module.__name__, "policy"

    @property
    def builds_on(self) -> tuple[tuple[str, str], ...]:
        """The policy sources of the built-ins whose compiled code this policy calls, their
        policies or the functions those call (the module's BUILDS_ON names them): it compiles
        after them when a lineup holds them (sim.plugins.policy_table)."""
        package = self.module.__name__.rpartition(".")[0]
        return tuple(
            (f"{package}.{name}", "policy") for name in getattr(self.module, "BUILDS_ON", ())
        )


def module_strategies(package: str, names: Sequence[str]) -> dict[str, ModuleStrategy]:
    """name -> the built-in strategy in module `<package>.<name>`, in the order of `names`."""
    return {name: ModuleStrategy(name, import_module(f"{package}.{name}")) for name in names}


@dataclass(frozen=True)
class ModuleRegistry:
    """A game's built-in strategies: module `<package>.<name>` for each of `names` (weakest
    first where they form a ladder); `fields` gives some parameters narrower limits."""

    package: str
    names: tuple[str, ...]
    fields: Mapping[str, Field] = field(default_factory=dict)

    def builtins(self) -> dict[str, ModuleStrategy]:
        return module_strategies(self.package, self.names)

    def resolve(self, spec: Any, *, source: str | None = None) -> tuple[ModuleStrategy, np.ndarray]:
        """The strategy `spec` (a StrategySpec) names and its parameters in PARAMS order,
        defaults filled in, each checked (a ConfigError naming `source`)."""
        strategy = find_strategy(self.builtins(), spec.name, source=source)
        values = checked_params(strategy.name, strategy.defaults, dict(spec.params),
                                source=source, fields=self.fields)  # fmt: skip
        return strategy, np.array(list(values.values()), np.float64)


def find_strategy(table: Mapping[str, ModuleStrategy], name: str, *,
                  source: str | None) -> ModuleStrategy:  # fmt: skip
    """`table[name]`, or the unknown-strategy error naming `source` and the nearest name."""
    if name in table:
        return table[name]
    raise unknown_strategy(name, tuple(table), source=source)


def unknown_strategy(
    name: str, known: Sequence[str], *, source: str | None, hint: str | None = None
) -> ConfigError:
    """The error for a strategy name that is not in `known`, with the nearest known name."""
    if hint is None:
        hint = did_you_mean(name, known, otherwise=f"Known strategies: {', '.join(known)}.")
    return ConfigError(f"unknown strategy {name!r}", file=source, key="strategy", hint=hint)


def checked_params(
    strategy: str,
    defaults: Mapping[str, float],
    params: Mapping[str, Any],
    *,
    source: str | None,
    fields: Mapping[str, Field] | None = None,
) -> dict[str, float]:
    """`defaults` with `params` applied, in the order of `defaults`: each key must be one of
    them and each value a number (`fields` gives some keys narrower limits)."""
    values = dict(defaults)
    for key, raw in params.items():
        if key not in defaults:
            takes = f"{strategy} takes: {', '.join(defaults) or 'no parameters'}."
            hint = did_you_mean(key, list(defaults), otherwise=takes)
            raise ConfigError(
                f"unknown parameter {key!r} of strategy {strategy!r}",
                file=source,
                key=f"strategy.{key}",
                hint=hint,
            )
        field = (fields or {}).get(key, _NUMBER)
        values[key] = coerce(field, raw, file=source, key=f"{strategy}.{key}")
    return values
