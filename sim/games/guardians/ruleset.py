"""Guardians of Space rulesets: the key schema, the presets and the checks across keys.

A ruleset file is a YAML mapping of sections (``missile: {cost: 10}``) plus the metadata keys
``name``, ``title`` and ``extends``. ``rulesets/guardians.yaml`` holds every key and its default;
the other presets extend it and change a few keys (see docs/rules.md). Loading, validation and
the immutable Ruleset are the toolkit's (sim/rulesets.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from sim.config import Field, Schema
from sim.rulesets import Ruleset, RulesetFamily

PRESETS = ("guardians", "guardians-advanced", "space-defenders", "space-defenders-upgrades")

_COST = {"min": 0, "max": 100}

# In the order of guardians.yaml, which fixes the order of `to_yaml` (a test checks both agree).
SCHEMA: Schema = {
    "board.columns": Field("int", min=3, max=8, doc="board width"),
    "board.rows": Field("int", min=5, max=12, doc="board height"),
    "board.start_rows": Field(
        "int", min=1, max=10, doc="rows filled with invaders at setup (at most rows - 2)"
    ),
    "tokens.monsters": Field(
        "int_list", min=0, max=30, length=5, doc="counts of 1..5-eye monsters"
    ),
    "tokens.ships": Field("int", min=0, max=10, doc="command ships, each a left and a right half"),
    "tokens.ship_part_points": Field("int", min=0, max=50, doc="points of a collected ship half"),
    "setup.ship_halves": Field(
        "choice", choices=("reshuffle", "box"), doc="ship halves drawn while filling the start rows"
    ),
    "movement.directions": Field(
        "choice", choices=("all", "horizontal"), doc="8 directions or left/right only"
    ),
    "shot.steal": Field(
        "choice", choices=("lowest", "highest"), doc="token taken when shooting a fighter"
    ),
    "mine.enabled": Field("bool", doc="play with the mine"),
    "mine.column": Field("int", min=1, max=8, doc="column of the mine spaces"),
    "mine.first_row": Field("int", min=1, max=12, doc="lowest mine space"),
    "mine.last_row": Field("int", min=1, max=12, doc="highest mine space, below the start rows"),
    "mine.step": Field("int", min=1, max=3, doc="cells per mine move"),
    "descent.check": Field(
        "choice", choices=("after_shot", "end_of_turn"), doc="when an emptied column descends"
    ),
    "descent.on_mine_empty": Field("bool", doc="a column emptied by the mine also descends"),
    "descent.needs_full_row": Field("bool", doc="descend only if the pile can refill a whole row"),
    "collision.destroyed_fighter": Field(
        "choice", choices=("reenter", "out"), doc="pay to return next turn, or out at once"
    ),
    "collision.reentry_cost": Field("int", **_COST, doc="price of re-entering"),
    "raid.when": Field(
        "choice", choices=("below_bottom", "enter_bottom"), doc="when an invader raids the planet"
    ),
    "missile.enabled": Field("bool", doc="the missile (GoS) / bomb (SD) can be bought"),
    "missile.cost": Field("int", **_COST, doc="price of the missile"),
    "upgrade.enabled": Field("bool", doc="fighter upgrades can be bought"),
    "upgrade.cost": Field("int", **_COST, doc="price per level"),
    "upgrade.max_level": Field("int", min=1, max=3, doc="shots per turn at the top level"),
    "power_up.enabled": Field("bool", doc="the power-up can be bought"),
    "power_up.cost": Field("int", **_COST, doc="price of the power-up"),
    "power_up.permanent": Field("bool", doc="false: used once (GoS); true: rapid fire (SD)"),
    "end.stall_turns": Field(
        "int", min=0, max=100, doc="turns without a hit that end the game (0 = players left)"
    ),
    "end.turn_cap": Field("int", min=10, max=100000, doc="safety net: outcome `cap`"),
}


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

__all__ = ["PRESETS", "RULESETS", "SCHEMA", "Ruleset", "load_ruleset", "preset_path"]
