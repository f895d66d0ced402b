"""Turn a validated ruleset (flat dotted keys) into the engine's int64 params array."""

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.games.guardians import layout as L

_CHOICE_FLAGS = {
    # key: (params index, the value that sets the flag)
    "setup.ship_halves": (L.P_SETUP_HALVES_BOX, "box"),
    "movement.directions": (L.P_HORIZONTAL_ONLY, "horizontal"),
    "shot.steal": (L.P_STEAL_HIGHEST, "highest"),
    "shot.empty_fighter": (L.P_EMPTY_FIGHTER_MISS, "miss"),
    "descent.check": (L.P_DESCENT_END_OF_TURN, "end_of_turn"),
    "collision.destroyed_fighter": (L.P_DESTROYED_OUT, "out"),
    "raid.when": (L.P_RAID_ENTER_BOTTOM, "enter_bottom"),
}

_NUMBERS = {
    "board.columns": L.P_COLS,
    "board.rows": L.P_ROWS,
    "board.start_rows": L.P_START_ROWS,
    "tokens.ships": L.P_SHIPS,
    "tokens.ship_part_points": L.P_SHIP_POINTS,
    "mine.enabled": L.P_MINE_ENABLED,
    "mine.step": L.P_MINE_STEP,
    "descent.on_mine_empty": L.P_DESCENT_ON_MINE,
    "descent.needs_full_row": L.P_DESCENT_NEEDS_FULL_ROW,
    "collision.reentry_cost": L.P_REENTRY_COST,
    "missile.enabled": L.P_MISSILE_ENABLED,
    "missile.cost": L.P_MISSILE_COST,
    "upgrade.enabled": L.P_UPGRADE_ENABLED,
    "upgrade.cost": L.P_UPGRADE_COST,
    "upgrade.max_level": L.P_MAX_LEVEL,
    "power_up.enabled": L.P_POWER_ENABLED,
    "power_up.cost": L.P_POWER_COST,
    "power_up.permanent": L.P_POWER_PERMANENT,
    "end.stall_turns": L.P_STALL_TURNS,
    "end.turn_cap": L.P_TURN_CAP,
}

# rulebook coordinates are 1-based; the engine's are 0-based
_ONE_BASED = {
    "mine.column": L.P_MINE_COL,
    "mine.first_row": L.P_MINE_ROW_FIRST,
    "mine.last_row": L.P_MINE_ROW_LAST,
}


def to_params(values: Mapping[str, Any]) -> np.ndarray:
    """The params array for a ruleset's flat `values` (``Ruleset.values``)."""
    p = np.zeros(L.N_PARAMS, np.int64)
    for key, index in _NUMBERS.items():
        p[index] = int(values[key])
    for key, (index, flag_value) in _CHOICE_FLAGS.items():
        p[index] = values[key] == flag_value
    for key, index in _ONE_BASED.items():
        p[index] = int(values[key]) - 1
    for v, count in enumerate(values["tokens.monsters"]):
        p[L.P_MONSTERS + v] = int(count)
    if p[L.P_MONSTERS : L.P_MONSTERS + 5].sum() + 2 * p[L.P_SHIPS] > L.MAX_TOKENS:
        raise ValueError(f"at most {L.MAX_TOKENS} tokens fit the engine's pile")
    return p
