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

A level may be a playtest group's fit, `{fit: FILE, group: G}` (sim/experiment/fits.py): its
seats named `skill` play the game's knob at the group's fitted skill, its fitted skill rules
apply to every arm at it, and it is named as the reports say it, "your group (fitted from 42
games)". A seat `{fit: FILE, player: P}` anywhere is the knob at P's fitted skill.

What the results hold (the report side relies on it; docs/results.md):
- arms are named `<arm>@<level>`, level by level in the order of `skills`;
- the parameter column `skill` (a string: the level) in the games and seats tables;
- each arm's manifest entry has "skill" (the level) and "base_arm" (the arm's own name);
- the baseline at a level is `<baseline>@<level>`; the experiment's `baseline` names the
  one at the first level.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from sim.errors import ConfigError
from sim.experiment import arms as arm_expansion
from sim.experiment.checks import baseline as checked_baseline
from sim.experiment.fits import FitLevel, fit_level, is_fit, player_seat
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
        fit = level if isinstance(level, FitLevel) else None
        level = fit.name if fit is not None else level
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


def _levels(parser: Reading) -> list[str | FitLevel]:
    value = parser.data[KEY]
    path = (KEY,)
    if isinstance(value, str | dict):
        value = [value]
    if not isinstance(value, list) or not value:
        raise parser.fail(
            "expected a list of skill levels",
            path,
            "For example skills: [casual, club, strong] (weakest first).",
        )
    value = [
        _fit_level(parser, level, i) if is_fit(level) else level for i, level in enumerate(value)
    ]
    names = [level.name if isinstance(level, FitLevel) else level for level in value]
    for i, level in enumerate(value):
        if isinstance(level, FitLevel):
            if names[i] in names[:i]:
                raise parser.fail(f"level '{names[i]}' is listed twice", (KEY, i))
            continue
        if not isinstance(level, str):
            raise parser.fail(
                "expected a level name, or a fit {fit: FILE}",
                (KEY, i),
                "For example club, or {fit: results/playtest/fit.yaml}.",
            )
        if level in names[:i]:
            raise parser.fail(f"level '{level}' is listed twice", (KEY, i))
        if level == SEAT:
            raise parser.fail(f"'{SEAT}' names the seats that take the levels", (KEY, i))
        try:
            parser.game.check_strategy(StrategySpec(level), source=parser.file or "experiment")
        except ConfigError as err:
            raise parser.fail(err.message, (KEY, i), err.hint) from None
    return value


def _fit_level(parser: Reading, entry: dict, i: int) -> FitLevel:
    """A `{fit: FILE, group: G}` level, read (an error names the experiment's key)."""
    assert parser.game is not None
    try:
        return fit_level(entry, game=parser.game.name, base=parser.base_dir, where=f"{KEY}[{i}]")
    except ConfigError as err:
        where = f" ({err.file})" if err.file else ""
        raise parser.fail(err.message + where, (KEY, i), err.hint) from None


def _with_level(data: Mapping[str, Any], level: str | FitLevel) -> dict[str, Any]:
    """A copy of the experiment with every seat entry named `skill` renamed to `level` (a
    fit's level: its seat, and its rules for every arm)."""
    out = seat_entries(data, lambda value: _entry(value, level))
    if isinstance(level, FitLevel) and level.rules:
        rules = out.get("rules") if isinstance(out.get("rules"), dict) else {}
        out["rules"] = {**rules, **level.rules}
    return out


def seat_entries(data: Mapping[str, Any], change: Callable[[Any], Any]) -> dict[str, Any]:
    """A copy of the experiment with `change` applied to every seat entry, wherever one is
    written: `seats`/`strategies`/`pool` at the top and in every arm, and the values of
    `seats.*` sweep keys."""
    out = copy.deepcopy(dict(data))

    def entries(value: Any) -> Any:
        return [change(v) for v in value] if isinstance(value, list) else change(value)

    for key in _SEAT_LISTS:
        if key in out:
            out[key] = entries(out[key])
    for arm in out.get("arms") or []:
        if isinstance(arm, dict):
            for key in _SEAT_LISTS:
                if key in arm:
                    arm[key] = entries(arm[key])
    sweep = out.get("sweep")
    for grid in sweep if isinstance(sweep, list) else [sweep]:
        if isinstance(grid, dict):
            for key, values in grid.items():
                if str(key).startswith(_SEAT_LISTS) and isinstance(values, list):
                    grid[key] = [change(v) for v in values]
    return out


def _entry(value: Any, level: str | FitLevel) -> Any:
    named = value == SEAT or (isinstance(value, dict) and value.get("name") == SEAT)
    if named and isinstance(level, FitLevel):
        return level.seat(value)
    if value == SEAT:
        return level
    if isinstance(value, dict) and value.get("name") == SEAT:
        return {**value, "name": level}
    return value


def fit_seats(reading: Reading) -> Reading:
    """The experiment with every seat `{fit: FILE, player: P}` the knob at P's fitted skill
    (sim/experiment/fits.py); an error names the experiment's key."""
    assert reading.game is not None
    game = reading.game.name

    def seat(value: Any) -> Any:
        if not is_fit(value):
            return value
        try:
            return player_seat(value, game=game, base=reading.base_dir, where="seats")
        except ConfigError as err:
            where = f" ({err.file})" if err.file else ""
            raise reading.fail(err.message + where, ("seats",), err.hint) from None

    changed = seat_entries(reading.data, seat)
    return reading if changed == reading.data else reading.with_data(changed)
