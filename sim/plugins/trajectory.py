"""How a game went, not only how it ended: the trajectory columns a competitive game's compiled
loop computes and stores (docs/results.md), named once here. Light: names only; the loop's
helpers are in sim/plugins/trajectory_kernel.py.

A *step* is a round of the table: every seat has played once more (in Guardians, a round of
players' turns; in alien-raid, one turn of the whole table); the last step is the round the
game ended in, perhaps cut short. Scores are compared between rounds, when every seat has had
as many turns, so the player who just moved is not counted ahead for that alone. The loop
records every seat's score after every step into a caller-made buffer and sums the game up at
its end, so nothing per turn is stored and memory stays flat. With T steps played:

- `score_third`, `score_half`, `score_two_thirds` (per seat): the seat's score after
  floor(T/3), floor(T/2) and floor(2T/3) steps (0 steps: the score at the start);
- `score_before_last_round` (per seat): the score before the last round (the round the game
  ended in);
- `lead_changes` (per game): how often the leader changed: after each step the leader is the
  seat with the strictly highest score (none when two or more share it); a change is counted
  when a leader differs from the last leader seen (a tie at the top neither counts nor
  forgets who led before it).

The final scores (`score`) are the last point of the trajectory: a game that scores at its
end (alien-raid's tasks) records them as its last step's scores.
"""

from __future__ import annotations

# (name, numerator, denominator): the fractions of the game a score is kept at
FRACTIONS = (("third", 1, 3), ("half", 1, 2), ("two_thirds", 2, 3))
SCORE_AT = {name: f"score_{name}" for name, _, _ in FRACTIONS}
SCORE_BEFORE_LAST_ROUND = "score_before_last_round"
LEAD_CHANGES = "lead_changes"

GAME_COLUMNS = (LEAD_CHANGES,)
SEAT_COLUMNS = (*SCORE_AT.values(), SCORE_BEFORE_LAST_ROUND)
