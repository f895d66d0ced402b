"""The measure registry (sim/measures): names once, each formula checked by hand on a few
games, intervals and paired differences against plain formulas."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats

from sim.measures import Registry, Settings, StoredArm, Value, registry_for
from sim.measures.core import Column, quantile_value, ratio_difference, ratio_value
from sim.measures.spec import GameMeasures
from sim.stats.intervals import wilson

# Three 3-player games, scores at the end and at the fractions of the game (hand-made):
#
#   game 0: seat 0 wins 30 to 25 to 10; led at a third (12 > 8 > 5) and at half, seat 1 led
#           at two thirds (20 > 18); seat 2 last at half; before the last round seat 1 led.
#   game 1: seat 2 wins 40 to 12 to 12; last at half time (1 < 4 < 9): a comeback; nobody
#           led alone at a third (6, 6, 2).
#   game 2: a raid: nobody wins (scores 5, 3, 3).
SEATS = pl.DataFrame(
    {
        "game": [0, 0, 0, 1, 1, 1, 2, 2, 2],
        "seat": [0, 1, 2] * 3,
        "strategy": ["strong", "club", "club", "club", "strong", "club", "club", "club", "strong"],
        "score": [30, 25, 10, 12, 12, 40, 5, 3, 3],
        "win_share": [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0],
        "score_third": [12, 8, 5, 6, 6, 2, 1, 0, 0],
        "score_half": [15, 10, 6, 9, 4, 1, 2, 1, 1],
        "score_two_thirds": [18, 20, 8, 20, 6, 20, 3, 2, 2],
        "score_before_last_round": [22, 23, 9, 11, 10, 30, 4, 3, 3],
        "no_choice_turns": [1, 0, 2, 0, 0, 0, 3, 0, 0],
        "turns_played": [10, 10, 10, 8, 8, 8, 5, 5, 5],
    }
)
GAMES = pl.DataFrame(
    {
        "game": [0, 1, 2],
        "outcome": ["victory", "stall", "raid"],
        "turns": [30, 24, 15],
        "lead_changes": [1, 2, 0],
    }
)
SPEC = GameMeasures(
    scoring_event=lambda settings: 5.0,
    no_choice=("no_choice_turns", "turns_played"),
    no_choice_words="only one legal move",
)
FRAMES = StoredArm(GAMES, SEATS, Settings(players=3))


@pytest.fixture(scope="module")
def registry() -> Registry:
    from sim.measures.generic import generic

    return generic(SPEC, ("victory", "stall", "raid", "cap"))


def value(registry: Registry, name: str) -> float:
    return registry.get(name).estimate(FRAMES).value


def test_each_formula_by_hand(registry):
    assert value(registry, "raid_rate") == pytest.approx(1 / 3)
    assert value(registry, "win_share.seat.0") == pytest.approx(1 / 3)
    assert value(registry, "win_share.strong") == pytest.approx(1 / 3)  # won game 0 of 3
    # seat 2 over the games with a winner: (0 - 1/3) and (1 - 1/3)
    assert value(registry, "seat_advantage.2") == pytest.approx(((0 - 1 / 3) + (1 - 1 / 3)) / 2)
    assert value(registry, "mean_turns") == pytest.approx(23.0)
    assert value(registry, "mean_score") == pytest.approx(140 / 9)
    # margins over the games with a winner: 30 - 25 = 5 and 40 - 12 = 28
    assert value(registry, "mean_margin") == pytest.approx(16.5)
    assert value(registry, "median_margin") == pytest.approx(16.5)
    assert value(registry, "close_rate") == pytest.approx(0.5)  # 5 <= one event (5), 28 not
    assert value(registry, "lead_changes") == pytest.approx(1.0)
    # leader at a third: game 0 seat 0 (won); game 1 none alone -> 1 of 1
    assert value(registry, "leader_wins.third") == pytest.approx(1.0)
    # leader at half: game 0 seat 0 (won), game 1 seat 0 (9, lost) -> 1 of 2
    assert value(registry, "leader_wins.half") == pytest.approx(0.5)
    # leader at two thirds: game 0 seat 1 (lost), game 1 tie 20/20 -> 0 of 1
    assert value(registry, "leader_wins.two_thirds") == pytest.approx(0.0)
    # last at half: game 0 seat 2 (lost), game 1 seat 2 (won) -> 1 of 2
    assert value(registry, "last_wins.half") == pytest.approx(0.5)
    # before the last round: game 0 seat 1 led (lost: decided late); game 1 seat 2 (won)
    assert value(registry, "decided_last_round") == pytest.approx(0.5)
    assert value(registry, "no_choice_share") == pytest.approx(6 / 69)
    # strong ahead of club: game 0 beats both (2 of 2), game 1 behind the winner, level with
    # the other club at 12 (0.5 of 2); game 2 has no winner
    assert value(registry, "beats.strong>club") == pytest.approx(2.5 / 4)
    assert value(registry, "beats.club>strong") == pytest.approx(1.5 / 4)
    # strong's uplift: its win share minus the table's / 3: (1 - 1/3), (0 - 1/3), (0 - 0)
    assert value(registry, "uplift.strong") == pytest.approx((2 / 3 - 1 / 3 + 0) / 3)
    # club holds two seats: their mean, (0 - 1/3), (1/2 - 1/3), (0 - 0)
    assert value(registry, "uplift.club") == pytest.approx((-1 / 3 + 1 / 6 + 0) / 3)


def test_names_are_registered_once():
    r = Registry()
    r.add(Column("mean_x", "x", "x", "the mean of x"))
    with pytest.raises(ValueError, match="registered already"):
        r.add(Column("mean_x", "y", "y", "another"))
    r.family("thing.<k>", lambda k: None)
    with pytest.raises(ValueError, match="registered already"):
        r.family("thing.<k>", lambda k: None)


def test_an_unknown_name_suggests_close_ones(registry):
    from sim.measures import UnknownMeasure

    with pytest.raises(UnknownMeasure, match="close_rate"):
        registry.get("close_rat")
    with pytest.raises(UnknownMeasure):
        registry.get("cap2_rate")  # not an outcome of the game


def test_a_game_registry_has_the_generic_and_its_own():
    r = registry_for("guardians")
    assert "raid_rate" in r and "no_choice_share" in r and "leader_wins.half" in r
    assert "planet_destroyed_rate" not in r
    assert "planet_destroyed_rate" in registry_for("space-invaders")


def test_a_plain_mean_has_the_t_free_normal_interval():
    rng = np.random.default_rng(3)
    x = rng.normal(10, 2, 400)
    v = ratio_value(x, np.ones_like(x))
    se = x.std(ddof=1) / math.sqrt(x.size)
    assert v.value == pytest.approx(x.mean())
    assert v.se == pytest.approx(se)
    assert (v.low, v.high) == pytest.approx((x.mean() - 1.959964 * se, x.mean() + 1.959964 * se))


def test_a_rate_has_the_wilson_interval():
    x = np.array([1.0] * 30 + [0.0] * 70)
    v = ratio_value(x, np.ones_like(x), rate=True)
    ci = stats.binomtest(30, 100).proportion_ci(method="wilson")
    assert (v.low, v.high) == pytest.approx((ci.low, ci.high), abs=2e-4)


def test_a_ratio_standard_error_matches_the_delta_method():
    rng = np.random.default_rng(5)
    w = rng.integers(1, 5, 2000).astype(float)
    x = rng.binomial(w.astype(int), 0.3).astype(float)
    v = ratio_value(x, w)
    r = x.sum() / w.sum()
    # delta method by hand: var(x/w-bar) with the covariance term
    n = x.size
    cov = np.cov(x, w, ddof=1)
    var = (cov[0, 0] - 2 * r * cov[0, 1] + r * r * cov[1, 1]) / (n * w.mean() ** 2)
    assert v.se == pytest.approx(math.sqrt(var), rel=1e-9)


def test_a_paired_difference_of_means_is_the_paired_t_estimate():
    rng = np.random.default_rng(7)
    a = rng.normal(0, 1, 500)
    b = a + 0.2 + rng.normal(0, 0.3, 500)
    one = np.ones_like(a)
    d = ratio_difference(a, one, b, one)
    diffs = b - a
    assert d.value == pytest.approx(diffs.mean())
    assert d.se == pytest.approx(diffs.std(ddof=1) / math.sqrt(diffs.size))
    assert d.n == 500


def test_paired_uses_the_games_both_arms_played(registry):
    other = StoredArm(GAMES.with_columns(pl.col("turns") + 2).head(2), SEATS, Settings(players=3))
    d = registry.get("mean_turns").paired(FRAMES, other)
    assert d.value == pytest.approx(2.0) and d.n == 2


def test_a_quantile_interval_holds_the_median():
    v = quantile_value(np.arange(101, dtype=float), 0.5)
    assert v.value == 50 and v.low < 50 < v.high and v.n == 101
    # the order statistics 41 and 61 (1-based): P(41 <= B <= 60) for B ~ Bin(101, 1/2)
    assert (v.low, v.high) == (40.0, 60.0)
    assert stats.binom.cdf(60, 101, 0.5) - stats.binom.cdf(40, 101, 0.5) > 0.95


def test_a_value_has_a_pvalue_and_says_whether_it_excludes_zero():
    v = Value.normal(0.03, 0.01, 1000)
    assert v.excludes_zero
    assert v.pvalue == pytest.approx(2 * stats.norm.sf(3.0))
    assert not Value.normal(0.01, 0.01, 1000).excludes_zero


def test_pooling_an_arm_with_its_copy_tells_nothing_new(registry):
    """Arms that share their deals are pooled by game index: a copy adds no information."""
    for name in ("leader_wins.half", "mean_turns", "close_rate", "median_margin"):
        m = registry.get(name)
        one, two = m.estimate(FRAMES), m.pooled([FRAMES, FRAMES])
        assert two.value == pytest.approx(one.value) and two.n == one.n
        if name != "median_margin":  # the same standard error (the interval: normal, not Wilson)
            assert two.se == pytest.approx(one.se, nan_ok=True)


def _duels(games: int, p_upper: float, seed: int = 1) -> pl.DataFrame:
    """Two-seat games of `hi` against `lo`: hi wins each with probability p_upper."""
    rng = np.random.default_rng(seed)
    hi_wins = rng.random(games) < p_upper
    seat_of_hi = np.arange(games) % 2
    rows = []
    for g in range(games):
        for seat in (0, 1):
            hi = seat == seat_of_hi[g]
            won = hi == hi_wins[g]
            rows.append((g, seat, "hi" if hi else "lo", float(won), int(won)))
    return pl.DataFrame(rows, schema=["game", "seat", "strategy", "win_share", "score"],
                        orient="row")  # fmt: skip


def test_the_ladder_span_in_rating_points():
    from sim.measures.ratings import spans

    skilled = spans(_duels(400, 0.8), "lo")
    assert skilled["lo"].value == 0 and skilled["hi"].low > 0
    coin = spans(_duels(400, 0.5, seed=2), "lo")
    assert coin["hi"].low < 0 < coin["hi"].high


def test_every_rate_is_a_share(registry):
    """A rate (Wilson interval) is shown in % and compared in pp: its unit says 'share'."""
    names = ["raid_rate", "win_share.seat.0", "beats.a>b", "leader_wins.half", "last_wins.half",
             "close_rate", "decided_last_round", "seat_advantage.1", "no_choice_share"]  # fmt: skip
    for name in names:
        m = registry.get(name)
        assert m.unit == "share", name


def test_a_contrast_is_the_difference_of_two_means_by_hand():
    from sim.games.alien_raid.measures import buy_effect

    # game 0: seat 0's coin bought the scout (100 humans), seat 1's declined it (60);
    # game 1: seat 2's coin bought it (80); game 2: a probe of another card; game 3: none
    seats = pl.DataFrame({
        "game": [0, 0, 1, 2, 3],
        "probe_card": ["scout", "scout", "scout", "jammer", ""],
        "probe_bought": [1, 0, 1, 1, 0],
        "score": [100, 60, 80, 70, 50],
    })  # fmt: skip
    frames = StoredArm(seats.select("game").unique(), seats)
    v = buy_effect("scout").estimate(frames)
    assert v.value == pytest.approx((100 + 80) / 2 - 60)
    assert v.n == 4  # every game counts: the probes are spread over them
    # the delta method by hand: z = (x1 - R1 w1) / mean(w1) - (x0 - R0 w0) / mean(w0)
    z1 = np.array([100 - 90, 80 - 90, 0, 0]) / 0.5
    z0 = np.array([60 - 60, 0, 0, 0]) / 0.25
    assert v.se == pytest.approx((z1 - z0).std(ddof=1) / 2)
    # paired with itself: no difference, no spread
    same = buy_effect("scout").paired(frames, frames)
    assert same.value == 0.0 and same.se == 0.0
    assert math.isnan(buy_effect("cruiser").estimate(frames).value)  # never probed


def test_the_per_seat_and_per_table_measures_by_hand(registry):
    # club's seats: game 0 seats 1, 2 (25, 10), game 1 seats 0, 2 (12, 40), game 2 seats 0, 1
    assert value(registry, "seat_mean.score.club") == pytest.approx((25 + 10 + 12 + 40 + 5 + 3) / 6)
    assert value(registry, "seat_mean.score") == value(registry, "mean_score")
    assert value(registry, "seat_mean.score.strong+club") == value(registry, "mean_score")
    assert value(registry, "seat_share.no_choice_turns") == pytest.approx(3 / 9)
    assert value(registry, "game_total.score") == pytest.approx((65 + 64 + 11) / 3)
    assert value(registry, "score.seat.1") == pytest.approx((25 + 12 + 3) / 3)
    assert value(registry, "winner_score") == pytest.approx((30 + 40) / 2)
    assert value(registry, "decided_rate") == pytest.approx(2 / 3)
    # seat 2's share of the 2 games won (0 and 1), its advantage over 1/3, its uplift over
    # every game: (0 - 1/3), (1 - 1/3), (0 - 0)
    assert value(registry, "won_share.seat.2") == pytest.approx(1 / 2)
    assert value(registry, "seat_advantage.2") == pytest.approx(1 / 2 - 1 / 3)
    assert value(registry, "uplift.seat.2") == pytest.approx((-1 / 3 + 2 / 3 + 0) / 3)


def test_a_seat_advantage_has_the_shares_wilson_interval_moved(registry):
    share = registry.get("won_share.seat.0").estimate(FRAMES)
    advantage = registry.get("seat_advantage.0").estimate(FRAMES)
    low, high = wilson(1, 2)
    assert (share.low, share.high) == pytest.approx((low, high))
    assert (advantage.low, advantage.high) == pytest.approx((low - 1 / 3, high - 1 / 3))


def test_a_strategys_seats_pair_with_the_same_seats_of_the_other_arm(registry):
    """win_share.<s> paired: the seats s held in b against the same seats in a, whoever held
    them there (a strategy against the one it replaced)."""
    b = StoredArm(GAMES, SEATS.with_columns(
        pl.when((pl.col("seat") == 1) & (pl.col("game") < 2)).then(pl.lit("new"))
        .otherwise(pl.col("strategy")).alias("strategy"),
        pl.when((pl.col("seat") == 1) & (pl.col("game") == 1)).then(1.0)
        .otherwise(pl.when(pl.col("game") == 1).then(0.0).otherwise(pl.col("win_share")))
        .alias("win_share"),
    ))  # fmt: skip
    d = registry.get("win_share.new").paired(FRAMES, b)
    # game 0: seat 1 won 0 in both; game 1: 1 in b, 0 in a
    assert d.n == 2 and d.value == pytest.approx(0.5)
    # the same seats held by the same strategy: the plain paired difference of its shares
    same = registry.get("win_share.club").paired(FRAMES, FRAMES)
    assert same.value == 0.0 and same.n == 3


def test_a_stored_arm_keeps_a_part_of_its_games():
    first = FRAMES.first(2)
    assert first.games["game"].to_list() == [0, 1] and set(first.seats["game"]) == {0, 1}
    won = FRAMES.where(pl.col("outcome") != "raid")
    assert won.games.height == 2 and won.seats.height == 6
    strong = FRAMES.where(seats=pl.col("strategy") == "strong")
    assert strong.games.height == 3 and strong.seats.height == 3


def test_a_mistyped_family_name_is_answered_with_an_example(registry):
    from sim.measures import UnknownMeasure

    with pytest.raises(UnknownMeasure, match="Did you mean 'raid_rate'"):
        registry.get("raids_rate")
    with pytest.raises(UnknownMeasure, match="Did you mean 'won_share.seat.1'"):
        registry.get("won_share.seats.1", examples=["won_share.seat.1"])


def test_net_points_per_point_count_every_game_the_buyer_plays():
    """The gap in a game the buyer did not buy in counts too: what buying gains over the
    table in all, per point paid (a ratio of two means over every game)."""
    from sim.games.guardians.measures import MISSILE, NetPerPoint

    seats = pl.DataFrame({
        "game": [0, 0, 1, 1],
        "strategy": ["buyer", "other", "buyer", "other"],
        "score": [30, 20, 10, 15],
        "missiles_bought": [2, 0, 0, 0],
    })  # fmt: skip
    games = pl.DataFrame({"game": [0, 1], "missile.cost": [5, 5]})
    v = NetPerPoint(MISSILE, "buyer").estimate(StoredArm(games, seats))
    assert v.value == pytest.approx(((30 - 20) + (10 - 15)) / (2 * 5 + 0))
    assert v.n == 2
