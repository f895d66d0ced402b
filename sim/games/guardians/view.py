"""What a plain-Python strategy sees: public information in rulebook coordinates.

Columns and rows are 1-based (row 1 is the bottom row). The pile's order is hidden; only the
counts of each token left are shown.
"""

from __future__ import annotations

import numpy as np

from sim.games.guardians import engine, moves
from sim.games.guardians import layout as L
from sim.games.guardians.session import CELL_CHARS, GameSession, Turn

_HITS = {moves.HITS_NOTHING: "nothing", moves.HITS_INVADER: "invader",
         moves.HITS_FIGHTER: "fighter", moves.HITS_MINE: "mine"}  # fmt: skip


class GameView:
    def __init__(self, game: GameSession, seat: int, random: np.random.Generator) -> None:
        self._game = game
        self.seat = seat
        self.random = random  # this seat's own generator, seeded from the game's seed
        self.ruleset = game.ruleset
        self.columns = game.cols
        self.rows = game.rows
        # read from the state on first use; a view lives for one decision, the state with it
        self._cells: list[str] | None = None
        self._players: list[dict] | None = None

    def cell(self, col: int, row: int) -> str:
        """'.', '1'-'5', '[', ']', 'S', 'M' or a fighter 'A'-'D'."""
        if not (1 <= col <= self.columns and 1 <= row <= self.rows):
            raise ValueError(f"cell ({col}, {row}) is off the {self.columns}x{self.rows} board")
        if self._cells is None:
            codes = self._game.s[L.S_BOARD : L.S_BOARD + L.MAX_ROWS * L.MAX_COLS].tolist()
            self._cells = [CELL_CHARS[code] for code in codes]
        return self._cells[(row - 1) * L.MAX_COLS + col - 1]

    def board(self) -> str:
        return self._game.board_text()

    def players(self) -> list[dict]:
        """Per seat: score, reserve, level, missile, power_up, status, position (or None)."""
        if self._players is None:
            self._players = self._game.players()
            for seat, entry in enumerate(self._players):
                col = self._game.player(seat, L.PL_COL)
                row = self._game.player(seat, L.PL_ROW)
                entry["position"] = (col + 1, row + 1) if col >= 0 else None
        return self._players

    @property
    def me(self) -> dict:
        return self.players()[self.seat]

    def pile_counts(self) -> dict:
        counts = np.zeros(L.N_KINDS, np.int64)
        moves.pile_counts(self._game.s, counts)
        return {1: int(counts[1]), 2: int(counts[2]), 3: int(counts[3]), 4: int(counts[4]),
                5: int(counts[5]), "ship": int(counts[L.KIND_SHIP])}  # fmt: skip

    def destinations(self, start: tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """Cells the fighter may end its move on (its own cell first)."""
        position = start or self.me["position"]
        if position is None:
            return []
        out = np.zeros(4 * L.MAX_COLS * L.MAX_ROWS, np.int64)
        n = moves.destinations(self._game.s, self._game.p, position[0] - 1, position[1] - 1, out)
        return [(int(out[2 * k]) + 1, int(out[2 * k + 1]) + 1) for k in range(n)]

    def shots(self, start: tuple[int, int] | None = None) -> list[tuple[int, int, int, str]]:
        """For each cell of destinations(start): (col, row, points the first shot from there
        takes, what it hits: 'invader', 'fighter', 'mine' or 'nothing'), in one compiled call.
        A fighter at `start` (default: this seat's) is taken to stand there."""
        position = start or self.me["position"]
        if position is None:
            return []
        out = np.zeros(4 * L.MAX_COLS * L.MAX_ROWS, np.int64)
        g = self._game
        n = moves.first_shots(g.s, g.p, self.seat, position[0] - 1, position[1] - 1, out)
        rows = out[: 4 * n].reshape(n, 4).tolist()
        return [(c + 1, r + 1, points, _HITS[hits]) for c, r, points, hits in rows]

    def reentry_columns(self) -> list[int]:
        return [c for c in range(1, self.columns + 1) if self.cell(c, 1) == "."]

    def refusal(self, turn: Turn) -> str | None:
        """Why the engine would refuse `turn`, or None if it is legal."""
        err = engine.turn_error(self._game.s, self._game.p, self._game.action(turn))
        return None if err == L.OK else L.ERROR_NAMES[err]
