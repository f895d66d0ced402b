"""What Space Invaders tells the lab's measures (the plug-in's `measures()` part): the table
plays as one team (no leader, no margin between seats); the printed level is the setting the
team's skill (its strategy) and dexterity are read against; and the game's own measures of
how close a game came: to losing when won, to winning when lost. No count of turns without a
choice: every turn asks where to aim each token, and a player always has tokens to launch
(they return every round, line 287). Light: no engine."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import polars as pl

from sim.games.space_invaders.schema import DEXTERITIES
from sim.measures.core import Ratio
from sim.measures.spec import GameMeasures
from sim.stored_arm import StoredArm


class LeftShare(Ratio):
    """The mean, over the games that ended as `outcome`, of `left` as a share of `start`
    (a count at the end as a share of what the game began with)."""

    def __init__(self, name: str, label: str, definition: str, outcome: str, left: str,
                 start: str) -> None:  # fmt: skip
        self.name, self.label, self.definition, self.unit = name, label, definition, "share"
        self.outcome, self.left, self.start = outcome, left, start
        self.games_columns = ("outcome", left, start)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        ended = pl.col("outcome") == self.outcome
        return arm.games.select(
            "game",
            (pl.col(self.left) / pl.col(self.start)).alias("x"),
            ended.cast(pl.Float64).alias("w"),
        )


OWN = (
    LeftShare(
        "planet_low.victory", "lowest planet health in a win",
        "How close a won game came to losing: the lowest the planet's health fell at the end of "
        "any round, as a share of its health at the start, mean over the won games (0 would be "
        "a destroyed planet).",
        "victory", "planet_low", "planet_start",
    ),
    LeftShare(
        "destroyed.planet_destroyed", "invaders destroyed before the planet fell",
        "How close a game lost to the invaders came to winning: the invader cards the table "
        "destroyed, as a share of the deck, mean over the games the planet was destroyed in (1 "
        "would be every invader destroyed; invaders that crash in the last round are not).",
        "planet_destroyed", "destroyed", "deck_size",
    ),
    LeftShare(
        "ufo_left.ufo_survived", "UFO health left when the assault failed",
        "How close a game lost in the final assault came to winning: the UFO's health left, as "
        "a share of its health at the start, mean over those games (0 would be a destroyed "
        "UFO, a win).",
        "ufo_survived", "ufo_left", "ufo_start",
    ),
)  # fmt: skip

MEASURES = GameMeasures(
    cooperative=True,
    win="victory",
    no_choice_words="every turn asks where to aim each token, and a player always has tokens "
    "to launch (they return every round)",
    length=("rounds", "turns"),
    ends={
        "victory": "the table wins",
        "planet_destroyed": "are lost when the planet is destroyed",
        "ufo_survived": "are lost when the UFO survives the final assault",
        "cap": "are cut at the round cap",
    },
    own=OWN,
    settings=("level",),
)


def game_measures(skills: Sequence[str]) -> GameMeasures:
    """The plug-in's `measures`: the skill factors are the team-skill ladder `skills` (the
    players' plain data, which the plug-in hands over) and the dexterity presets but
    `custom`."""
    return replace(MEASURES, skill_factors={"strategy": tuple(skills),
                                            "dexterity": DEXTERITIES[:-1]})  # fmt: skip
