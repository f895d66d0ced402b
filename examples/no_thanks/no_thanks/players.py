"""A player of No Thanks! written by hand, as a designer would: a small Strategy class that
reads only what its seat sees (the observation)."""

from __future__ import annotations

from no_thanks.game import PASS, TAKE, points
from sim.plain import Strategy


class Thrifty(Strategy):
    """Takes the card when it adds at most `cost` points net of the chips on it (a card next
    to one of its runs adds little or nothing; one that joins two runs takes points off)."""

    PARAMS = {"cost": 4}

    def choose(self, state, actions, chance) -> str:
        view = state.observation(self.seat)
        mine = list(view.taken[self.seat])
        added = points(sorted([*mine, view.offer]), 0) - points(mine, 0)
        return TAKE if added - view.pot <= self.params["cost"] else PASS
