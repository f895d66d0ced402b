"""The Answers block's checker, and the helpers of an answer's data quality against scipy and
plain formulas (each game's answers on planted data: tests/games/<game>/)."""

from __future__ import annotations

import math

import pytest

from sim.report import data_quality as Q
from sim.report.answers import Estimate, difference
from tests.answer_checks import numbers_without_interval

pytestmark = pytest.mark.without_engines  # runs while the engines compile


def test_the_checker_catches_a_bare_number():
    bad = 'The mine is worth <span class="est" data-key="x">+0.5 pp</span> and 3 more.'
    assert numbers_without_interval(bad) == [
        "estimate without interval: +0.5 pp",
        "bare number '3'",
    ]
    good = (
        'At <span class="lbl">4 players</span>: <span class="est" data-key="x">+0.5 pp '
        '<span class="ci">(+0.3 to +0.7)</span></span> in <span class="n">1,200</span> games.'
    )
    assert numbers_without_interval(good) == []


# --- the helpers -------------------------------------------------------------------------------


def test_mde_has_80_percent_power():
    stats = pytest.importorskip("scipy.stats")
    low, high = -0.5, 1.5  # a 95% interval of a normal estimate: se = 1 / 1.96
    se = (high - low) / 2 / stats.norm.ppf(0.975)
    m = Q.mde(low, high)
    power = stats.norm.sf(stats.norm.ppf(0.975) - m / se) + stats.norm.cdf(
        -stats.norm.ppf(0.975) - m / se
    )
    assert power == pytest.approx(0.80, abs=1e-3)
    assert math.isnan(Q.mde(5.0, 5.0))  # a median whose resamples all agree: no power to read
    assert Q.mde_rate(0.25, 1000) == pytest.approx(
        (stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * math.sqrt(0.25 * 0.75 / 1000)
    )


def test_difference_of_normal_estimates_is_the_root_sum_of_squares():
    a = Estimate("a", "a", 1.5, 1.5 - 1.96 * 0.3, 1.5 + 1.96 * 0.3)
    b = Estimate("b", "b", 0.2, 0.2 - 1.96 * 0.4, 0.2 + 1.96 * 0.4)
    d = difference(a, b)
    assert d.value == pytest.approx(1.3)
    assert d.high - d.value == pytest.approx(1.96 * 0.5)
    assert d.significant


def test_settling_sweep_reaches_past_the_extrapolated_crossing():
    assert Q.settling_sweep([5, 6, 8, 10, 12, 15, 20], "above") == [20, 25, 30, 35, 40]
    assert Q.settling_sweep([4, 5, 6, 7, 8], "above", guess=14.0)[-1] >= 14
    assert Q.settling_sweep([4, 7, 10], "below") == [0, 1, 2, 3, 4]  # never below 0
    assert Q.extrapolate_zero([4, 6, 8], [0.03, 0.02, 0.01], "above") == pytest.approx(10.0)
    assert Q.extrapolate_zero([4, 6, 8], [0.01, 0.02, 0.03], "above") is None


def test_share_warning_needs_most_games():
    words = {"raid": "lost to a raid"}
    assert Q.share_warning({"raid": 49, "victory": 51}, words, "x") is None
    text = Q.share_warning({"raid": 82, "victory": 18}, words, "who gains")
    assert text.startswith("82% of the games were lost to a raid") and "(18 games)" in text
