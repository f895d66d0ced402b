"""`greedy`: one step ahead on the game's heuristic (its state's `value`). Each legal action is
applied to a copy of the position, `samples` times where chance (or, with hidden information,
what the seat cannot see, resampled) makes its result uncertain, and the action whose results
the heuristic values most on average is played; a finished game counts the seat's share of
the win. Ties go to the action listed first."""

from __future__ import annotations

from collections.abc import Sequence

from sim.plain.chance import Chance
from sim.plain.game import Action, State, Strategy
from strategies.generic.outcomes import has_hidden, share


class Greedy(Strategy):
    PARAMS = {"samples": 8}

    def choose(self, state: State, actions: Sequence[Action], chance: Chance) -> Action:
        me, samples = self.seat, max(1, int(self.params["samples"]))
        hidden = has_hidden(state)
        best, best_value = actions[0], float("-inf")
        for action in actions:
            total = 0.0
            for _ in range(samples):
                twin = state.resample(me, chance) if hidden else state.copy()
                twin.apply(action, chance)
                total += share(twin, me) if twin.over() else twin.value(me)
            if total > best_value:
                best, best_value = action, total
        return best
