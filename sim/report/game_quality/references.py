"""Reference games for the luck figure: where games the lab can play sit between a pure game of
skill and a coin flip (the coin-flip share, sim.measures.generic.CoinFlips), measured once with
the commands named here, so a report can place its own game beside them (a report never plays
a game). Measured again when a reference game's rules or players change (docs/reports.md,
"How much does luck decide?")."""

from __future__ import annotations

from dataclasses import dataclass

from sim.measures.core import Value
from sim.report.answers import Estimate


@dataclass(frozen=True)
class Reference:
    game: str  # the plug-in's name (a report leaves its own game out)
    title: str
    pairing: str  # "optimal against careless": the strongest and the weakest level
    share: float  # the coin-flip share, with its 95% interval
    low: float
    high: float
    games: int  # the games the two met in
    how: str  # the command that measured it

    def estimate(self) -> Estimate:
        return Estimate(f"luck.reference.{self.game}", "coin-flip share", self.share, self.low,
                        self.high, unit="pct", signed=False)  # fmt: skip

    def value(self) -> Value:
        return Value(self.share, self.low, self.high, float("nan"), self.games)


# each measured with its command (the "How much does luck decide?" row of its report); the
# pair met in 3,000 games each
REFERENCES: tuple[Reference, ...] = (
    Reference("pig", "Pig", "optimal against careless", 0.4647, 0.4351, 0.4956, 3000,
              "sim run examples/pig/experiments/quality.yaml --games 30000"),
    Reference("coin-race", "the coin race", "bold against steady", 0.5533, 0.5219, 0.5859, 3000,
              "sim run examples/coin_race/experiments/quality.yaml --games 3000"),
)  # fmt: skip


def others(game: str) -> list[Reference]:
    """The references a report of `game` shows: every one but its own game's."""
    return [ref for ref in REFERENCES if ref.game != game]
