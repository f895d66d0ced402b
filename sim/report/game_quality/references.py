"""Reference games for the luck figure: where games the lab can play sit between a pure game of
skill and a coin flip (the coin-flip share, sim.measures.generic.CoinFlips), measured once with
the commands named here, so a report can place its own game beside them (a report never plays
a game). Measured again when a reference game's rules or players change (docs/reports.md,
"How much does luck decide?")."""

from __future__ import annotations

from dataclasses import dataclass

from sim.report.answers import Estimate


@dataclass(frozen=True)
class Reference:
    game: str  # the plug-in's name (a report leaves its own game out)
    title: str
    pairing: str  # "optimal against careless": the strongest and the weakest level
    value: float
    low: float
    high: float
    games: int  # the games the two met in
    how: str  # the command that measured it

    def estimate(self) -> Estimate:
        return Estimate(f"luck.reference.{self.game}", "coin-flip share", self.value, self.low,
                        self.high, unit="pct", signed=False)  # fmt: skip


REFERENCES: tuple[Reference, ...] = ()
