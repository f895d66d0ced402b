"""`mcts`: Monte Carlo tree search for any plain-Python game, its skill knob the budget of
simulations per decision.

Each simulation plays from a copy of the position: down the tree by the upper confidence
bound (UCB1), each seat choosing for its own share of the win, until it reaches an action no
simulation has tried, or an outcome of an action no simulation has met; there it adds a node,
plays `rollout` random steps and judges the position: a finished game by the seats' shares of
the win, an unfinished one by the game's heuristic (its state's `value`), or, for a game
without one, by playing at random to the end. Every action on the way adds the judgement of
the seat that chose it.

Chance: every simulation draws its dice anew, and an action's outcomes are told apart by what
the searching seat can tell apart: in a game that hides nothing, the numbers chance drew
while the action was applied (a roll of 3 and a roll of 5 lead to different nodes: chance
nodes, sampled); in a game with hidden information, what the seat observes afterwards (its
`observation`: a card turned up face up makes a new node, a card dealt to another's hand
does not). Hidden information (information-set search, single observer): each simulation
starts from the position resampled for the searching seat (`resample`: what it cannot see
drawn again), so it plans over every hand it cannot tell apart, never the true one. Where
the legal actions differ between simulations, an action's exploration counts the
simulations in which it was available, not its parent's visits.

The searching seat plays the action tried most (ties: the better average, then the first
listed). All randomness is the seat's own stream: a game replays from its seed.
"""

from __future__ import annotations

import functools
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
    nodes of its outcomes, and every seat's sum over the visits: a judgement made right
    after the action, or the value of the outcome's node the visit went through, at its
    current value. A seat's value is its sum over the visits, divided when it is read (a
    visit reads one seat's; a list of every seat's at every visit would cost more)."""

    __slots__ = ("visits", "available", "outcomes", "total")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.available = 1
        self.outcomes: dict[Hashable, _Node] = {}
        self.total = [0.0] * players


class _Recorder(Chance):
    """The simulation's chance, keeping the numbers drawn while one action is applied. One
    per decision, emptied before each action (`start`)."""

    __slots__ = ("inner", "drawn")

    def __init__(self, inner: Chance) -> None:
        self.inner, self.drawn = inner, []

    def start(self) -> None:
        self.drawn.clear()

    def bits(self) -> int:
        value = self.inner.bits()
        self.drawn.append(value)
        return value

    def below(self, n: int) -> int:
        value = self.inner.below(n)
        self.drawn.append(value)
        return value

    def die(self, faces: int) -> int:  # as Chance.die, a call fewer: dice games roll most
        value = self.inner.below(faces)
        self.drawn.append(value)
        return value + 1

    def uniform(self) -> float:
        value = self.inner.uniform()
        self.drawn.append(value)
        return value

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self.inner.shuffle(items)
        self.drawn.append(tuple(items))


class MCTS(Strategy):
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
        self._steps = int(self.params["rollout"]) if self._value else self.game.max_steps
        self._logs = _logs(budget + 1)
        root = _Node(self.seat, self._players)
        recorder = _Recorder(chance)
        for _ in range(budget):
            sim = state.resample(self.seat, chance) if hidden else state.copy()
            path = self._descend(root, sim, chance, recorder)
            _back_up(path, self._judge(sim, chance))
        return self._most_tried(root, actions)

    def _descend(self, root: _Node, sim: State, chance: Chance,
                 recorder: _Recorder) -> list[tuple[_Edge, _Node | None]]:  # fmt: skip
        """Play `sim` down the tree to where it leaves it: each action taken, the node it led
        to (None: judged right after the action)."""
        path: list[tuple[_Edge, _Node | None]] = []
        node, me, players, hidden = root, self.seat, self._players, self._hidden
        explore, expand = self.params["explore"], self.params["expand"]
        logs, sqrt = self._logs, math.sqrt
        over, legal, apply = sim.over, sim.actions, sim.apply  # looked up once: a hot loop
        while not over():
            mover, edges = sim.to_move, node.edges
            untried: list[Action] = []
            best, best_score = None, -math.inf
            for action in legal():
                edge = edges.get(action)
                if edge is None:
                    untried.append(action)
                    continue
                edge.available += 1
                visits = edge.visits  # UCB1: the mover's average plus the exploration term
                score = edge.total[mover] / visits + explore * sqrt(logs[edge.available] / visits)
                if score > best_score:
                    best, best_score = action, score
            if untried:
                action = untried[chance.below(len(untried))] if len(untried) > 1 else untried[0]
                edge = edges[action] = _Edge(players)
                apply(action, chance)
                path.append((edge, None))
                return path
            edge = edges[best]
            recorder.start()
            apply(best, recorder)
            outcome = sim.observation(me) if hidden else tuple(recorder.drawn)
            node = edge.outcomes.get(outcome)
            if node is None:  # an outcome not met before: judged from here
                if edge.visits >= expand:
                    node = edge.outcomes[outcome] = _Node(sim.to_move, players)
                path.append((edge, node))
                return path
            path.append((edge, node))
        return path

    def _judge(self, sim: State, chance: Chance) -> list[float]:
        """Every seat's expected share of the win from `sim`, after the rollout."""
        steps = self._steps
        while steps > 0 and not sim.over():
            actions = sim.actions()
            sim.apply(actions[chance.below(len(actions))] if len(actions) > 1 else actions[0],
                      chance)  # fmt: skip
            steps -= 1
        if sim.over():
            return shares(sim, self._players)
        if self._value:
            return list(sim.values())
        return [1.0 / self._players] * self._players  # cut by the cap: nobody's

    @staticmethod
    def _most_tried(root: _Node, actions: Sequence[Action]) -> Action:
        best, best_key = actions[0], (-1, -math.inf)
        for action in actions:
            edge = root.edges.get(action)
            if edge is not None:
                key = (edge.visits, edge.total[root.mover] / edge.visits)
                if key > best_key:
                    best, best_key = action, key
        return best


def _back_up(path: list[tuple[_Edge, _Node | None]], judged: list[float]) -> None:
    """Every action on the path adds the judgement of the seat that chose it: an action
    judged right after adds the judgement; one through a node adds the change the visit
    made to the node's value over all the node's visits so far."""
    node = path[-1][1]
    if node is not None:  # judged at a node of its own
        direct = node.direct
        for k, v in enumerate(judged):
            direct[k] += v
        node.judged += 1
    for edge, node in reversed(path):
        total = edge.total
        if node is None:
            for k, v in enumerate(judged):
                total[k] += v
        else:
            before, seen = node.value, node.visits
            node.visits = visits = seen + 1
            node.value = after = _node_value(node)
            for k, v in enumerate(after):
                total[k] += v * visits - before[k] * seen
        edge.visits += 1


def _node_value(node: _Node) -> list[float]:
    """A node's value: once its actions have been tried, the value of the one tried most
    (ties: the better for the seat to move, then the first tried), the seat's choice as the
    search sees it; before, the judgements made at the node."""
    best, most, top, mover = None, 0, -math.inf, node.mover
    for edge in node.edges.values():
        visits = edge.visits
        if visits < most or not visits:
            continue
        value = edge.total[mover] / visits
        if visits > most or value > top:
            best, most, top = edge, visits, value
    if best is None:
        return [v / node.judged for v in node.direct]
    return [t / most for t in best.total]


@functools.lru_cache(maxsize=16)
def _logs(n: int) -> tuple[float, ...]:
    """log(0..n) for the UCB scores: a search takes the log of the same small numbers again
    and again (log(0) is never read: an action is available once before it is scored)."""
    return (-math.inf, *map(math.log, range(1, n + 1)))
