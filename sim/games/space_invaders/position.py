"""A game position as plain Python: cell names, the board as text, each seat's tokens and
counters. Scenarios and the watch view read (and scenarios write) the state through these.

Cells are named by column A-E (left to right) and row 1-4 (top row, next to the UFO, to the
bottom row, next to the planet): "B2" is the second column of the second row.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.columns import SEAT_FIELDS

COLUMN_NAMES = "ABCDE"


def cell_name(cell: int) -> str:
    return f"{COLUMN_NAMES[cell % L.COLS]}{cell // L.COLS + 1}"


def parse_cell(name: Any) -> int | None:
    """'B2' -> its cell index; None if it is not a cell name."""
    text = str(name).strip().upper()
    if len(text) != 2 or text[0] not in COLUMN_NAMES or text[1] not in "1234":
        return None
    return (int(text[1]) - 1) * L.COLS + COLUMN_NAMES.index(text[0])


def board_text(s: np.ndarray, names: list[str]) -> str:
    """The board, top row first: each card by its name (names[card - 1]), '.' for empty."""
    width = max([1, *(len(n) for n in names)])
    lines = []
    for row in range(L.ROWS):
        cells = []
        for col in range(L.COLS):
            card = int(s[L.S_BOARD + row * L.COLS + col])
            cells.append((names[card - 1] if card else ".").ljust(width))
        lines.append(" ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def deck_names(s: np.ndarray, names: list[str]) -> list[str]:
    """The deck, top card first."""
    top, end = int(s[L.S_DECK_TOP]), int(s[L.S_DECK_LEN])
    return [names[int(s[L.S_DECK + i]) - 1] for i in range(top, end)]


def _field(s: np.ndarray, seat: int, f: int) -> int:
    return int(s[L.S_PLAYERS + seat * L.PL_SIZE + f])


# the game's counters so far by name (a scenario may start with them, `so_far`)
GAME_COUNTERS = {
    "round": L.S_ROUND,
    "ufo_hits": L.S_UFO_HITS,
    "destroyed": L.S_DESTROYED,
    "bonus_kills": L.S_BONUS_KILLS,
    "crashed": L.S_CRASHED,
    "returned": L.S_RETURNED,
    "damage": L.S_DAMAGE,
    "healed": L.S_HEALED,
    "reinforced": L.S_REINFORCED,
    "launches": L.S_LAUNCHES,
}


def seat_info(s: np.ndarray, seat: int) -> dict[str, Any]:
    """A seat's powers, tokens by level and counters."""
    return {
        "powers": [L.POWER_NAMES[_field(s, seat, L.PL_POWER + k)] for k in range(L.LEVELS)],
        "active": [_field(s, seat, L.PL_ACTIVE + k) for k in range(L.LEVELS)],
        "card": [_field(s, seat, L.PL_CARD + k) for k in range(L.LEVELS)],
        **{name: _field(s, seat, f) for name, f in SEAT_FIELDS.items()},
    }


def hits_text(s: np.ndarray) -> dict[str, int]:
    """Cards with hits waiting this round: {cell name: hits}."""
    return {cell_name(c): int(s[L.S_HITS + c]) for c in range(L.N_CELLS) if s[L.S_HITS + c]}


def icons_used(s: np.ndarray) -> list[int]:
    """Health spaces whose explosion icon already sent reinforcements (reinforcements once)."""
    return [h for h in range(L.TRACK_MAX + 1) if (int(s[L.S_ICONS_USED]) >> h) & 1]


def summary(s: np.ndarray) -> dict[str, Any]:
    """The game-level numbers of a position."""
    return {
        "planet": int(s[L.S_PLANET]),
        "ufo": int(s[L.S_UFO]),
        "status": L.STATUS_NAMES[int(s[L.S_STATUS])],
        "start_seat": int(s[L.S_START_SEAT]),
        "last_round": bool(s[L.S_LAST_ROUND]),
        "round_over": bool(s[L.S_ROUND_OVER]),
        "score": int(s[L.S_SCORE]),
        **{name: int(s[f]) for name, f in GAME_COUNTERS.items()},
        "icons_used": icons_used(s),
        "final_assault": bool(s[L.S_ASSAULT]),
    }
