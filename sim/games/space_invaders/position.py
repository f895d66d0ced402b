"""A game position as plain Python: cell names, the board as text, each seat's tokens and
counters. Scenarios and the watch view read (and scenarios write) the state through these.

Cells are named by column A-E (left to right) and row 1-4 (top row, next to the UFO, to the
bottom row, next to the planet): "B2" is the second column of the second row.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games.space_invaders import layout as L

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


def seat_info(s: np.ndarray, seat: int) -> dict[str, Any]:
    """A seat's powers, tokens by level and counters."""
    return {
        "powers": [L.POWER_NAMES[_field(s, seat, L.PL_POWER + k)] for k in range(L.LEVELS)],
        "active": [_field(s, seat, L.PL_ACTIVE + k) for k in range(L.LEVELS)],
        "card": [_field(s, seat, L.PL_CARD + k) for k in range(L.LEVELS)],
        "launches": _field(s, seat, L.PL_LAUNCHES),
        "kills": _field(s, seat, L.PL_KILLS),
        "ufo_hits": _field(s, seat, L.PL_UFO_HITS),
        "landed": _field(s, seat, L.PL_LANDED),
        "misses": _field(s, seat, L.PL_MISSES),
        "planet_relaunches": _field(s, seat, L.PL_PLANET_RELAUNCHES),
        "power_relaunches": _field(s, seat, L.PL_POWER_RELAUNCHES),
        "bonus_shots": _field(s, seat, L.PL_BONUS_SHOTS),
        "waves": _field(s, seat, L.PL_WAVES),
        "redirects": _field(s, seat, L.PL_REDIRECTS),
        "extras": _field(s, seat, L.PL_EXTRAS),
        "healed": _field(s, seat, L.PL_HEALED),
    }


def hits_text(s: np.ndarray) -> dict[str, int]:
    """Cards with hits waiting this round: {cell name: hits}."""
    return {cell_name(c): int(s[L.S_HITS + c]) for c in range(L.N_CELLS) if s[L.S_HITS + c]}


def summary(s: np.ndarray) -> dict[str, Any]:
    """The game-level numbers of a position."""
    return {
        "planet": int(s[L.S_PLANET]),
        "ufo": int(s[L.S_UFO]),
        "status": L.STATUS_NAMES[int(s[L.S_STATUS])],
        "round": int(s[L.S_ROUND]),
        "start_seat": int(s[L.S_START_SEAT]),
        "last_round": bool(s[L.S_LAST_ROUND]),
        "round_over": bool(s[L.S_ROUND_OVER]),
        "score": int(s[L.S_SCORE]),
        "ufo_hits": int(s[L.S_UFO_HITS]),
        "destroyed": int(s[L.S_DESTROYED]),
        "bonus_kills": int(s[L.S_BONUS_KILLS]),
        "crashed": int(s[L.S_CRASHED]),
        "returned": int(s[L.S_RETURNED]),
        "damage": int(s[L.S_DAMAGE]),
        "healed": int(s[L.S_HEALED]),
        "reinforced": int(s[L.S_REINFORCED]),
        "final_assault": bool(s[L.S_ASSAULT]),
    }
