"""How a game went, for a game the plain-Python rules played: the lab's trajectory columns
(sim/plugins/trajectory.py defines them; the compiled loop computes them with
sim/plugins/trajectory_kernel.py) from the scores the state recorded after each round.

In Pig a step is a round: the first seat's turn, then the second's. The last round is the one
the game ended in, cut short when the first seat wins it (or the turn cap falls after its
turn): its row is the final scores.
"""

from __future__ import annotations

from pig.rules import State
from sim.plugins.trajectory import FRACTIONS, SCORE_AT, SCORE_BEFORE_LAST_ROUND


def rows(state: State) -> list[list[int]]:
    """Every seat's score at the start and after each round, the last one perhaps cut short."""
    cut_short = state.turns % 2 == 1
    return [*state.rounds, list(state.scores)] if cut_short else list(state.rounds)


def summary(state: State) -> tuple[int, dict[str, list[int]]]:
    """(lead_changes, {per-seat trajectory column: [seat 1's value, seat 2's]})."""
    track = rows(state)
    steps = len(track) - 1
    at = {SCORE_AT[name]: track[steps * num // den] for name, num, den in FRACTIONS}
    at[SCORE_BEFORE_LAST_ROUND] = track[max(steps - 1, 0)]
    return _lead_changes(track[1:]), at


def _lead_changes(track: list[list[int]]) -> int:
    """How often the strict leader after a round differs from the last one seen (a tie
    neither counts nor forgets who led)."""
    changes, last = 0, None
    for first, second in track:
        if first == second:
            continue
        now = 0 if first > second else 1
        changes += last is not None and now != last
        last = now
    return changes
