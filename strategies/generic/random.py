"""`random`: a legal action, each as likely, drawn from the seat's own stream."""

from __future__ import annotations

from collections.abc import Sequence

from sim.plain.chance import Chance
from sim.plain.game import Action, State, Strategy


class Random(Strategy):
    """Every legal action as likely."""

    def choose(self, state: State, actions: Sequence[Action], chance: Chance) -> Action:
        return actions[chance.below(len(actions))]
