"""`mcts`: Monte Carlo tree search for any plain-Python game, its skill knob the budget of
simulations per decision.

Each simulation plays from a copy of the position: down the tree by the upper confidence
bound (UCB1), each seat choosing for its own share of the win, until it reaches an action no
simulation has tried; that action is added and played, then `rollout` random steps, and the
position is judged: a finished game by the seats' shares of the win, an unfinished one by the
game's heuristic (its state's `value`), or, for a game without one, by playing at random to
the end. Every node on the way adds the judgement of the seat that chose it.

Chance, open loop: a node is a sequence of actions, not a position, and every simulation
draws its dice anew, so a node's value is the average over what chance brings after those
actions. The same tree serves hidden information (information-set search, single observer):
each simulation starts from the position resampled for the searching seat (`resample`: what
it cannot see drawn again), so it plans over every hand it cannot tell apart, never the true
one. Where the legal actions differ between simulations (other dice, other hands), a child's
exploration counts the simulations in which it was available, not its parent's visits.

The searching seat plays the action tried most (ties: the better average, then the first
listed). All randomness is the seat's own stream: a game replays from its seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sim.plain.chance import Chance
from sim.plain.game import Action, State, Strategy
from strategies.generic.ladder import budget_at
from strategies.generic.outcomes import has_hidden, has_value, shares


class _Node:
    """The statistics of one action sequence: visits, the total judgement of the seat that
    chose its last action, the simulations in which it was available, its children."""

    __slots__ = ("visits", "total", "available", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.children: dict[Action, _Node] = {}


class MCTS(Strategy):
    """Parameters: `skill` 0..1 (the budget, geometric from 1 to the game's `search_budget`),
    or `budget` (simulations per decision, when above 0); `explore`, UCB1's exploration
    constant; `rollout`, random steps before the heuristic judges a position (a game without
    a heuristic is always played to the end)."""

    PARAMS = {"skill": 1.0, "budget": 0, "explore": 0.7, "rollout": 0}

    def choose(self, state: State, actions: Sequence[Action], chance: Chance) -> Action:
        if len(actions) == 1:
            return actions[0]
        budget = int(self.params["budget"]) or budget_at(self.params["skill"],
                                                         self.game.search_budget)  # fmt: skip
        self._players = len(state.scores())
        self._value = has_value(state)
        hidden = has_hidden(state)
        root = _Node()
        for _ in range(budget):
            sim = state.resample(self.seat, chance) if hidden else state.copy()
            self._simulate(root, sim, chance)
        return self._most_tried(root, actions)

    def _simulate(self, root: _Node, sim: State, chance: Chance) -> None:
        path: list[tuple[_Node, int]] = []
        node, explore = root, self.params["explore"]
        while not sim.over():
            mover = sim.to_move
            children = node.children
            untried: list[Action] = []
            best, best_score = None, -math.inf
            for action in sim.actions():
                child = children.get(action)
                if child is None:
                    untried.append(action)
                    continue
                child.available += 1
                score = child.total / child.visits + explore * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if score > best_score:
                    best, best_score = action, score
            if untried:
                action = untried[chance.below(len(untried))] if len(untried) > 1 else untried[0]
                child = children[action] = _Node()
                sim.apply(action, chance)
                path.append((child, mover))
                break
            node = children[best]
            sim.apply(best, chance)
            path.append((node, mover))
        judged = self._judge(sim, chance)
        for child, mover in path:
            child.visits += 1
            child.total += judged[mover]

    def _judge(self, sim: State, chance: Chance) -> list[float]:
        """Every seat's expected share of the win from `sim`, after the rollout."""
        steps = int(self.params["rollout"]) if self._value else self.game.max_steps
        while steps > 0 and not sim.over():
            actions = sim.actions()
            sim.apply(actions[chance.below(len(actions))] if len(actions) > 1 else actions[0],
                      chance)  # fmt: skip
            steps -= 1
        if sim.over():
            return shares(sim, self._players)
        if self._value:
            return [sim.value(seat) for seat in range(self._players)]
        return [1.0 / self._players] * self._players  # cut by the cap: nobody's

    @staticmethod
    def _most_tried(root: _Node, actions: Sequence[Action]) -> Action:
        best, best_key = actions[0], (-1, -math.inf)
        for action in actions:
            child = root.children.get(action)
            if child is not None:
                key = (child.visits, child.total / child.visits)
                if key > best_key:
                    best, best_key = action, key
        return best
