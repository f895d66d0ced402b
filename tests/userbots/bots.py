"""Two user strategies: a compiled one and a plain-Python one."""

from numba import njit

from sim.games.guardians.layout import A_DEST_COL, A_DEST_ROW, A_MINE_ROW, P_COLS
from sim.games.guardians.moves import destinations, shot_value
from sim.games.guardians.session import Turn
from strategies.guardians.common import MINE_START, PLACE, can_reenter, stand_at


@njit(cache=True)
def _leftmost_policy(phase, s, p, seat, sp, rng, a, scratch):
    """Place in the first free bottom cell, then shoot from the reachable cell worth most,
    preferring cells further left (parameter `bias`: how much a column further left counts)."""
    if phase == PLACE:
        n = destinations(s, p, 0, 0, scratch)
        a[A_DEST_COL] = scratch[0] if s[0] == 0 else scratch[2]
        return
    if phase == MINE_START:
        a[A_MINE_ROW] = 1
        return
    if a[A_DEST_COL] < 0:
        if not can_reenter(s, p, seat):
            return
        for c in range(p[P_COLS]):
            if s[c] == 0:
                stand_at(s, seat, a, c, 0)
                break
    n = destinations(s, p, a[A_DEST_COL], a[A_DEST_ROW], scratch)
    best, best_k = -1.0, 0
    for k in range(n):
        points, hit = shot_value(s, p, scratch[2 * k], scratch[2 * k + 1], seat)
        value = points + (0.5 if hit else 0.0) - sp[0] * scratch[2 * k]
        if value > best:
            best, best_k = value, k
    a[A_DEST_COL] = scratch[2 * best_k]
    a[A_DEST_ROW] = scratch[2 * best_k + 1]


class Leftmost:
    """A compiled user strategy: runs inside the compiled game loop."""

    PARAMS = {"bias": 0.1}
    policy = _leftmost_policy


class Sniper:
    """A plain-Python strategy: shoots from the reachable cell whose column's first invader
    has the most eyes; re-enters in the first free column."""

    PARAMS = {"patience": 0.0}

    def __init__(self, patience: float = 0.0) -> None:
        self.patience = patience

    def place(self, view) -> int:
        return view.reentry_columns()[0]

    def mine_start(self, view) -> int:
        return 2

    def turn(self, view) -> Turn:
        reenter = None
        start = view.me["position"]
        if start is None:
            columns = view.reentry_columns()
            if view.me["score"] < 10 or not columns:
                return Turn()
            reenter = columns[0]
            start = (reenter, 1)
        best, move = -1, start
        for col, row in view.destinations(start):
            value = self._first_invader(view, col, row)
            if value > best:
                best, move = value, (col, row)
        return Turn(move=move, reenter=reenter)

    @staticmethod
    def _first_invader(view, col: int, row: int) -> int:
        for r in range(row + 1, view.rows + 1):
            cell = view.cell(col, r)
            if cell != ".":
                return int(cell) if cell.isdigit() else (10 if cell == "S" else 0)
        return -1
