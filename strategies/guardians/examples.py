"""Plain-Python strategies to copy from (docs/games/guardians/strategies.md), also timed by `sim
bench`.

Named `strategies.guardians.examples:Sniper` (or `:Stay`) in an experiment or a tournament.
They run in the Python game loop (sim/games/guardians/python_loop.py), which plays the same
games the compiled loop would. `Stay` decides nothing, so its rate is the loop's own.
"""

from sim.games.guardians.session import Turn


class Sniper:
    """Shoots from the reachable cell whose first shot takes the most points from an invader
    (a fighter, the mine or nothing only when no invader is in reach); re-enters in the first
    free column."""

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
        col, row, _, _ = max(view.shots(start), key=self._worth)
        return Turn(move=(col, row), reenter=reenter)

    @staticmethod
    def _worth(shot) -> float:
        _, _, points, hits = shot
        if hits == "invader":
            return points + 0.5  # a hit worth nothing (half an intact ship) beats a miss
        return -1.0 if hits == "nothing" else -2.0  # a steal or the mine: last resort


class Stay:
    """The smallest strategy: first free column, mine on row 2, then stay and shoot."""

    PARAMS: dict[str, float] = {}

    def place(self, view) -> int:
        return view.reentry_columns()[0]

    def mine_start(self, view) -> int:
        return 2

    def turn(self, view) -> Turn:
        return Turn()
