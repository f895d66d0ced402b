"""The generic search makes the choices of its plain reference (tests/plain/mcts_reference.py)
draw for draw: the same games, every column alike, in No Thanks (hidden cards resampled,
chips open or secret, a rollout, nodes for every outcome at once), plain Pig (chance nodes
for the die, a rollout, no node until an action's sixth visit) and the toys' race (no
heuristic: played to the end, a shuffle inside a move)."""

from __future__ import annotations

import numpy as np
import pytest
from no_thanks.plugin import GAME as NO_THANKS
from plain_pig.game import GAME as PLAIN_PIG

from sim.plain import Chance, plug_in
from sim.plain.players import Players
from sim.plain.plugin import plain_game
from sim.plugins.base import StrategySpec
from tests.plain.toys import Race

pytestmark = pytest.mark.without_engines  # plain Python

REFERENCE = "tests.plain.mcts_reference:ReferenceMCTS"
RACE = plug_in(Race)

CASES = {
    "no-thanks": (NO_THANKS, "no-thanks", 3, [("budget", 12)], [("budget", 8), ("rollout", 2)]),
    "no-thanks-secret": (NO_THANKS, "no-thanks-secret-chips", 4, [("skill", 0.25)],
                         [("budget", 10), ("expand", 1)]),
    "plain-pig": (PLAIN_PIG, "plain-pig", 2, [("budget", 60)], [("budget", 25), ("rollout", 3)]),
    "plain-piglet": (PLAIN_PIG, "plain-piglet", 2, [("skill", 0.75)],
                     [("budget", 40), ("expand", 0)]),
    "race": (RACE, "race-toy", 2, [("budget", 60)], [("budget", 15), ("explore", 1.5)]),
}  # fmt: skip
GAMES = 8


def _chunk(game, preset, players, strategy, params):
    lineup = [StrategySpec(strategy, tuple(p)) for p in params]
    seats = np.tile(np.arange(players) % len(lineup), (GAMES, 1))
    return game.simulate_chunk(game.load_ruleset(preset), players, lineup, seats,
                               np.arange(GAMES))  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_the_search_plays_the_games_of_its_plain_reference(case):
    game, preset, players, *params = CASES[case]
    fast = _chunk(game, preset, players, "mcts", params)
    plain = _chunk(game, preset, players, REFERENCE, params)
    assert fast.games.keys() == plain.games.keys() and fast.seats.keys() == plain.seats.keys()
    for column in fast.games:
        assert fast.games[column].tolist() == plain.games[column].tolist(), column
    for column in set(fast.seats) - {"strategy"}:  # the labels name the two players
        assert fast.seats[column].tolist() == plain.seats[column].tolist(), column


def _positions(game, preset, players, count):
    """`count` positions with a choice, each a few random steps into a game."""
    rules, found = game.load_ruleset(preset), []
    for seed in range(count):
        state, walk = plain_game(game).start(rules, players, Chance(seed)), Chance(seed, 9)
        for _ in range(3 + 5 * seed):
            if state.over():
                break
            state.apply(walk.pick(state.actions()), walk)
        if not state.over() and len(state.actions()) > 1:
            found.append((rules, state))
    return found


def _tree(strategy, rules, state) -> tuple:
    """The search's tree after one decision from `state`, as plain values: at each node the
    seat to move, its visits, value and judgements; at each action its visits, availability,
    sums over the visits and the nodes of its outcomes."""
    grown = []
    most_tried = type(strategy)._most_tried
    strategy._most_tried = lambda root, actions: grown.append(root) or most_tried(root, actions)
    strategy.choose(state, state.actions(), Chance(3, 1 + state.to_move))
    return _plain(grown[0])


def _plain(node) -> tuple:
    return (node.mover, node.visits, node.value, node.direct, node.judged,
            {action: (edge.visits, edge.available, edge.total,
                      {seen: _plain(child) for seen, child in edge.outcomes.items()})
             for action, edge in node.edges.items()})  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_the_search_grows_the_tree_of_its_plain_reference(case):
    """Not only the same choice: every number in the tree the same, to the last bit."""
    game, preset, players, _, params = CASES[case]
    params = tuple({**dict(params), "budget": 200}.items())  # a tree of some size
    (player, _), (reference, _) = (Players(plain_game(game)).resolve(StrategySpec(name, params))
                                   for name in ("mcts", REFERENCE))  # fmt: skip
    positions = _positions(game, preset, players, 6)
    assert positions
    for rules, state in positions:
        seat = state.to_move
        fast = _tree(player.make(plain_game(game), rules, seat), rules, state.copy())
        assert fast == _tree(reference.make(plain_game(game), rules, seat), rules, state.copy())
