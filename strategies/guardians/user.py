"""Strategies from outside this package, named `package.module:Name` in an experiment.

Two kinds (docs/games/guardians/strategies.md):
- compiled: `Name` has PARAMS and a numba-compiled `policy(phase, s, p, seat, sp, rng, a,
  scratch)` with the built-ins' signature (a module with those attributes works too); the compiled
  game loop calls it like a built-in one, at full speed;
- plain Python: `Name` is a class with PARAMS and methods `place(view) -> column`,
  `mine_start(view) -> row` and `turn(view) -> Turn` (rulebook coordinates, 1-based); it runs
  in a Python game loop, slower.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from numba.core.registry import CPUDispatcher

from sim import plugin_path
from sim.errors import ConfigError


@dataclass(frozen=True)
class UserStrategy:
    name: str  # as written: package.module:Name
    target: Any  # the class or module
    compiled: bool

    @property
    def defaults(self) -> dict[str, float]:
        return dict(getattr(self.target, "PARAMS", {}))

    @property
    def policy(self):
        return self.target.policy

    @property
    def policy_source(self) -> tuple[str, str]:
        """(module, attribute) of the compiled policy, for compiling it in another process."""
        module, _, attr = self.name.partition(":")
        return module, f"{attr}.policy" if attr else "policy"

    @property
    def builds_on(self) -> tuple[tuple[str, str], ...]:
        """A user's policy compiles on its own (strategies.registry.ModuleStrategy)."""
        return ()

    def make(self, params: dict[str, Any]):
        """A plain-Python player with these parameters."""
        return self.target(**params)


def is_user_name(name: str) -> bool:
    return ":" in name


def load(name: str, *, source: str | None = None) -> UserStrategy:
    """Import `package.module:Name` and tell its kind; errors name the experiment file.

    The experiment file's folder and the current folder are searched too (sim.plugin_path).
    """
    module_name, _, attr = name.partition(":")
    if not module_name.strip():
        raise ConfigError(
            f"no module before ':' in {name!r}",
            file=source,
            key="strategy",
            hint="Name a user strategy as package.module:Name, e.g. mybots:Lowest.",
        )
    with plugin_path.searching(plugin_path.user_paths(source)):
        module = plugin_path.import_module(module_name, source=source)
    target = getattr(module, attr, None) if attr else module
    if target is None:
        public = ", ".join(n for n in dir(module) if not n.startswith("_"))
        raise ConfigError(
            f"module {module_name!r} has no {attr!r}",
            file=source,
            key="strategy",
            hint=f"public names there: {public}",
        )
    if isinstance(getattr(target, "policy", None), CPUDispatcher):
        return UserStrategy(name, target, compiled=True)
    if isinstance(target, type) and all(callable(getattr(target, m, None))
                                        for m in ("place", "mine_start", "turn")):  # fmt: skip
        return UserStrategy(name, target, compiled=False)
    kind = "module" if isinstance(target, ModuleType) else type(target).__name__
    raise ConfigError(
        f"{name!r} ({kind}) is not a strategy",
        file=source,
        key="strategy",
        hint="give it a numba-compiled `policy` and PARAMS, or a class with place, "
        "mine_start and turn methods (see docs/games/guardians/strategies.md)",
    )
