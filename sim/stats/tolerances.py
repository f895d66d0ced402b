"""The designer's tolerances: how large a difference may be and still count as none, one per
question, in the question's own units. Every "holds", "fair", "no effect" or "priced right" in a
report is an equivalence verdict against one of these (sim/stats/verdict.py), and the report
prints the tolerance beside the verdict.

An experiment overrides them with its `tolerances` key (docs/results.md), for example

    tolerances: {price: 2, seat_advantage: 0.02}

Shares are written as fractions, like every share in an experiment file: 0.01 is 1 percentage
point. DEFAULTS is the one place the defaults are written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Tolerance:
    """A question's tolerance. unit: 'pp' for a share (the value a fraction, shown x100 in
    percentage points), 'rel' for a share of a reference value (the value a fraction: 0.05 is
    5% of the baseline's), 'sd' for standard deviations of a per-game value, else the noun of
    what is counted ('point', 'turn'; '' for a bare number)."""

    name: str
    value: float
    unit: str
    about: str  # the questions it answers, for the docs and the error hints

    def text(self) -> str:
        """'±1 pp', '±2 points', '±5,000 humans', '±5% of the baseline's'."""
        if self.unit == "pp":
            return f"\u00b1{_number(100.0 * self.value)} pp"
        if self.unit == "sd":
            return f"\u00b1{_number(self.value)} standard deviations of a game's value"
        if self.unit == "rel":
            return f"\u00b1{_number(100.0 * self.value)}% of the baseline's"
        noun = "" if not self.unit else f" {self.unit}" + ("" if self.value == 1 else "s")
        return f"\u00b1{_number(self.value)}{noun}"

    @property
    def fraction(self) -> bool:
        """Whether the value is written as a fraction (a share, or a share of a reference)."""
        return self.unit in ("pp", "rel")


DEFAULTS: dict[str, Tolerance] = {
    t.name: t
    for t in (
        Tolerance("price", 1.0, "point", "a break-even price (of the swept price key): the same "
                  "at every skill level, in two runs, the printed price right"),
        Tolerance("seat_advantage", 0.01, "pp", "a seat's win share minus the fair share: the "
                  "seats are fair"),
        Tolerance("win_share", 0.01, "pp", "a change of a player's win share: what buying an "
                  "item, moving the mine or a rule change is worth to a player"),
        Tolerance("outcome_rate", 0.02, "pp", "a change of how often a game ends a given way "
                  "(the invaders' raid rate, the victory rate): a rule change has no effect"),
        Tolerance("game_length", 2.0, "turn", "a change of the game's length in turns"),
        Tolerance("score", 2.0, "point", "a change of a score (the table's total, the "
                  "winner's)"),
        Tolerance("win_rate", 0.02, "pp", "Space Invaders: a change of a table's win rate (a "
                  "level step, a power, a change of the assumed data, an optional action)"),
        Tolerance("card_price", 5000.0, "human", "Alien raid: a card's fair price against its "
                  "printed price"),
        Tolerance("humans", 2000.0, "human", "Alien raid: final humans gained by a choice (a "
                  "catch over a raid, taking a credit)"),
        Tolerance("skill_depth", 0.02, "pp", "the quality section: the top level finishing "
                  "ahead of the bottom beyond a coin's 50% (no skill depth within it)"),
        Tolerance("quality_share", 0.02, "pp", "the quality section: a share of deals, games "
                  "or turns (the deal against the player deciding; a cooperative table's win "
                  "rate across skill; a what-if arm's change of close games, the leader "
                  "winning, no-choice turns)"),
        Tolerance("quality_relative", 0.05, "rel", "the quality section: a what-if arm's "
                  "change of a quantity (the median margin, lead changes, the game's length), "
                  "as a share of the baseline's value"),
        Tolerance("playtest_share", 0.05, "pp", "sim playtest fit: a share of the records "
                  "(a seat's win share, how often games end a way) against the lab's players' "
                  "at the fitted skill"),
        Tolerance("playtest_quantity", 0.25, "sd", "sim playtest fit: a mean of the records "
                  "(the score, the margin, the length, a column) against the lab's players' "
                  "at the fitted skill, in standard deviations of a simulated game's value"),
        Tolerance("target_share", 0.01, "pp", "sim tune and sim screen: a target on a share "
                  "(a rate, a win share, an uplift) that gives no tolerance of its own"),
    )
}  # fmt: skip


def resolve(overrides: Mapping[str, Any] | None = None) -> dict[str, Tolerance]:
    """The defaults with an experiment's overrides (names checked by the experiment parser;
    here unknown names and values that are not positive numbers are ignored)."""
    out = dict(DEFAULTS)
    for name, value in (overrides or {}).items():
        if name in out and _positive(value):
            out[name] = replace(out[name], value=float(value))
    return out


def _positive(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1e300


def _number(x: float) -> str:
    """1 -> '1', 0.5 -> '0.5', 5000 -> '5,000'."""
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.3g}"


__all__ = ["DEFAULTS", "Tolerance", "resolve"]
