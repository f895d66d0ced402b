"""What Pig tells the lab's measures (the plug-in's `measures()` part). Light: no engine.

- One scoring event is one hold at the turn total where rolling on stops paying on average:
  a roll at turn total k gains (sum of the scoring faces - k) / faces points, so the break-even
  is the sum of the scoring faces (20 on the printed die: the paper's "hold at 20"). A game is
  close when the loser ended within one such hold of the winner.
- A turn without a real choice is one in which the player could play only one way: its
  compulsory first roll busted (no decision came up), or holding won at every decision
  (rules.holding_wins: every player then holds). Every other decision, to roll on or to hold
  after a roll that did not bust, is a real choice: the two lead to different games.
- A game's length: its turns (the main one) and its rolls.
- Its own measure `loser_score`: the points the seats that did not win had banked, how near
  the game came to being won the other way.
"""

from __future__ import annotations

import polars as pl

from pig.columns import NO_CHOICE, TURNS_PLAYED
from pig.ruleset import Rules, load_ruleset
from sim.measures.seats import SeatRatio
from sim.measures.spec import GameMeasures
from sim.stored_arm import Settings

LOST = pl.col("win_share") == 0
LOSER_SCORE = SeatRatio(
    "loser_score", "loser's final score",
    "The final score of the seats that did not win, mean over those seats: how near the game "
    "came to being won the other way.",
    pl.col("score").filter(LOST), LOST, ("score", "win_share"),
)  # fmt: skip


def hold_points(settings: Settings) -> float:
    """The turn total where a roll's expected gain turns negative, under the arm's rules (the
    `pig` preset's when the arm's are unknown)."""
    values = settings.rules if "die.faces" in settings.rules else load_ruleset("pig").values
    return float(sum(Rules.from_values(values).gains))


MEASURES = GameMeasures(
    scoring_event=hold_points,
    scoring_event_words="one hold at the turn total where rolling on stops paying on average, "
    "the sum of the scoring faces (20 on the printed die)",
    no_choice=(NO_CHOICE, TURNS_PLAYED),
    no_choice_words="the compulsory first roll busted, or holding won at every decision (every "
    "player holds then); any other decision to roll on or hold is a real choice",
    length=("turns", "rolls"),
    ends={"win": "end with a player banking the goal", "cap": "are cut at the turn cap"},
    own=(LOSER_SCORE,),
)


def game_measures() -> GameMeasures:
    """The plug-in's `measures`."""
    return MEASURES
