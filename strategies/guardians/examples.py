"""Plain-Python strategies to copy from (docs/strategies.md), also timed by `sim bench`.

Named `strategies.guardians.examples:Sniper` (or `:Stay`) in an experiment or a tournament.
They run in the Python game loop (sim/games/guardians/python_loop.py), which plays the same
games the compiled loop would. `Stay` decides nothing, so its rate is the loop's own.
"""

from sim.games.guardians.session import Turn


class Sniper:
    """Shoots from the reachable cell whose first object up the column is the invader with
    the most eyes (never a fighter or the mine by choice); re-enters in the first free
    column."""

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
            if cell.isdigit():
                return int(cell)
            if cell in "[]S":  # an intact ship's half scores nothing, a lone half 10
                return 10 if cell == "S" else 0
            if cell != ".":
                return -2  # a fighter (a steal) or the mine: worse than an empty column
        return -1


class Stay:
    """The smallest strategy: first free column, mine on row 2, then stay and shoot."""

    PARAMS: dict[str, float] = {}

    def place(self, view) -> int:
        return view.reentry_columns()[0]

    def mine_start(self, view) -> int:
        return 2

    def turn(self, view) -> Turn:
        return Turn()
