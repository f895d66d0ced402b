"""One game stepped from Python: scenarios, `sim play`, and plain-Python strategies use it.

It wraps the compiled rules (the same functions the batch kernel calls) and translates the
engine's flat arrays into readable values: the board as text, players as dicts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games.guardians import board, engine, start
from sim.games.guardians import layout as L
from sim.games.guardians.ruleset import to_params
from sim.random_streams import seed_streams

# board text: cell code -> character, and back
CELL_CHARS = {L.EMPTY: ".", L.SHIP_L: "[", L.SHIP_R: "]", L.SHIP_DAMAGED: "S", L.MINE: "M"}
CELL_CHARS.update({v: str(v) for v in range(1, 6)})
CELL_CHARS.update({L.FIGHTER + seat: "ABCD"[seat] for seat in range(L.MAX_PLAYERS)})
CHAR_CELLS = {ch: code for code, ch in CELL_CHARS.items()}
PILE_CHARS = {**{v: v for v in range(1, 6)}, L.SHIP_L: "[", L.SHIP_R: "]"}
STATUS_NAMES = L.PLAYER_STATUS_NAMES
MISSILE_NAMES = ("none", "held", "used")
POWER_NAMES = ("none", "charged", "used")


@dataclass(frozen=True)
class Turn:
    """One whole turn in rulebook terms (1-based [col, row], row 1 at the bottom)."""

    move: tuple[int, int] | None = None
    reenter: int | None = None
    buy: str | None = None  # missile | upgrade | power_up
    pay: tuple[int, ...] | None = None  # token values; 10 = a ship part
    missile: bool = False
    power_up_at: tuple[int, int] | None = None
    mine: bool = False
    mine_reenter: int | None = None


class GameSession:
    """A game's state and params, with turn-by-turn play."""

    def __init__(self, ruleset, n_players: int) -> None:
        self.ruleset = ruleset
        self.p = to_params(ruleset.values)
        self.s = np.zeros(L.STATE_SIZE, np.int32)
        self.s[L.S_N_PLAYERS] = n_players
        self.rng = np.zeros(L.MAX_PLAYERS + 1, np.uint64)
        self._buf = np.zeros(L.N_KINDS, np.int64)
        # fixed for the game
        self.cols, self.rows = int(self.p[L.P_COLS]), int(self.p[L.P_ROWS])
        self.n_players = int(n_players)

    @classmethod
    def new(cls, ruleset, n_players: int, seed: int) -> GameSession:
        """A shuffled pile and filled start rows; fighters and mine still to place."""
        game = cls(ruleset, n_players)
        seed_streams(game.rng, np.uint64(seed))
        start.new_game(game.s, game.p, n_players, game.rng)
        return game

    # --- reading -----------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return int(self.s[L.S_TO_MOVE])

    @property
    def status(self) -> str:
        return L.STATUS_NAMES[self.s[L.S_STATUS]]

    def cell(self, c: int, r: int) -> int:
        return int(self.s[L.S_BOARD + r * L.MAX_COLS + c])

    def player(self, seat: int, field: int) -> int:
        return int(self.s[L.S_PLAYERS + seat * L.PL_SIZE + field])

    def board_text(self) -> str:
        lines = []
        for r in range(self.rows - 1, -1, -1):
            lines.append(" ".join(CELL_CHARS[self.cell(c, r)] for c in range(self.cols)))
        return "\n".join(lines) + "\n"

    def reserve(self, seat: int) -> list[int]:
        """The seat's tokens as values, highest first (10 = a ship part)."""
        return _reserve_values(self._block(seat))

    def score(self, seat: int) -> int:
        return int(board.reserve_points(self.s, self.p, seat))

    def players(self) -> list[dict]:
        out = []
        for seat in range(self.n_players):
            block = self._block(seat)  # one read per seat: this runs every plain-Python turn
            out.append({
                "score": self.score(seat),
                "reserve": _reserve_values(block),
                "level": block[L.PL_LEVEL],
                "missile": MISSILE_NAMES[block[L.PL_MISSILE]],
                "power_up": POWER_NAMES[block[L.PL_POWER]],
                "status": STATUS_NAMES[block[L.PL_STATUS]],
            })  # fmt: skip
        return out

    def _block(self, seat: int) -> list[int]:
        base = L.S_PLAYERS + seat * L.PL_SIZE
        return self.s[base : base + L.PL_SIZE].tolist()

    def pile(self) -> list:
        top, n = int(self.s[L.S_PILE_TOP]), int(self.s[L.S_PILE_LEN])
        return [PILE_CHARS[int(t)] for t in self.s[L.S_PILE + top : L.S_PILE + n]]

    def aside(self) -> list[str]:
        return (
            ["[]"] * int(self.s[L.S_ASIDE_SHIPS])
            + ["["] * int(self.s[L.S_ASIDE_L])
            + ["]"] * int(self.s[L.S_ASIDE_R])
        )

    def winners(self) -> list[int]:
        mask = int(engine.winners_mask(self.s, self.p))
        return [seat for seat in range(self.n_players) if mask >> seat & 1]

    def counter(self, field: int) -> int:
        return int(self.s[field])

    # --- playing -------------------------------------------------------------------------
    def action(self, turn: Turn) -> np.ndarray:
        """The engine's action array for a rulebook-terms turn of the seat to move."""
        seat = self.to_move
        a = np.zeros(L.ACTION_SIZE, np.int32)
        a[L.A_REENTER_COL] = -1 if turn.reenter is None else turn.reenter - 1
        here = (self.player(seat, L.PL_COL), self.player(seat, L.PL_ROW))
        if turn.reenter is not None:
            here = (turn.reenter - 1, 0)
        dest = here if turn.move is None else (turn.move[0] - 1, turn.move[1] - 1)
        a[L.A_DEST_COL], a[L.A_DEST_ROW] = dest
        a[L.A_BUY] = L.BUY_NAMES.index(turn.buy) if turn.buy else L.BUY_NONE
        if turn.pay is not None:
            a[L.A_PAY_EXPLICIT] = 1
            for value in turn.pay:
                a[L.A_PAY + (L.KIND_SHIP if value == 10 else value)] += 1
        pu = (-1, -1) if turn.power_up_at is None else tuple(x - 1 for x in turn.power_up_at)
        a[L.A_PU_COL], a[L.A_PU_ROW] = pu
        a[L.A_MISSILE] = int(turn.missile)
        a[L.A_MINE] = int(turn.mine)
        a[L.A_MINE_ROW] = -1 if turn.mine_reenter is None else turn.mine_reenter - 1
        return a

    def play_turn(self, a: np.ndarray) -> str | None:
        """Play one turn; None, or the name of the rule that refuses it (state unchanged)."""
        err = engine.play_turn(self.s, self.p, a, self._buf)
        return None if err == L.OK else L.ERROR_NAMES[err]

    def place_fighter(self, seat: int, col: int) -> str | None:
        err = start.place_fighter(self.s, self.p, seat, col)
        return None if err == L.OK else L.ERROR_NAMES[err]

    def place_mine(self, row: int) -> str | None:
        err = start.place_mine(self.s, self.p, row)
        return None if err == L.OK else L.ERROR_NAMES[err]


def _reserve_values(block: list[int]) -> list[int]:
    """A player's tokens as values, highest first (10 = a ship part), from its state block."""
    out: list[int] = []
    for k in range(L.N_KINDS - 1, 0, -1):
        out += [10 if k == L.KIND_SHIP else k] * block[L.PL_RESERVE + k]
    return out
