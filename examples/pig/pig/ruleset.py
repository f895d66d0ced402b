"""Pig's rule keys, its presets (rulesets/*.yaml) and the numbers the engine reads.

Every key is a number, so every rule can be swept in an experiment (`sweep: {goal.points:
[50, 100]}`). The loading, the checks and the errors are the lab's (`sim.rulesets`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from sim.config.fields import Field
from sim.rulesets import RulesetFamily

# A strategy is a table over (my score, the opponent's score, the turn total), goal**3 bytes:
# the bound keeps one table at 8 MB and the optimal policy's value iteration to seconds.
MAX_GOAL = 200

SCHEMA = {  # `plain`: the key's name in a report's sentences
    "goal.points": Field(
        "int", min=2, max=MAX_GOAL, doc="the first to bank this many wins", plain="the goal"
    ),
    "die.faces": Field(
        "int", min=2, max=20, doc="a fair die numbered 1..faces", plain="the die's faces"
    ),
    "die.bust": Field(
        "int",
        min=1,
        max=20,
        doc="the face that ends the turn, losing its total",
        plain="the bust face",
    ),
    "start.head_start": Field(
        "int",
        min=0,
        max=MAX_GOAL - 1,
        doc="the second player's points",
        plain="the second player's head start",
    ),
    "safety.turn_cap": Field(
        "int", min=1, max=10**7, doc="turns before a game ends in `cap`", plain="the turn cap"
    ),
}


def cross_checks(values: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    if values["die.bust"] > values["die.faces"]:
        yield (
            ("die.bust", "die.faces"),
            f"the bust face {values['die.bust']} is not on a die of {values['die.faces']} faces",
        )
    if values["start.head_start"] >= values["goal.points"]:
        yield (
            ("start.head_start", "goal.points"),
            "a head start must be below the goal (the second player would have won)",
        )


RULESETS = RulesetFamily(
    schema=SCHEMA,
    presets=("pig", "piglet"),
    folder=Path(__file__).resolve().parent / "rulesets",
    cross_checks=cross_checks,
)


PRESETS = RULESETS.presets


def load_ruleset(name_or_path, overrides=(), *, source: str = "--set"):
    return RULESETS.load(name_or_path, overrides, source=source)


class Rules(NamedTuple):
    """A ruleset's values as the plain numbers the rules and the compiled loop read."""

    goal: int
    faces: int
    bust: int
    head_start: int
    turn_cap: int

    @classmethod
    def of(cls, ruleset) -> Rules:
        return cls.from_values(ruleset.values)

    @classmethod
    def from_values(cls, v: Mapping[str, Any]) -> Rules:
        """From a ruleset's flat values (as a results folder's manifest records them)."""
        return cls(int(v["goal.points"]), int(v["die.faces"]), int(v["die.bust"]),
                   int(v["start.head_start"]), int(v["safety.turn_cap"]))  # fmt: skip

    @property
    def gains(self) -> tuple[int, ...]:
        """The faces that add to the turn total (every face but the bust face)."""
        return tuple(face for face in range(1, self.faces + 1) if face != self.bust)
