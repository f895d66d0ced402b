"""Guardians of Space rulesets: the key schema, the presets and the checks across keys.

A ruleset file is a YAML mapping of sections (``missile: {cost: 10}``) plus the metadata keys
``name``, ``title`` and ``extends``. ``rulesets/guardians.yaml`` holds every key and its default;
the other presets extend it and change a few keys (see docs/games/guardians/rules.md). Loading,
validation and
the immutable Ruleset are the toolkit's (sim/rulesets.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from sim.config.fields import Field, Schema
from sim.games.guardians import layout as L
from sim.rulesets import Ruleset, RulesetFamily, params_array

PRESETS = ("guardians", "guardians-advanced", "space-defenders", "space-defenders-upgrades")

_COST = {"min": 0, "max": 100}


def _key(kind: str, slot: int, doc: str, *, plain: str, **checks) -> Field:
    """A ruleset key the engine reads at `slot` of its params array (layout.P_*), said as
    `plain` in a sentence (reports, tunes, compare pages; the key itself stays in tables)."""
    return Field(kind, doc=doc, slot=slot, plain=plain, **checks)


# In the order of guardians.yaml, which fixes the order of `to_yaml` (a test checks both agree).
# Each key names the params slot the engine reads it from and its plain name: the one place
# key, slot and name meet.
SCHEMA: Schema = {
    "board.columns": _key("int", L.P_COLS, "board width", min=3, max=8, plain="the board's width"),
    "board.rows": _key("int", L.P_ROWS, "board height", min=5, max=12, plain="the board's height"),
    "board.start_rows": _key("int", L.P_START_ROWS,
                             "rows filled with invaders at setup (at most rows - 2)",
                             min=1, max=10, plain="starting rows"),
    "tokens.monsters": _key("int_list", L.P_MONSTERS, "counts of 1..5-eye monsters",
                            min=0, max=30, length=5, plain="the monsters"),
    "tokens.ships": _key("int", L.P_SHIPS, "command ships, each a left and a right half",
                         min=0, max=10, plain="the command ships"),
    "tokens.ship_part_points": _key("int", L.P_SHIP_POINTS, "points of a collected ship half",
                                    min=0, max=50, plain="a ship half's points"),
    "setup.ship_halves": _key("choice", L.P_SETUP_HALVES_BOX,
                              "ship halves drawn while filling the start rows",
                              choices=("reshuffle", "box"), flag="box",
                              plain="ship halves drawn at setup"),
    "movement.directions": _key("choice", L.P_HORIZONTAL_ONLY, "8 directions or left/right only",
                                choices=("all", "horizontal"), flag="horizontal",
                                plain="the directions"),
    "shot.steal": _key("choice", L.P_STEAL_HIGHEST, "token taken when shooting a fighter",
                       choices=("lowest", "highest"), flag="highest",
                       plain="the token a shot steals"),
    "shot.empty_fighter": _key("choice", L.P_EMPTY_FIGHTER_MISS,
                               "a shot at a fighter whose owner has no token: a hit, or a miss "
                               "for the stall rule", choices=("hit", "miss"), flag="miss",
                               plain="a shot at an empty fighter"),
    "mine.enabled": _key("bool", L.P_MINE_ENABLED, "play with the mine", plain="the mine"),
    # rulebook coordinates are 1-based, the engine's 0-based
    "mine.column": _key("int", L.P_MINE_COL, "column of the mine spaces", min=1, max=8, shift=-1,
                        plain="the mine's column"),
    "mine.first_row": _key("int", L.P_MINE_ROW_FIRST, "lowest mine space", min=1, max=12,
                           shift=-1, plain="the mine's lowest space"),
    "mine.last_row": _key("int", L.P_MINE_ROW_LAST, "highest mine space, below the start rows",
                          min=1, max=12, shift=-1, plain="the mine's highest space"),
    "mine.step": _key("int", L.P_MINE_STEP, "cells per mine move", min=1, max=3,
                      plain="the mine's step"),
    "descent.check": _key("choice", L.P_DESCENT_END_OF_TURN, "when an emptied column descends",
                          choices=("after_shot", "end_of_turn"), flag="end_of_turn",
                          plain="when a column descends"),
    "descent.on_mine_empty": _key("bool", L.P_DESCENT_ON_MINE,
                                  "a column emptied by the mine also descends",
                                  plain="descent after a mine empties a column"),
    "descent.needs_full_row": _key("bool", L.P_DESCENT_NEEDS_FULL_ROW,
                                   "descend only if the pile can refill a whole row",
                                   plain="descent only with a full row to refill"),
    "collision.destroyed_fighter": _key("choice", L.P_DESTROYED_OUT,
                                        "pay to return next turn, or out at once",
                                        choices=("reenter", "out"), flag="out",
                                        plain="a destroyed fighter"),
    "collision.reentry_cost": _key("int", L.P_REENTRY_COST, "price of re-entering", **_COST,
                                   plain="the re-entry price"),
    "collision.no_room": _key("choice", L.P_NO_ROOM_OUT,
                              "no empty bottom cell to re-enter on: wait a turn, or out",
                              choices=("wait", "out"), flag="out", plain="re-entry without room"),
    "raid.when": _key("choice", L.P_RAID_ENTER_BOTTOM, "when an invader raids the planet",
                      choices=("below_bottom", "enter_bottom"), flag="enter_bottom",
                      plain="when invaders raid"),
    "raid.on_collision": _key("bool", L.P_RAID_ON_COLLISION,
                              "enter_bottom: an invader colliding as it enters the bottom row "
                              "raids too", plain="a raid on a bottom-row collision"),
    "missile.enabled": _key("bool", L.P_MISSILE_ENABLED,
                            "the missile (GoS) / bomb (SD) can be bought", plain="the missile"),
    "missile.cost": _key("int", L.P_MISSILE_COST, "price of the missile", **_COST,
                         plain="the missile's price"),
    "upgrade.enabled": _key("bool", L.P_UPGRADE_ENABLED, "fighter upgrades can be bought",
                            plain="upgrades"),
    "upgrade.cost": _key("int", L.P_UPGRADE_COST, "price per level", **_COST,
                         plain="an upgrade's price"),
    "upgrade.max_level": _key("int", L.P_MAX_LEVEL, "shots per turn at the top level",
                              min=1, max=3, plain="the top upgrade level"),
    "power_up.enabled": _key("bool", L.P_POWER_ENABLED, "the power-up can be bought",
                             plain="the power-up"),
    "power_up.cost": _key("int", L.P_POWER_COST, "price of the power-up", **_COST,
                          plain="the power-up's price"),
    "power_up.permanent": _key("bool", L.P_POWER_PERMANENT,
                               "false: used once (GoS); true: rapid fire (SD)",
                               plain="a permanent power-up"),
    "end.victory": _key("choice", L.P_VICTORY_AFTER_REFILL,
                        "an emptied board wins at once, or only if the end-of-turn refill "
                        "brings no invader", choices=("cleared", "after_refill"),
                        flag="after_refill", plain="when a cleared board wins"),
    "end.stall_turns": _key("int", L.P_STALL_TURNS,
                            "turns without a hit that end the game (0 = players left)",
                            min=0, max=100, plain="turns without a hit to stall"),
    "end.turn_cap": _key("int", L.P_TURN_CAP, "safety net: outcome `cap`", min=10, max=100000,
                         plain="the turn cap"),
}  # fmt: skip


def to_params(values: Mapping[str, Any]) -> np.ndarray:
    """The engine's int64 params array for a ruleset's flat `values` (``Ruleset.values``)."""
    return params_array(values, SCHEMA)


def _cross_key_problems(v: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    rows, columns, start = v["board.rows"], v["board.columns"], v["board.start_rows"]
    if start > rows - 2:
        # Row 1 holds the fighters and at least one row must separate them from the invaders.
        yield (
            ("board.start_rows", "board.rows"),
            (f"board.start_rows ({start}) must be at most board.rows - 2 ({rows - 2})"),
        )
    monsters = sum(v["tokens.monsters"])
    if monsters < columns * start:
        # Ship halves drawn during setup are set aside, so only monsters fill the start rows.
        yield (
            ("tokens.monsters", "board.columns", "board.start_rows"),
            (
                f"the monsters ({monsters}) cannot fill the start rows "
                f"(board.columns x board.start_rows = {columns * start})"
            ),
        )
    tokens = monsters + 2 * v["tokens.ships"]
    if tokens > L.MAX_TOKENS:
        yield (
            ("tokens.monsters", "tokens.ships"),
            f"at most {L.MAX_TOKENS} tokens fit the engine's pile (got {tokens})",
        )
    if v["mine.enabled"]:
        yield from _mine_problems(v)


def _mine_problems(v: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    column, first, last = v["mine.column"], v["mine.first_row"], v["mine.last_row"]
    if column > v["board.columns"]:
        yield (
            ("mine.column", "board.columns"),
            (f"mine.column ({column}) must be at most board.columns ({v['board.columns']})"),
        )
    if first > last:
        yield (
            ("mine.first_row", "mine.last_row"),
            (f"mine.first_row ({first}) must be at most mine.last_row ({last})"),
        )
    free = v["board.rows"] - v["board.start_rows"]
    if last > free:
        # The mine spaces must lie below the invaders' start rows.
        yield (
            ("mine.last_row", "board.rows", "board.start_rows"),
            (f"mine.last_row ({last}) must be at most board.rows - board.start_rows ({free})"),
        )


RULESETS = RulesetFamily(SCHEMA, PRESETS, Path(__file__).resolve().parent / "rulesets",
                         _cross_key_problems)  # fmt: skip
load_ruleset = RULESETS.load
preset_path = RULESETS.preset_path

__all__ = ["PRESETS", "RULESETS", "SCHEMA", "Ruleset", "load_ruleset", "preset_path", "to_params"]
