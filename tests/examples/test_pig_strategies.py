"""Pig's players: the value iteration against a slow, obvious reference and against the
published figures (Neller & Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 25(1),
2004); the optimal policy's published shape at checked states; the skill ladder's order; and
`hold` and `optimal` traced by hand on seeded turns (the dice drawn in the comments)."""

from __future__ import annotations

import numpy as np
import pytest
from pig import rules as R
from pig.dice import Dice
from pig.game import play_turn
from pig.plugin import GAME
from pig.policy import table_for
from pig.ruleset import RULESETS, Rules
from pig.strategies.ladder import LADDER, LEVELS
from pig.strategies.registry import REGISTRY
from pig.strategies.values import first_player_wins, optimal_values, pair_values

from sim.errors import ConfigError
from sim.plugins.base import StrategySpec

pytestmark = pytest.mark.without_engines  # runs while the engines compile

PIG = Rules.of(RULESETS.load("pig"))
HOLD20 = StrategySpec("hold", (("at", 20),))


def table(name: str, rules: Rules = PIG, **params) -> np.ndarray:
    return table_for(*GAME.ready([StrategySpec(name, tuple(params.items()))]), rules)


@pytest.fixture(scope="module")
def optimal() -> np.ndarray:
    return table("optimal")


# --- the value iteration against a slow reference -------------------------------------------


def slow_values(rules: Rules, tables=None) -> list[dict]:
    """Start-of-turn win probabilities state by state with plain loops (Gauss-Seidel), for
    optimal play (`tables` None) or the two given roll tables: [{(i, j): P}, ...] per mover."""
    goal, faces = rules.goal, rules.faces
    start = [{(i, j): 0.5 for i in range(goal) for j in range(goal)} for _ in range(2)]

    def value(p: int, i: int, j: int, k: int) -> float:
        if i + k >= goal:
            return 1.0
        other = start[1 - p] if tables else start[0]
        roll = (
            sum(
                1.0 - other[(j, i)] if face == rules.bust else value(p, i, j, k + face)
                for face in range(1, faces + 1)
            )
            / faces
        )
        if k == 0:
            return roll
        hold = 1.0 - other[(j, i + k)] if i + k < goal else 1.0
        if tables is None:
            return max(roll, hold)
        return roll if tables[p][i, j, k] else hold

    for _ in range(10_000):
        change = 0.0
        for p in (0, 1) if tables else (0,):
            for i, j in start[p]:
                new = value(p, i, j, 0)
                change = max(change, abs(new - start[p][(i, j)]))
                start[p][(i, j)] = new
        if change < 1e-13:
            return start
    raise AssertionError("the slow reference did not converge")


@pytest.mark.parametrize(
    "overrides", [{"goal.points": 9}, {"goal.points": 8, "die.bust": 3, "die.faces": 4}]
)
def test_value_iteration_matches_a_slow_reference(overrides):
    rules = Rules.of(RULESETS.load("pig", overrides))
    slow = slow_values(rules)[0]
    fast = optimal_values(rules)
    assert max(abs(fast[i, j] - p) for (i, j), p in slow.items()) < 1e-9
    hold3, opt = table("hold", rules, at=3), table("optimal", rules)
    slow_pair = slow_values(rules, (hold3, opt))
    fast_pair = pair_values(rules, hold3, opt)
    for p in (0, 1):
        assert max(abs(fast_pair[p][i, j] - v) for (i, j), v in slow_pair[p].items()) < 1e-9


# --- the published figures ----------------------------------------------------------------


def test_optimal_play_gives_the_first_player_53_06_percent(optimal):
    """The paper's figure: under optimal play the first player wins 53.06% of games."""
    assert round(first_player_wins(PIG, optimal, optimal), 4) == 0.5306


def test_hold_at_20_on_both_sides_gives_the_first_player_53_47_percent():
    """Neller's "First-Player Advantage" exercise (Nifty Assignments 2010), hold at 20 or the
    goal on both sides: "approximately .5347" (about 53.5%)."""
    hold20 = table_for(*GAME.ready([HOLD20]), PIG)
    assert round(first_player_wins(PIG, hold20, hold20), 4) == 0.5347


# --- the fair head start ------------------------------------------------------------------


