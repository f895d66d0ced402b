"""The statistics helpers against values computed independently: scipy.stats, brute force, and
published examples (Newcombe 1998, written here literally)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from sim.stats.bootstrap import (
    bootstrap,
    bootstrap_mean,
    bootstrap_ratio,
    break_even,
    break_even_bootstrap,
    isotonic,
)
from sim.stats.intervals import wilson
from sim.stats.paired import (
    newcombe_difference,
    one_sample,
    paired_difference,
    rate_vs_reference,
    welch_difference,
)
from sim.stats.tests import (
    beta_inc,
    binom_test,
    chi2_sf,
    chisquare,
    fairness_test,
    gamma_q,
    holm,
    multinomial_exact,
    t_ppf,
    t_sf,
)

scipy_stats = pytest.importorskip("scipy.stats")
scipy_special = pytest.importorskip("scipy.special")


# --- Wilson and Newcombe: published values -------------------------------------------------

# Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of
# seven methods", Stat Med 17:857-872, Table I, method 3 (score interval without correction).
NEWCOMBE_SINGLE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0000),
]


@pytest.mark.parametrize(("s", "n", "low", "high"), NEWCOMBE_SINGLE)
def test_wilson_matches_newcombe_1998(s, n, low, high):
    got = wilson(s, n, z=1.959964)
    assert got[0] == pytest.approx(low, abs=5e-5)
    assert got[1] == pytest.approx(high, abs=5e-5)


# Newcombe (1998), "Interval estimation for the difference between independent proportions:
# comparison of eleven methods", Stat Med 17:873-890, Table II, method 10 (hybrid score).
NEWCOMBE_DIFF = [
    (56, 70, 48, 80, 0.0524, 0.3339),
    (9, 10, 3, 10, 0.1705, 0.8090),
    (6, 7, 2, 7, 0.0582, 0.8062),
    (5, 56, 0, 29, -0.0381, 0.1926),
    (0, 10, 0, 20, -0.1611, 0.2775),
]


@pytest.mark.parametrize(("s1", "n1", "s2", "n2", "low", "high"), NEWCOMBE_DIFF)
def test_newcombe_difference_matches_published(s1, n1, s2, n2, low, high):
    d = newcombe_difference(s1, n1, s2, n2)
    assert d.estimate == pytest.approx(s1 / n1 - s2 / n2)
    assert d.low == pytest.approx(low, abs=5e-5)
    assert d.high == pytest.approx(high, abs=5e-5)


def test_wilson_matches_scipy_binomtest_interval():
    for k, n in [(3, 17), (50, 100), (999, 1000), (12345, 40000)]:
        ci = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        low, high = wilson(k, n, z=scipy_stats.norm.ppf(0.975))
        assert low == pytest.approx(ci.low, abs=1e-12)
        assert high == pytest.approx(ci.high, abs=1e-12)


# --- distributions -------------------------------------------------------------------------


@pytest.mark.parametrize("df", [1, 2, 3, 5, 10, 50, 300])
def test_chi2_sf_matches_scipy(df):
    for x in [0.0, 0.01, 0.5, 1.0, df * 0.7, df, df * 1.5, df + 20, 4 * df + 60]:
        assert chi2_sf(x, df) == pytest.approx(scipy_stats.chi2.sf(x, df), rel=1e-9, abs=1e-300)


def test_gamma_and_beta_match_scipy_special():
    for a, x in [(0.5, 0.2), (3.0, 2.5), (7.5, 20.0), (100.0, 90.0)]:
        assert gamma_q(a, x) == pytest.approx(scipy_special.gammaincc(a, x), rel=1e-10)
    for a, b, x in [(0.5, 0.5, 0.3), (2.0, 5.0, 0.1), (30.0, 0.5, 0.97), (4.0, 4.0, 0.5)]:
        assert beta_inc(a, b, x) == pytest.approx(scipy_special.betainc(a, b, x), rel=1e-10)


@pytest.mark.parametrize("df", [1, 2, 4, 9, 29, 200, 5000])
def test_t_sf_and_ppf_match_scipy(df):
    for t in [-3.0, -0.5, 0.0, 0.7, 2.0, 6.0]:
        assert t_sf(t, df) == pytest.approx(scipy_stats.t.sf(t, df), rel=1e-9)
    for q in [0.025, 0.5, 0.9, 0.975, 0.999]:
        assert t_ppf(q, df) == pytest.approx(scipy_stats.t.ppf(q, df), rel=1e-8, abs=1e-10)


# --- tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "p"),
    [
        (7, 20, 0.5),
        (0, 10, 0.25),
        (10, 10, 0.25),
        (3, 40, 1 / 3),
        (682, 925, 0.75),
        (2600, 10000, 0.25),
        (1, 2, 0.5),
        (13, 52, 0.25),
    ],
)
def test_binom_test_matches_scipy(k, n, p):
    assert binom_test(k, n, p) == pytest.approx(scipy_stats.binomtest(k, n, p).pvalue, rel=1e-9)


def test_chisquare_matches_scipy():
    obs = [2600.5, 2450.0, 2490.5, 2459.0]
    ours = chisquare(obs)
    ref = scipy_stats.chisquare(obs)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert ours.df == 3
    exp = [30.0, 50.0, 20.0]
    ours = chisquare([38, 45, 17], exp)
    ref = scipy_stats.chisquare([38, 45, 17], exp)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def _brute_multinomial(obs, probs):
    n = sum(obs)
    pmf = scipy_stats.multinomial(n, probs).pmf
    p_obs = pmf(obs)
    total = 0.0
    for x in itertools.product(range(n + 1), repeat=len(obs) - 1):
        if sum(x) <= n:
            px = pmf([*x, n - sum(x)])
            if px <= p_obs * (1 + 1e-7):
                total += px
    return total


@pytest.mark.parametrize(
    ("obs", "probs"),
    [
        ([5, 1, 2], [1 / 3] * 3),
        ([0, 0, 4, 1], [0.25] * 4),
        ([3, 9], [0.5, 0.5]),
        ([6, 2, 1], [0.5, 0.3, 0.2]),
    ],
)
def test_multinomial_exact_matches_brute_force(obs, probs):
    assert multinomial_exact(obs, probs).pvalue == pytest.approx(
        _brute_multinomial(obs, probs), rel=1e-9
    )


def test_multinomial_exact_with_two_cells_is_the_binomial_test():
    for k, n, p in [(3, 12, 0.5), (1, 9, 0.3), (8, 11, 0.25)]:
        assert multinomial_exact([k, n - k], [p, 1 - p]).pvalue == pytest.approx(
            scipy_stats.binomtest(k, n, p).pvalue, rel=1e-9
        )


def test_fairness_test_picks_exact_for_small_counts():
    assert fairness_test([3, 1, 0]).method == "exact multinomial"
    assert fairness_test([300, 310, 290]).method == "chi-square"
    assert math.isnan(fairness_test([0, 0]).pvalue)


def test_holm_matches_definition():
    p = np.array([0.01, 0.04, 0.03, 0.005, np.nan])
    got = holm(p)
    # sorted: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1=0.04 -> monotone 0.06
    np.testing.assert_allclose(got[:4], [0.03, 0.06, 0.06, 0.02])
    assert np.isnan(got[4])


# --- differences ---------------------------------------------------------------------------


def test_paired_difference_matches_scipy_ttest_rel():
    rng = np.random.default_rng(3)
    control = rng.normal(10, 3, size=400)
    treatment = control + rng.normal(0.3, 1.0, size=400)
    d = paired_difference(treatment, control)
    ref = scipy_stats.ttest_rel(treatment, control)
    ci = ref.confidence_interval(0.95)
    assert d.estimate == pytest.approx(np.mean(treatment - control))
    assert d.pvalue == pytest.approx(ref.pvalue, rel=1e-8)
    assert d.low == pytest.approx(ci.low, rel=1e-9)
    assert d.high == pytest.approx(ci.high, rel=1e-9)
    assert d.significant


def test_paired_difference_of_binary_outcomes_and_degenerate_cases():
    rng = np.random.default_rng(5)
    a = (rng.random(2000) < 0.30).astype(float)
    b = (rng.random(2000) < 0.31).astype(float)
    d = paired_difference(b, a)
    ref = scipy_stats.ttest_rel(b, a)
    assert d.pvalue == pytest.approx(ref.pvalue, rel=1e-8)
    same = paired_difference([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert same.estimate == 0 and same.pvalue == 1.0 and not same.significant
    assert math.isnan(paired_difference([1.0], [0.0]).estimate)


def test_welch_and_one_sample_match_scipy():
    rng = np.random.default_rng(11)
    a, b = rng.normal(0, 1, 50), rng.normal(0.6, 2, 80)
    d = welch_difference(a, b)
    ref = scipy_stats.ttest_ind(a, b, equal_var=False)
    ci = ref.confidence_interval(0.95)
    assert d.pvalue == pytest.approx(ref.pvalue, rel=1e-8)
    assert (d.low, d.high) == pytest.approx((ci.low, ci.high), rel=1e-8)
    o = one_sample(a, 0.25)
    ref1 = scipy_stats.ttest_1samp(a, 0.25)
    assert o.pvalue == pytest.approx(ref1.pvalue, rel=1e-8)


def test_rate_vs_reference_is_a_shifted_wilson_interval():
    d = rate_vs_reference(2700, 10000, 0.25)
    low, high = wilson(2700, 10000, z=scipy_stats.norm.ppf(0.975))
    assert (d.low, d.high) == pytest.approx((low - 0.25, high - 0.25))
    z = (0.27 - 0.25) / math.sqrt(0.25 * 0.75 / 10000)
    assert d.pvalue == pytest.approx(2 * scipy_stats.norm.sf(z))


# --- bootstrap and break-even --------------------------------------------------------------


def test_bootstrap_mean_agrees_with_scipy_percentile_bootstrap():
    rng = np.random.default_rng(7)
    x = rng.exponential(2.0, size=500)
    ours = bootstrap_mean(x, n_boot=4000, seed=1)
    ref = scipy_stats.bootstrap(
        (x,), np.mean, n_resamples=4000, method="percentile", random_state=np.random.default_rng(2)
    ).confidence_interval
    width = ref.high - ref.low
    assert ours.estimate == pytest.approx(x.mean())
    assert ours.low == pytest.approx(ref.low, abs=0.06 * width)
    assert ours.high == pytest.approx(ref.high, abs=0.06 * width)
    # and with the normal theory interval of the mean, which it should approach
    se = x.std(ddof=1) / math.sqrt(x.size)
    assert ours.high - ours.low == pytest.approx(2 * 1.96 * se, rel=0.1)


def test_bootstrap_is_seeded_and_chunk_independent():
    x = np.arange(1000, dtype=float) % 7
    a = bootstrap_mean(x, n_boot=300, seed=9)
    b = bootstrap_mean(x, n_boot=300, seed=9)
    np.testing.assert_array_equal(a.replicates, b.replicates)
    c = bootstrap(lambda idx: x[idx].mean(axis=1), x.size, n_boot=300, seed=10)
    assert not np.array_equal(a.replicates, c.replicates)
    assert a.replicates.shape == (300,)


def test_bootstrap_ratio():
    num = np.array([1.0, 2.0, 3.0, 4.0])
    den = np.array([2.0, 2.0, 2.0, 2.0])
    r = bootstrap_ratio(num, den, n_boot=200, seed=0)
    assert r.estimate == pytest.approx(10 / 8)
    assert r.low <= r.estimate <= r.high


def test_isotonic_matches_known_fit():
    np.testing.assert_allclose(isotonic([1, 3, 2, 4]), [1, 2.5, 2.5, 4])
    np.testing.assert_allclose(isotonic([4, 5, 1], increasing=False), [4.5, 4.5, 1])
    # weighted pooling
    np.testing.assert_allclose(isotonic([3, 1], [3, 1]), [2.5, 2.5])


def test_break_even_linear_and_censored():
    x = np.array([4, 6, 8, 10, 12, 14])
    assert break_even(x, 0.09 - 0.01 * x) == pytest.approx(9.0)
    assert break_even(x, np.full(6, 0.05) - 0.001 * x) == math.inf  # still positive at 14
    assert break_even(x, -0.01 * x) == -math.inf  # negative from the start
    assert break_even(x, [0.02, 0.01, 0.0, 0.0, -0.01, -0.02]) == pytest.approx(9.0)


def test_break_even_bootstrap_covers_the_true_crossing():
    rng = np.random.default_rng(0)
    prices = np.array([4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0])
    n = 3000
    shared = rng.normal(0, 1, size=n)  # the game's own noise, common to all arms
    true = 0.10 - 0.01 * prices  # crosses zero at 10
    per_game = true[:, None] + 0.3 * shared[None, :] + rng.normal(0, 0.2, (prices.size, n))
    be = break_even_bootstrap(prices, per_game, n_boot=400, seed=3)
    assert be.low <= be.estimate <= be.high
    assert be.estimate == pytest.approx(10.0, abs=1.5)
    assert be.low < 10.0 < be.high
    assert be.high - be.low < 4
    assert not be.increasing
    assert be.below_share == 0 and be.above_share == 0
