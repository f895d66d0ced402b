"""Pig's players. Each builds a roll table (pig/policy.py) for the ruleset it plays:

- `hold` (`{name: hold, at: 20}`): roll until the turn total reaches `at`;
- `optimal`: the exact optimal policy, by value iteration (values.py);
- the skill ladder (ladder.yaml, plain data): levels from `careless` to `optimal`, each a
  strategy with its parameters.

A game's rules never import its players: the plug-in hands the engine the tables built here.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from pig.ruleset import Rules
from pig.strategies import hold, optimal
from sim.errors import ConfigError
from strategies.registry import checked_params, unknown_strategy

STRATEGIES = {"hold": hold, "optimal": optimal}
LADDER_FILE = Path(__file__).resolve().parent / "ladder.yaml"
LADDER: dict[str, dict[str, Any]] = yaml.safe_load(LADDER_FILE.read_text(encoding="utf-8"))
SKILLS = tuple(LADDER)  # weakest first
NAMES = tuple(dict.fromkeys((*STRATEGIES, *SKILLS)))


def resolve(spec, *, source: str | None) -> tuple[str, dict[str, Any]]:
    """The built-in strategy a spec (a StrategySpec) plays and its checked parameters,
    defaults filled in; a skill level is the strategy it names. ConfigError naming `source`
    for an unknown name or a bad parameter."""
    if spec.name in LADDER and spec.name not in STRATEGIES:
        if spec.params:
            raise ConfigError(
                f"the skill level {spec.name!r} takes no parameters",
                file=source,
                key="strategy",
                hint=f"It plays {LADDER[spec.name]}; give that strategy its parameters instead.",
            )
        level = dict(LADDER[spec.name])
        name, params, source = level.pop("name"), level, str(LADDER_FILE)
    elif spec.name in STRATEGIES:
        name, params = spec.name, dict(spec.params)
    else:
        raise unknown_strategy(spec.name, NAMES, source=source)
    module = STRATEGIES[name]
    values = checked_params(name, module.PARAMS, params, source=source, fields=module.FIELDS)
    return name, values


def table_for(spec, rules: Rules) -> np.ndarray:
    """The roll table of `spec` for `rules` (read-only; built once per process)."""
    name, params = resolve(spec, source=None)
    return _table(name, tuple(sorted(params.items())), rules)


@functools.lru_cache(maxsize=16)
def _table(name: str, params: tuple[tuple[str, Any], ...], rules: Rules) -> np.ndarray:
    table = STRATEGIES[name].table(rules, **dict(params))
    table.flags.writeable = False
    return table
