"""The sweep grammar and the parameter columns it gives.

    sweep: {missile.cost: [5, 8, 10], seats.0.missile_at: [10, 15], players: [3, 4]}

A sweep key is a rule key (optionally written `rules.<key>`), `players`, `ruleset`, a seat:
`seats.<k>` (the strategy in entry k), `seats.<k>.<param>`, `seats.all` or `seats.all.<param>`
(`strategies.` and `pool.` are read as `seats.`), or `rules`, whose values are mappings of rule
keys set together (`rules: [{catalog.file: fast}, {geometry.ufo_width_mm: 100,
geometry.ufo_depth_mm: 60}]`). Every combination of the listed values is one arm, named
`key=value, ...`. A sweep may also be a list of such grids, their arms one grid after
another: a main grid and, beside it, smaller ones on a few of its tables.

The swept keys (but `players` and `ruleset`, columns of every run; the rule keys of a `rules`
value each) become parameter columns holding each arm's effective value, in every arm (one
that does not sweep a key holds the value it plays). In arms mode the columns are the rule keys
any arm changes, plus `seats`/`rotate` if an arm changes its lineup.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sim.config.keys import flatten
from sim.experiment.checks import rule_pairs, show, strip_rules
from sim.experiment.model import jsonable
from sim.experiment.reading import KeyPath, Reading
from sim.plugins.base import StrategySpec

if TYPE_CHECKING:
    from sim.experiment.model import Arm

# sweep keys that are not rule keys; `seats.<k>`, `seats.<k>.<param>`, `seats.all[.<param>]`
SWEEP_SPECIAL = ("players", "ruleset")
GROUP = "rules"  # a sweep key whose values are mappings of rule keys set together
SEAT_KEY_RE = re.compile(r"^seats\.(\d+|all)(?:\.([A-Za-z_][A-Za-z0-9_]*))?$")
# columns the runner writes itself; parameter columns must not take these names
BASE_COLUMNS = ("arm", "game", "seed", "players", "ruleset", "seat")


Grid = list[tuple[str, list[Any]]]  # (key, values) in the file's order


def sweep_grids(p: Reading) -> list[tuple[KeyPath, Grid]]:
    """The `sweep` key as grids, each with the path it was written at (`sweep`, or
    `sweep[i]` in a list of grids)."""
    value = p.data.get("sweep")
    if value is None:
        return []
    if isinstance(value, list) and value:
        return [(("sweep", i), _grid(p, item, ("sweep", i))) for i, item in enumerate(value)]
    return [(("sweep",), _grid(p, value, ("sweep",)))]


def _grid(p: Reading, value: Any, where: KeyPath) -> Grid:
    """One grid as (key, values) in the file's order, seat keys as `seats.`."""
    if not isinstance(value, Mapping) or not value:
        raise p.fail(
            f"expected a mapping of keys to lists of values, got {show(value)}",
            where,
            "For example sweep: {missile.cost: [5, 8, 10]}, or a list of such grids.",
        )
    grouped = isinstance(value.get(GROUP), list)  # `rules: {key: [...]}` is rule keys' values
    flat = flatten({k: v for k, v in value.items() if not (grouped and k == GROUP)}, file=p.file)
    if grouped:
        flat[GROUP] = value[GROUP]
    out = []
    for key, values in flat.items():
        path: KeyPath = (*where, key)
        if not isinstance(values, list) or not values:
            raise p.fail(
                f"expected a list of values to sweep, got {show(values)}",
                path,
                f"For example {key}: [{label(values)}, ...]; a single value belongs in rules."
                if values != []
                else "List at least one value (two or more to compare).",
            )
        if len({json.dumps(jsonable(v), sort_keys=True) for v in values}) != len(values):
            raise p.fail("a value is listed twice", path)
        key = strip_rules(key)
        if key == "seats" or key.startswith(("seats.", "strategies.", "pool.")):
            key = "seats." + key.partition(".")[2] if "." in key else key
            if not SEAT_KEY_RE.match(key):
                raise p.fail(
                    "expected seats.<index>, seats.<index>.<parameter>, seats.all or "
                    "seats.all.<parameter>",
                    path,
                    "For example seats.0.missile_at: [10, 15, 20] or seats.all: [novice, expert].",
                )
        if key == GROUP:
            values = [dict(rule_pairs(p, v, (*path, i))) for i, v in enumerate(values)]
        out.append((key, values))
    return out


def combinations(grid: Grid) -> Iterator[tuple[str, dict[str, Any]]]:
    """(arm name, chosen value per key) for every combination, the last key fastest."""
    keys = [k for k, _ in grid]
    for combo in itertools.product(*(values for _, values in grid)):
        chosen = dict(zip(keys, combo, strict=True))
        yield ", ".join(_named(k, v) for k, v in chosen.items()), chosen


