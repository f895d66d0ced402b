"""Deal blocks (sim/measures/blocks.py) on planted data whose answer is known: the seatings of a
deal as one unit, and the deals that shut a seat out."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from sim.errors import SimError
from sim.measures import StoredArm, registry_for
from sim.measures.blocks import by_chance, deal_table, replayed
from sim.stored_arm import Settings

REGISTRY = registry_for("guardians")


def two_player_arm(wins_seat0: np.ndarray, lineup: tuple[str, str], seeds=None) -> StoredArm:
    """Two-player games: seat 0 wins game i where wins_seat0[i] is 1, else seat 1 wins."""
    n = wins_seat0.size
    games = {"game": np.arange(n)}
    if seeds is not None:
        games["seed"] = seeds
    seats = pl.DataFrame({
        "game": np.repeat(np.arange(n), 2),
        "seat": np.tile([0, 1], n),
        "strategy": np.tile(lineup, n),
        "win_share": np.column_stack([wins_seat0, 1 - wins_seat0]).ravel().astype(float),
    })  # fmt: skip
    return StoredArm(pl.DataFrame(games), seats, Settings(2, lineup))


def test_a_colour_swapped_pair_whose_deal_decides_the_seat_is_exactly_even():
    """Every deal is won by the same seat in both seatings (the deal decides): A wins one game
    of each pair, so its win share is 1/2 with no noise at all, where the games one by one
    would give it the noise of 2n coin flips."""
    rng = np.random.default_rng(1)
    deal = (rng.random(500) < 0.6).astype(int)  # seat 0 wins the deal in 60% of deals
    a_first = two_player_arm(deal, ("A", "B"))
    b_first = two_player_arm(deal, ("B", "A"))
    block = replayed([a_first, b_first])
    share = REGISTRY.get("win_share.A").estimate(block)
    assert share.value == pytest.approx(0.5)
    assert share.high - share.low == pytest.approx(0.0, abs=1e-12)
    assert share.n == 500  # deals, not games
    # seat 0's figure keeps its value (60% of the games) with the deals as the units
    seat0 = REGISTRY.get("win_share.seat.0").estimate(block)
    assert seat0.value == pytest.approx(deal.mean())
    se = math.sqrt(deal.mean() * (1 - deal.mean()) / 500)
    assert seat0.se == pytest.approx(se, rel=0.01)


def test_blocks_narrow_a_strategy_figure_when_the_deal_favours_a_seat_and_stay_honest():
    """Planted: the deal favours seat 0 (it wins with 0.8 or 0.2, half the deals each), and A
    wins 5 pp more than its seat alone would give. Over replications of 400 deals, the blocked
    interval on A's win share covers the planted 0.5 + 0.05 about 95% of the time and is
    narrower than the games' one by one."""
    rng = np.random.default_rng(7)
    covered, widths = 0, []
    reps, n = 300, 400
    for _ in range(reps):
        seat0 = np.where(rng.random(n) < 0.5, 0.8, 0.2)
        a_first = (rng.random(n) < seat0 + 0.05).astype(int)  # A in seat 0
        b_first = (rng.random(n) < seat0 - 0.05).astype(int)  # B in seat 0
        block = replayed([two_player_arm(a_first, ("A", "B")), two_player_arm(b_first, ("B", "A"))])
        v = REGISTRY.get("win_share.A").estimate(block)
        covered += v.low <= 0.55 <= v.high
        widths.append(v.high - v.low)
    apart = 2 * 1.96 * math.sqrt(0.55 * 0.45 / (2 * n))  # the games one by one (Wilson's width)
    assert 0.92 <= covered / reps <= 0.98
    assert np.mean(widths) < 0.85 * apart


def test_a_paired_difference_over_blocks_is_the_difference_of_the_block_means():
    rng = np.random.default_rng(3)
    n = 200
    base = [two_player_arm((rng.random(n) < 0.5).astype(int), lineup)
            for lineup in (("A", "B"), ("B", "A"))]  # fmt: skip
    more = [two_player_arm((rng.random(n) < 0.7).astype(int), lineup)
            for lineup in (("A", "B"), ("B", "A"))]  # fmt: skip
    a, b = replayed(base), replayed(more)
    m = REGISTRY.get("win_share.seat.0")
    d = m.paired(a, b)
    assert d.value == pytest.approx(m.estimate(b).value - m.estimate(a).value)
    assert d.n == n


def test_arms_on_different_seeds_are_no_replay():
    one = two_player_arm(np.ones(3, int), ("A", "B"), seeds=np.array([5, 6, 7]))
    other = two_player_arm(np.ones(3, int), ("B", "A"), seeds=np.array([5, 6, 8]))
    with pytest.raises(SimError, match="different seeds"):
        replayed([one, other], ["one", "other"])


def shut_out_plant(rng, deals: int, replays: int, shut: float, p: float) -> np.ndarray:
    """deals x replays, 1 where seat 0 wins: a share `shut` of the deals seat 0 can never win,
    the others won independently with p."""
    closed = rng.random(deals) < shut
    return ((rng.random((deals, replays)) < p) & ~closed[:, None]).astype(int)


def replayed_plant(wins: np.ndarray) -> StoredArm:
    seeds = np.arange(wins.shape[0]) * 1000 + 17
    arms = [two_player_arm(wins[:, r], ("A", "B"), seeds) for r in range(wins.shape[1])]
    return replayed(arms)


def test_deals_that_shut_a_seat_out_are_found_with_their_seeds():
    """Planted: 20% of deals seat 0 never wins; the others it wins each replay with 0.5.
    Seat 0 never wins 0.2 + 0.8 / 8 = 30% of deals over 3 replays; by chance it would never win
    (1 - 0.4)^3 = 21.6%: 8.4 pp beyond chance."""
    rng = np.random.default_rng(11)
    wins = shut_out_plant(rng, 4000, 3, 0.2, 0.5)
    arm = replayed_plant(wins)
    never = REGISTRY.get("never_wins.seat.0").estimate(arm)
    assert never.low <= 0.30 <= never.high and never.n == 4000
    excess = REGISTRY.get("never_wins_excess.seat.0").estimate(arm)
    assert excess.low <= 0.084 <= excess.high and excess.low > 0
    table = deal_table(arm).filter(pl.col("seat") == 0)
    assert table["plays"].unique().to_list() == [3]
    shut_seeds = table.filter(pl.col("won") == 0)["seed"].to_numpy()
    assert np.all(shut_seeds % 1000 == 17) and shut_seeds.size == int(never.value * 4000)


def test_without_deals_that_decide_the_excess_covers_zero():
    """Planted: every replay won independently (p = 0.3 in replay 0, 0.5 in the others):
    no deal decides; over replications the excess's interval covers 0 about 95% of the
    time, and the chance share is the product of 1 - the rates."""
    rng = np.random.default_rng(5)
    m = REGISTRY.get("never_wins_excess.seat.0")
    covered, reps = 0, 300
    for _ in range(reps):
        wins = (rng.random((600, 3)) < np.array([0.3, 0.5, 0.5])).astype(int)
        v = m.estimate(replayed_plant(wins))
        covered += v.low <= 0.0 <= v.high
    assert 0.92 <= covered / reps <= 0.98
    expected, _ = by_chance(np.array([[1, 0], [0, 0], [1, 1], [0, 1]], float))
    assert expected == pytest.approx(0.5 * 0.5)


def test_a_measure_of_deals_on_an_arm_without_deals_says_so():
    arm = two_player_arm(np.ones(4, int), ("A", "B"))
    with pytest.raises(ValueError, match="replayed"):
        REGISTRY.get("never_wins.seat.0").estimate(arm)
