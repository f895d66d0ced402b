"""A scenario's starting position must be one the game can reach: no more tokens of a kind
than the box holds (GoS 12-14: tokens.monsters, tokens.ships), one fighter per player, one mine
on a mine-space row (GoS 61-64, 155), and every listed player either on the board or said to be
destroyed or out. Each refusal names the cell (col, row; row 1 at the bottom) or the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sim.errors import ConfigError

_NAMES = {1: "one-point monster", 2: "two-point monster", 3: "three-point monster",
          4: "four-point monster", 5: "five-point monster"}  # fmt: skip
HALF = "half"  # any half of a command ship: '[', ']', 'S' on the board, 10 in a reserve


class _Supply:
    """Counts tokens as they are met and refuses the first one beyond the box's supply."""

    def __init__(self, ruleset: Any, path: str, error: type[ConfigError]) -> None:
        monsters = ruleset["tokens.monsters"]
        ships = ruleset["tokens.ships"]
        self.limit: dict[Any, int] = {v: int(monsters[v - 1]) for v in range(1, 6)}
        self.limit.update({"[": ships, "]": ships, HALF: 2 * ships})
        self.seen: dict[Any, int] = dict.fromkeys(self.limit, 0)
        self.path = path
        self.error = error

    def take(self, token: Any, key: str, where: str = "") -> None:
        side = [token] if token in ("[", "]") else []
        kinds = [token] if token in _NAMES else [*side, HALF]
        for kind in kinds:
            self.seen[kind] += 1
            if self.seen[kind] > self.limit[kind]:
                raise self.error(
                    f"{where}{_ordinal(self.seen[kind])} {_name(kind)}, but the box holds "
                    f"{self.limit[kind]}",
                    file=self.path,
                    key=key,
                    hint="Counted over the board, the reserves, the pile and the tokens aside; "
                    "see tokens.monsters and tokens.ships of the ruleset.",
                )


def check_position(data: Mapping[str, Any], grid: list[list[str]], ruleset: Any, n: int,
                   path: str, error: type[ConfigError]) -> None:  # fmt: skip
    """Refuse a starting position the game cannot reach (see the module docstring)."""
    supply = _Supply(ruleset, path, error)
    _check_board(grid, ruleset, supply, path, error)
    players = data.get("players") or []
    for seat, entry in enumerate(players):
        reserve = entry.get("reserve") if isinstance(entry, Mapping) else None
        for value in reserve or []:
            supply.take(HALF if value == 10 else value, f"players[{seat}].reserve")
    for i, token in enumerate(data.get("pile") or []):
        supply.take(token, f"pile[{i}]")
    aside = data.get("aside") or []
    for i, item in enumerate(aside if isinstance(aside, list) else [aside]):
        for half in ("[", "]") if item == "[]" else (item,):
            supply.take(half, f"aside[{i}]")
    _check_players(grid, players, n, path, error)


def _check_board(grid, ruleset, supply: _Supply, path: str, error) -> None:
    seen: dict[str, tuple[int, int]] = {}
    rows = range(ruleset["mine.first_row"], ruleset["mine.last_row"] + 1)
    for r in range(len(grid) - 1, -1, -1):  # as written: top row first
        for c, ch in enumerate(grid[r]):
            cell = (c + 1, r + 1)
            where = f"cell {cell}: "
            if ch.isdigit():
                supply.take(int(ch), "board", where)
            elif ch in "[]S":
                supply.take(ch if ch != "S" else HALF, "board", where)
            elif ch in "ABCDM" and ch in seen:
                what = "mine" if ch == "M" else f"fighter {ch}"
                raise error(
                    f"{where}a second {what} (the first is at {seen[ch]})",
                    file=path,
                    key="board",
                    hint="A game has one mine and one fighter per player.",
                )
            if ch in "ABCDM":
                seen[ch] = cell
            if ch == "M" and not ruleset["mine.enabled"]:
                raise error(
                    f"{where}a mine, but the ruleset plays without one",
                    file=path,
                    key="board",
                    hint="Remove it, or set rules: {mine.enabled: true}.",
                )
            if ch == "M" and cell[1] not in rows:
                raise error(
                    f"{where}the mine is on row {cell[1]}, outside the mine spaces' rows "
                    f"{rows.start}-{rows.stop - 1}",
                    file=path,
                    key="board",
                    hint="The mine starts on a mine space and keeps its row as it moves right "
                    "(GoS 155): put it on one of those rows.",
                )


def _check_players(grid, players: list, n: int, path: str, error) -> None:
    on_board = {ch for row in grid for ch in row if ch in "ABCD"}
    for seat in range(n):
        letter = "ABCD"[seat]
        entry = players[seat] if seat < len(players) and isinstance(players[seat], Mapping) else {}
        if letter not in on_board and entry.get("status") not in ("destroyed", "out"):
            raise error(
                f"player {seat} has no fighter {letter} on the board",
                file=path,
                key=f"players[{seat}]",
                hint=f"Put {letter} on the board, or say status: destroyed (it may re-enter) "
                "or status: out.",
            )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _name(kind: Any) -> str:
    if kind in _NAMES:
        return _NAMES[kind]
    return {"[": "left ship half", "]": "right ship half"}.get(kind, "command-ship half")