def _named(key: str, value: Any) -> str:
    if key == GROUP:  # rule keys set together: each by its own name
        return ", ".join(f"{k}={label(v)}" for k, v in value.items())
    return f"{key}={label(value)}"


def rule_choices(chosen: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The chosen values that are rule keys (those of a `rules` value each)."""
    out: list[tuple[str, Any]] = []
    for k, v in chosen.items():
        if k == GROUP:
            out.extend(v.items())
        elif k not in SWEEP_SPECIAL and not k.startswith("seats"):
            out.append((k, v))
    return out


def column_keys(grids: list[tuple[KeyPath, Grid]]) -> list[str]:
    """The parameter columns of a sweep: every grid's keys in first-seen order, a `rules`
    value's rule keys each, without `players` and `ruleset` (columns of every run)."""
    keys: dict[str, None] = {}
    for _, grid in grids:
        for key, values in grid:
            if key == GROUP:
                keys.update(dict.fromkeys(k for value in values for k in value))
            elif key not in SWEEP_SPECIAL:
                keys[key] = None
    return list(keys)


def arm_params(columns: list[str], chosen: Mapping[str, Any], ruleset: Any,
               pool: tuple[StrategySpec, ...]) -> tuple[tuple[str, Any], ...]:  # fmt: skip
    """An arm's parameter columns: the value it plays of every swept key (a seat key's as the
    sweep chose it, else its seats')."""
    out: dict[str, Any] = {}
    for key in columns:
        m = SEAT_KEY_RE.match(key)
        if m is None:
            out[key] = ruleset.values[key]
        elif key in chosen:
            out[key] = chosen[key]
        else:
            out[key] = _seat_value(pool, m.group(1), m.group(2))
    return tuple(out.items())


def _seat_value(pool: tuple[StrategySpec, ...], which: str, param: str | None) -> Any:
    """What the seats an unswept `seats.<which>[.<param>]` key names play ('' for a parameter
    left at the strategy's default)."""
    specs = pool if which == "all" else pool[int(which) : int(which) + 1]
    values = list(dict.fromkeys(dict(s.params).get(param, "") if param else s.label
                                for s in specs))  # fmt: skip
    return values[0] if len(values) == 1 else ",".join(map(str, values))


def param_columns(p: Reading, arms: list[Arm]) -> tuple[tuple[str, str], ...]:
    """Fix each parameter column's type (the arms' params are cast to it in place); in arms
    mode the columns are the rule keys any arm changes (with every arm's effective value),
    plus `seats`/`rotate` if an arm changes its lineup."""
    if "arms" in p.data:
        items = [i for i in p.data["arms"] if isinstance(i, Mapping)]
        rule_keys = list(dict.fromkeys(
            k for item in items for k, _ in rule_pairs(p, item.get("rules"), ())
        ))  # fmt: skip
        lineup_keys = ("seats", "strategies", "pool")
        seats = any(k in item for item in items for k in lineup_keys)
        rotate = any("rotate" in item for item in items)
        for i, arm in enumerate(arms):
            values: dict[str, Any] = {k: arm.ruleset.values[k] for k in rule_keys}
            if seats:
                values["seats"] = ",".join(spec.label for spec in arm.pool)
            if rotate:
                values["rotate"] = arm.rotate
            arms[i] = replace(arm, params=tuple(values.items()))
    names = [k for k, _ in arms[0].params] if arms else []
    columns = []
    for key in names:
        if key in BASE_COLUMNS:
            raise p.fail(f"'{key}' cannot be a parameter column", ("sweep", key))
        columns.append((key, _column_kind([dict(arm.params)[key] for arm in arms])))
    for i, arm in enumerate(arms):
        params = dict(arm.params)
        typed = tuple((k, _cast(params[k], kind)) for k, kind in columns)
        arms[i] = replace(arm, params=typed)
    return tuple(columns)


def label(value: Any) -> str:
    """A value as written in an arm's name or a string column: a seat given as a mapping
    with a `name` as a strategy's label (`club(shop=1)`), another mapping as JSON."""
    if isinstance(value, Mapping):
        params = {k: v for k, v in value.items() if k != "name"}
        if isinstance(value.get("name"), str) and all(_scalar(v) for v in params.values()):
            return StrategySpec(value["name"], tuple(sorted(params.items()))).label
        return json.dumps(jsonable(value), sort_keys=True)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(label(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _column_kind(values: list[Any]) -> str:
    if all(isinstance(v, bool) for v in values):
        return "bool"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "int"
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return "float"
    return "str"


def _cast(value: Any, kind: str) -> Any:
    if kind == "float":
        return float(value)
    if kind == "str" and not isinstance(value, str):
        return label(value)
    return value
