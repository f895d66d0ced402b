"""What a plain-Python game tells the lab's measures (the plug-in's `measures()` part), the
same for every such game: a turn without a real choice is one in which every decision had a
single legal action; a game's length is its turns (then its decisions); one scoring event is
what the game's `scoring_event` says (one point if it says nothing). Light: no game loop."""

from __future__ import annotations

from sim.measures.spec import GameMeasures
from sim.plain.columns import DECISIONS, NO_CHOICE, TURNS, TURNS_PLAYED
from sim.plain.game import PlainGame


def game_measures(game: PlainGame) -> GameMeasures:
    points = float(game.scoring_event) if game.scoring_event is not None else 1.0
    ends = {"win": "end with a winner", "cap": f"are cut after {game.max_steps:,} decisions"}
    return GameMeasures(
        scoring_event=lambda settings: points,
        scoring_event_words=game.scoring_event_words,
        no_choice=(NO_CHOICE, TURNS_PLAYED),
        no_choice_words="every decision of the turn had a single legal action",
        length=(TURNS, DECISIONS),
        ends={outcome: ends.get(outcome, f"end in {outcome}") for outcome in
              (*game.outcomes, "cap")},
    )  # fmt: skip