def hold_pair_curve(rules: Rules, at: int) -> list[float]:
    """The first player's chance against every head start h, two hold-at-`at` players, by a
    recursion of its own: a hold player's turn banks a gain that depends on its score alone
    ({points: probability}, the turn played forward roll by roll), so the scores only grow
    but for a bust; W[i, j] and W[j, i] (each the mover's chance) are solved together, the
    largest score sums first."""
    goal = rules.goal

    def gains(i: int) -> dict[int, float]:
        stop, banked, live = min(at, goal - i), {0: 0.0}, {0: 1.0}
        while live:
            rolling: dict[int, float] = {}
            for k, p in live.items():
                banked[0] += p / rules.faces  # the bust face
                for face in rules.gains:
                    ends = banked if k + face >= stop else rolling
                    ends[k + face] = ends.get(k + face, 0.0) + p / rules.faces
            live = rolling
        return banked

    turn = [gains(i) for i in range(goal)]
    W: dict[tuple[int, int], float] = {}

    def banking(i: int, j: int) -> float:  # the mover's chance through the turns that bank
        return sum(p if i + g >= goal else p * (1 - W[j, i + g])
                   for g, p in turn[i].items() if g)  # fmt: skip

    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), min(goal - 1, total) + 1):
            j = total - i  # W[i, j] = a + p (1 - W[j, i]); W[j, i] = b + q (1 - W[i, j])
            a, p, b, q = banking(i, j), turn[i][0], banking(j, i), turn[j][0]
            W[i, j] = (a + p * (1 - b - q)) / (1 - p * q)
    return [W[0, h] for h in range(goal)]


@pytest.mark.parametrize(
    "level, fair, shares",
    [("careless", 3, (0.5021, 0.4866)), ("steady", 6, (0.5029, 0.4972)),
     ("optimal", 4, (0.5016, 0.4942))],
)  # fmt: skip
def test_the_fair_head_start_of_each_level(level, fair, shares):
    """The second player's head start that makes the first seat fair (examples/pig/README.md,
    experiments/tune_head_start.yaml): the first player's chance crosses 50% between `fair`
    and `fair + 1`. One evaluation of the pair gives it against every head start (S[0, h]);
    for the hold players, the independent recursion agrees."""
    curve = pair_values(PIG, table(level), table(level))[0][0]
    assert (np.diff(curve[:13]) < 0).all()  # a bigger head start, a smaller first-seat chance
    assert tuple(round(float(curve[h]), 4) for h in (fair, fair + 1)) == shares
    if level != "optimal":
        at = dict(LEVELS[level])["at"]
        assert np.abs(np.array(hold_pair_curve(PIG, at)) - curve).max() < 1e-9


# --- the optimal policy's shape ------------------------------------------------------------


def hold_point(t: np.ndarray, i: int, j: int) -> int:
    """The smallest turn total at which the table holds at scores (i, j)."""
    return int(np.flatnonzero(t[i, j, 1:] == 0)[0]) + 1


def test_at_0_0_optimal_is_hold_at_20ish(optimal):
    """Both at 0, the optimal player rolls below 20 and holds from 21: "hold at 20" is close
    to optimal while both scores are low."""
    assert optimal[0, 0, 1:21].all()
    assert not optimal[0, 0, 21:30].any()


def test_optimal_holds_whenever_holding_wins(optimal):
    i, k = np.meshgrid(np.arange(100), np.arange(100), indexing="ij")
    wins = i + k >= 100
    assert not optimal[:, :, :][np.broadcast_to(wins[:, None, :], optimal.shape)].any()


def test_optimal_rolls_on_at_78_plus_20_against_99(optimal):
    """The paper's point, retold by The Math Tourist (2020): at 78 with a turn total of 20
    against 99, one more roll wins more often than holding at 98."""
    assert optimal[78, 99, 20]


def test_optimal_at_41_against_49_holds_from_22_to_26_but_rolls_at_27(optimal):
    """The non-threshold shape described for 41-49 ('Pig puzzle solution', 2014)."""
    assert optimal[41, 49, 1:22].all()
    assert not optimal[41, 49, 22:27].any()
    assert optimal[41, 49, 27]


def test_optimal_rolls_longer_the_nearer_the_opponent_is_to_winning(optimal):
    """The published boundary: a player holds earlier when ahead and races for the goal when
    the opponent nears it (at 50: hold at 15 against 0, rolling to 100 against 80 or more)."""
    points = [hold_point(optimal, 50, j) for j in (0, 30, 60)]
    assert points == sorted(points) and points[0] < points[-1]
    for j in range(80, 100):
        assert optimal[50, j, 1:50].all()  # never holds short of the goal


