"""The generic search (strategies/generic/mcts.py) written the plain way, as it was first
written: each visit rebuilds an action's values, a node's value is a `max` over its actions,
every simulation records its chance anew. The search is kept fast; this is what it must still
choose, draw for draw (tests/examples/test_search_choices.py)."""

from __future__ import annotations

import math
from collections.abc import Hashable, MutableSequence, Sequence
from typing import Any

from sim.plain.chance import Chance
from sim.plain.game import Action, State, Strategy
from strategies.generic.ladder import budget_at
from strategies.generic.outcomes import has_hidden, has_value, shares


class _Node:
    """A position as the searching seat tells it apart: the seat to move there, its actions
    tried so far, the simulations through it, and every seat's value (`_node_value`)."""

    __slots__ = ("mover", "edges", "visits", "value", "direct", "judged")

    def __init__(self, mover: int, players: int) -> None:
        self.mover = mover
        self.edges: dict[Action, _Edge] = {}
        self.visits = 0
        self.value = [0.0] * players
        self.direct = [0.0] * players  # the judgements made at the node itself (its leaf)
        self.judged = 0


class _Edge:
    """An action from a node: its visits, the simulations in which it was available, the
    nodes of its outcomes, and every seat's value (`_node_value`)."""

    __slots__ = ("visits", "available", "outcomes", "value", "total")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.available = 1
        self.outcomes: dict[Hashable, _Node] = {}
        self.value = [0.0] * players
        # every seat's sum over the visits: a judgement made right after the action, or the
        # value of the outcome's node the visit went through, at its current value
        self.total = [0.0] * players


class _Recorder(Chance):
    """The simulation's chance, keeping the numbers drawn while one action is applied."""

    __slots__ = ("inner", "drawn")

    def __init__(self, inner: Chance) -> None:
        self.inner, self.drawn = inner, []

    def bits(self) -> int:
        value = self.inner.bits()
        self.drawn.append(value)
        return value

    def below(self, n: int) -> int:
        value = self.inner.below(n)
        self.drawn.append(value)
        return value

    def uniform(self) -> float:
        value = self.inner.uniform()
        self.drawn.append(value)
        return value

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self.inner.shuffle(items)
        self.drawn.append(tuple(items))


class ReferenceMCTS(Strategy):
    """Parameters: `skill` 0..1 (the budget, geometric from 1 to the game's `search_budget`),
    or `budget` (simulations per decision, when above 0); `explore`, UCB1's exploration
    constant; `expand`, the visits of an action before each of its outcomes gets a node of
    its own (until then they are judged where they fall); `rollout`, random steps before the
    heuristic judges a position (a game without a heuristic is always played to the end)."""

    PARAMS = {"skill": 1.0, "budget": 0, "explore": 0.7, "expand": 6, "rollout": 0}

    def choose(self, state: State, actions: Sequence[Action], chance: Chance) -> Action:
        if len(actions) == 1:
            return actions[0]
        budget = int(self.params["budget"]) or budget_at(self.params["skill"],
                                                         self.game.search_budget)  # fmt: skip
        self._players = len(state.scores())
        self._value = has_value(state)
        self._hidden = hidden = has_hidden(state)
        root = _Node(self.seat, self._players)
        for _ in range(budget):
            sim = state.resample(self.seat, chance) if hidden else state.copy()
            self._simulate(root, sim, chance)
        return self._most_tried(root, actions)

    def _simulate(self, root: _Node, sim: State, chance: Chance) -> None:
        path: list[tuple[_Edge, _Node | None]] = []  # each action taken, the node it led to
        node, me, players = root, self.seat, self._players
        explore, expand = self.params["explore"], self.params["expand"]
        recorder = _Recorder(chance)
        while not sim.over():
            mover = sim.to_move
            edges = node.edges
            untried: list[Action] = []
            best, best_score = None, -math.inf
            for action in sim.actions():
                edge = edges.get(action)
                if edge is None:
                    untried.append(action)
                    continue
                edge.available += 1
                score = edge.value[mover] + explore * math.sqrt(
                    math.log(edge.available) / edge.visits
                )
                if score > best_score:
                    best, best_score = action, score
            if untried:
                action = untried[chance.below(len(untried))] if len(untried) > 1 else untried[0]
                edge = edges[action] = _Edge(players)
                sim.apply(action, chance)
                path.append((edge, None))
                break
            edge = edges[best]
            recorder.drawn = []
            sim.apply(best, recorder)
            outcome = sim.observation(me) if self._hidden else tuple(recorder.drawn)
            node = edge.outcomes.get(outcome)
            if node is None:  # an outcome not met before: judged from here
                if edge.visits >= expand:
                    node = edge.outcomes[outcome] = _Node(sim.to_move, players)
                path.append((edge, node))
                break
            path.append((edge, node))
        judged = self._judge(sim, chance)
        edge, node = path[-1]
        if node is not None:  # judged at a node of its own
            node.direct = [a + b for a, b in zip(node.direct, judged, strict=True)]
            node.judged += 1
        for edge, node in reversed(path):
            total = edge.total
            if node is None:
                for k in range(players):
                    total[k] += judged[k]
            else:
                before, seen = node.value, node.visits
                node.visits += 1
                node.value = after = _node_value(node)
                for k in range(players):
                    total[k] += after[k] * (seen + 1) - before[k] * seen
            edge.visits += 1
            edge.value = [t / edge.visits for t in total]

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
            edge = root.edges.get(action)
            if edge is not None:
                key = (edge.visits, edge.value[root.mover])
                if key > best_key:
                    best, best_key = action, key
        return best


def _node_value(node: _Node) -> list[float]:
    """A node's value: once its actions have been tried, the value of the one tried most
    (ties: the better for the seat to move), the seat's choice as the search sees it;
    before, the judgements made at the node."""
    tried = [edge for edge in node.edges.values() if edge.visits]
    if not tried:
        return [v / node.judged for v in node.direct]
    mover = node.mover
    return max(tried, key=lambda edge: (edge.visits, edge.value[mover])).value
