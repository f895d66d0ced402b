"""The experiment key `skills`: every arm repeated at each skill level, on the same seeds.

    skills: [casual, club, strong]
    seats: [{name: skill, missile_at: 12}, skill, skill, skill]

`skills: []` (for example `--set skills=[]` with fixed seats) plays the arms once, as
without the key. A seat entry named `skill` (as a name, or the `name` of a mapping) takes each
level in turn, so `{name: skill, missile_at: 12}` becomes `{name: club, missile_at: 12}` at
`club`. Seat entries are rewritten wherever they are written: `seats`/`strategies`/`pool` at
the top and in every arm, and the values of `seats.*` sweep keys. Every arm is played at
every level with the same root seed, so game i has the same seed at every level too (common
random numbers across arms and levels).

What the results hold (the report side relies on it; docs/results.md):
- arms are named `<arm>@<level>`, level by level in the order of `skills`;
- the parameter column `skill` (a string: the level) in the games and seats tables;
- each arm's manifest entry has "skill" (the level) and "base_arm" (the arm's own name);
- the baseline at a level is `<baseline>@<level>`; the experiment's `baseline` names the
  one at the first level.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sim.errors import ConfigError
from sim.experiment import arms as arm_expansion
from sim.experiment.checks import baseline as checked_baseline
from sim.experiment.reading import Reading
from sim.experiment.sweep import param_columns
from sim.plugins.base import StrategySpec

KEY = "skills"
SEAT = "skill"  # the seat name that takes each level
COLUMN = "skill"
_SEAT_LISTS = ("seats", "strategies", "pool")


def repeat_arms(reading: Reading) -> tuple[list[Any], str | None, tuple[tuple[str, str], ...]]:
    """(arms, baseline, parameter columns) of the experiment being read, every arm at every
    level of its `skills` key."""
    arms: list[Any] = []
    baseline = None
    columns: tuple[tuple[str, str], ...] = ()
    for level in _levels(reading):
        at_level = reading.with_data(_with_level(reading.data, level))
        if at_level.data == reading.data:
            raise reading.fail(
                f"no seat is named '{SEAT}', so every level would play the same games",
                (KEY,),
                f"Name the seats that take each level '{SEAT}', e.g. seats: "
                f"[{{name: {SEAT}, missile_at: 12}}, {SEAT}, {SEAT}, {SEAT}].",
            )
        level_arms = arm_expansion.expand(at_level)
        base = checked_baseline(at_level, level_arms)
        columns = param_columns(at_level, level_arms) + ((COLUMN, "str"),)
        if baseline is None and base is not None:
            baseline = f"{base}@{level}"
        for arm in level_arms:
            arms.append(replace(
                arm, index=len(arms), name=f"{arm.name}@{level}",
                params=(*arm.params, (COLUMN, level)), skill=level, base_arm=arm.name,
            ))  # fmt: skip
    return arms, baseline, columns


def _levels(parser: Reading) -> list[str]:
    value = parser.data[KEY]
    path = (KEY,)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise parser.fail(
            "expected a list of skill levels",
            path,
            "For example skills: [casual, club, strong] (weakest first).",
        )
    for i, level in enumerate(value):
        if not isinstance(level, str):
            raise parser.fail("expected a level name", (KEY, i), "For example club.")
        if level in value[:i]:
            raise parser.fail(f"level '{level}' is listed twice", (KEY, i))
        if level == SEAT:
            raise parser.fail(f"'{SEAT}' names the seats that take the levels", (KEY, i))
        try:
            parser.game.check_strategy(StrategySpec(level), source=parser.file or "experiment")
        except ConfigError as err:
            raise parser.fail(err.message, (KEY, i), err.hint) from None
    return value


def _with_level(data: Mapping[str, Any], level: str) -> dict[str, Any]:
    """A copy of the experiment with every seat entry named `skill` renamed to `level`."""
    out = copy.deepcopy(dict(data))
    for key in _SEAT_LISTS:
        if key in out:
            out[key] = _entries(out[key], level)
    for arm in out.get("arms") or []:
        if isinstance(arm, dict):
            for key in _SEAT_LISTS:
                if key in arm:
                    arm[key] = _entries(arm[key], level)
    sweep = out.get("sweep")
    for grid in sweep if isinstance(sweep, list) else [sweep]:
        if isinstance(grid, dict):
            for key, values in grid.items():
                if str(key).startswith(_SEAT_LISTS) and isinstance(values, list):
                    grid[key] = [_entry(v, level) for v in values]
    return out


def _entries(value: Any, level: str) -> Any:
    if isinstance(value, list):
        return [_entry(v, level) for v in value]
    return _entry(value, level)


def _entry(value: Any, level: str) -> Any:
    if value == SEAT:
        return level
    if isinstance(value, dict) and value.get("name") == SEAT:
        return {**value, "name": level}
    return value
