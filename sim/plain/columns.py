"""The columns every plain-Python game stores besides the lab's own, named once for the loop
that fills them (chunks.py), the report and the measures that read them. Light: names only."""

from __future__ import annotations

from sim.plugins import trajectory

TURNS, DECISIONS = "turns", "decisions"  # per game; per seat too (the seat's own decisions)
TURNS_PLAYED, NO_CHOICE = "turns_played", "no_choice_turns"  # per seat
GAME_COLUMNS = (TURNS, DECISIONS, trajectory.LEAD_CHANGES)
SEAT_COLUMNS = (TURNS_PLAYED, NO_CHOICE, DECISIONS, *trajectory.SEAT_COLUMNS)
COUNTS = (*GAME_COLUMNS, TURNS_PLAYED, NO_CHOICE)  # whole numbers; the rest are floats
# the columns a game's own stats may not be named (the runner's and the lab's)
TAKEN = frozenset({"game", "seed", "arm", "outcome", "seat", "strategy", "score", "win_share",
                   *GAME_COLUMNS, *SEAT_COLUMNS})  # fmt: skip