# --- the ladder ----------------------------------------------------------------------------


def test_each_ladder_level_beats_optimal_more_often_than_the_one_below(optimal):
    """Exact win probability against `optimal`, the mean of moving first and second."""
    rates = []
    for level in LADDER:
        # the level to move at 0-0 wins mine[0, 0]; optimal to move at 0-0 wins theirs[0, 0]
        mine, theirs = pair_values(PIG, table(level), optimal)
        rates.append((mine[0, 0] + 1 - theirs[0, 0]) / 2)
    by_level = dict(zip(LADDER, rates, strict=True))
    assert rates == sorted(rates) and len(set(rates)) == len(rates), by_level
    assert rates[-1] == pytest.approx(0.5)  # the top is optimal itself
    assert LADDER[0] == "careless" and LEVELS["optimal"] == {"name": "optimal"}


def test_strategy_names_and_parameters_are_checked():
    assert resolved(StrategySpec("steady"), source="x.yaml") == ("hold", {"at": 20})
    assert resolved(StrategySpec("hold"), source="x.yaml") == ("hold", {"at": 20})
    with pytest.raises(ConfigError, match="Did you mean 'optimal'"):
        resolved(StrategySpec("optimall"), source="x.yaml")
    with pytest.raises(ConfigError, match="x.yaml.*at"):
        resolved(StrategySpec("hold", (("at", 0),)), source="x.yaml")
    with pytest.raises(ConfigError, match="takes no parameters"):
        resolved(StrategySpec("steady", (("at", 5),)), source="x.yaml")


# --- seeded turns traced by hand -----------------------------------------------------------


def turns(name: str, seed: int, n: int, scores=(0, 0), rules: Rules = PIG) -> list[list[int]]:
    """The scores after each of n turns, `name` in both seats, the dice of `seed`."""
    t, dice, state = table(name, rules), Dice(seed), R.new_game(rules)
    state.scores = list(scores)
    out = []
    for _ in range(n):
        play_turn(state, rules, t, dice)
        out.append(list(state.scores))
    return out


def test_hold_at_20_traced_on_seed_8():
    # seed 8 rolls: 6 3 6 6 | 3 6 5 4 5 | 6 3 4 4 3 | 6 6 2 5 3 ...
    #   seat 1: 6 9 15 21 >= 20: hold 21       21-0
    #   seat 2: 3 9 14 18 23 >= 20: hold 23    21-23
    #   seat 1: 6 9 13 17 20 >= 20: hold 20    41-23
    #   seat 2: 6 12 14 19 22: hold 22         41-45
    assert turns("steady", 8, 4) == [[21, 0], [21, 23], [41, 23], [41, 45]]


def test_optimal_traced_on_seed_8(optimal):
    # the same dice: 6 3 6 6 | 3 6 5 4 5 | 6 3 4 4 3 6 | 6 2 5 3 1
    #   seat 1 at 0-0 holds from 21: 6 9 15 21: hold 21              21-0
    #   seat 2 at 0-21 holds from 23: 3 9 14 18 23: hold 23          21-23
    #   seat 1 at 21-23 rolls at 20, holds at 26: 6 9 13 17 20 26   47-23
    #   seat 2 at 23-47: 6 8 13 16, then 1: bust                     47-23
    assert hold_point(optimal, 0, 0) == 21 and hold_point(optimal, 0, 21) == 23
    assert optimal[21, 23, 20] and not optimal[21, 23, 26]
    assert turns("optimal", 8, 4) == [[21, 0], [21, 23], [47, 23], [47, 23]]


def test_optimal_races_where_hold_at_20_stops_short():
    # seed 13 rolls: 3 6 2 4 6 3 ...; seat 1 at 78 against 99
    #   hold at 20: 3 9 11 15 21: holds 21 -> 99, one short of the goal
    #   optimal:    3 9 11 15 21 24: rolls on, holds 24 -> 102 and wins
    assert turns("steady", 13, 1, scores=(78, 99)) == [[99, 99]]
    assert turns("optimal", 13, 1, scores=(78, 99)) == [[102, 99]]


def resolved(spec, *, source: str) -> tuple[str, dict]:
    """The strategy's name and checked parameters, as the registry resolves them."""
    player, params = REGISTRY.resolve(spec, source=source)
    return player.name, params
