"""What a game tells the measures about itself (its plug-in's optional `measures()` part).

Everything a generic measure cannot know: whether the table plays as one team, what one
scoring event is worth, which per-seat column counts the turns without a real choice, which
columns measure a game's length, and the game's own measures. Light: no engine, no polars
work at import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sim.measures.core import Measure
from sim.plugins.base import part
from sim.stored_arm import Settings


@dataclass(frozen=True)
class GameMeasures:
    """A game's part of the registry (docs/adding-a-game.md).

    - `cooperative`: the table wins or loses together (no leader, no margin between seats),
      and `win` is the outcome in which it wins;
    - `scoring_event(settings)`: the points one scoring event is worth under an arm's rules
      (a game is *close* when first and second are at most that far apart), with
      `scoring_event_words` saying what that event is ("a 5-eye invader, 5 points"), and
      `score_unit` what the score counts ("points", "humans");
    - `no_choice`: (seats column of the turns a seat played with no real choice, seats column
      of all the turns it played), and `no_choice_words` saying what counts as no choice (or,
      without the column, why no turn is without one);
    - `length`: games columns measuring a game's length, the main one first (`turns`);
    - `ends`: outcome -> how a game ends that way, in words;
    - `own`: the game's own measures (names must not clash with the generic ones), and
      `own_families`: its own families of names, (pattern, factory, about) as
      `Registry.family` takes them;
    - `settings`: the columns that tell an arm's setting apart for the cooperative skill
      question (e.g. the printed level), and `skill_factors`: the columns whose values are a
      team's skill (strategy, dexterity), in the order weakest to strongest where known.
    """

    cooperative: bool = False
    win: str = ""
    scoring_event: Callable[[Settings], float] | None = None
    scoring_event_words: str = "one scoring event"
    score_unit: str = "points"
    no_choice: tuple[str, str] | None = None
    no_choice_words: str = ""
    length: tuple[str, ...] = ("turns",)
    ends: Mapping[str, str] = field(default_factory=dict)
    own: tuple[Measure, ...] = ()
    own_families: tuple[tuple[str, Callable[[str], Measure | None], str], ...] = ()
    settings: tuple[str, ...] = ()
    skill_factors: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def for_game(game: Any) -> GameMeasures:
    """What `game` (a plug-in) tells the measures about itself: its optional part
    `measures()` (whether the table plays as one team, one scoring event's points, the
    no-choice turns' column, the game's own measures); a plain GameMeasures when the game has
    none. Light: it never loads the engine."""
    method = part(game, "measures")
    return method() if method is not None else GameMeasures()
