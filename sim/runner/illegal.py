"""A strategy that keeps making illegal moves fails the run.

A game a strategy stops with an illegal move has no meaningful outcome; the report leaves it
out. A few such games are reported as a warning, but a strategy whose moves are illegal in more
than MAX_ILLEGAL_SHARE of the games it sits in is broken, and results built from the rest
(a tournament ranking of void games) would mislead: the run stops with an error naming it.
The share is judged once the strategy has played MIN_GAMES games of an arm in this run, and
for every strategy when the run ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

from sim.errors import SimError
from sim.experiment.model import Arm

MAX_ILLEGAL_SHARE = 0.01
MIN_GAMES = 200


class IllegalMoves:
    """Per (arm, strategy label): games played, and games stopped by its illegal move."""

    def __init__(self, arms: Iterable[Arm]) -> None:
        self.arms = {arm.index: arm for arm in arms}
        self.played: Counter[tuple[int, str]] = Counter()
        self.stopped: Counter[tuple[int, str]] = Counter()
        self.example: dict[tuple[int, str], str] = {}

    def add(
        self, arm_index: int, start: int, stop: int, stopped: Mapping[str, int], errors: list[str]
    ) -> None:
        arm = self.arms[arm_index]
        n_tables = len(arm.tables)
        for t, table in enumerate(arm.tables):  # game g sits at table g mod T
            games = _count(stop, t, n_tables) - _count(start, t, n_tables)
            for label in {arm.lineup[j].label for j in table}:
                self.played[(arm_index, label)] += games
        for label, n in stopped.items():
            key = (arm_index, label)
            self.stopped[key] += n
            found = next((e for e in errors if f": {label} in seat" in e), None)
            self.example.setdefault(key, found or "")

    def check(self, root: str | Path, *, final: bool = False) -> None:
        """Raise SimError for the first strategy over the share (see the module docstring)."""
        for key, n in self.stopped.items():
            played = self.played[key]
            if (final or played >= MIN_GAMES) and n > MAX_ILLEGAL_SHARE * played:
                arm, label = self.arms[key[0]].name, key[1]
                example = f"; e.g. {self.example[key]}" if self.example.get(key) else ""
                raise SimError(
                    f"strategy '{label}' made an illegal move in {n:,} of the {played:,} games "
                    f"it played in arm '{arm}' ({n / played:.0%}){example}",
                    hint=f"More than {MAX_ILLEGAL_SHARE:.0%} void games is a broken strategy, "
                    "not a result: fix it (every illegal game is in illegal_moves of "
                    f"{Path(root) / 'manifest.json'}).",
                )


def _count(upto: int, t: int, n_tables: int) -> int:
    """How many g in [0, upto) have g mod n_tables == t."""
    return max(0, (upto - t + n_tables - 1) // n_tables)
