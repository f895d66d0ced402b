"""Three-valued verdicts (sim/stats/verdict.py): a difference is within the tolerance only when
the whole interval lies inside it, never because a difference went undetected; beyond it only
when the whole interval lies outside it, never because a difference was detected; otherwise the
question is open, with the games per arm that would settle it with about 80% probability. And
the tolerances' defaults and overrides (sim/stats/tolerances.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.stats.tolerances import DEFAULTS, resolve
from sim.stats.verdict import Outcome, Verdict, all_of, equivalence, in_band, positive

pytestmark = pytest.mark.without_engines  # runs while the engines compile

Z = 1.959963984540054


def test_equivalence_holds_only_inside_the_tolerance() -> None:
    assert equivalence(0.2, -0.5, 0.9, 1.0).outcome is Outcome.HOLDS
    # not detecting a difference is not enough: (-1.5, 1.9) contains zero but leaves +-1
    wide = equivalence(0.2, -1.5, 1.9, 1.0, games=1000)
    assert wide.outcome is Outcome.UNSETTLED and wide.games_to_settle > 1000
    assert equivalence(2.5, 1.4, 3.6, 1.0).outcome is Outcome.OPPOSITE
    assert equivalence(-2.5, -3.6, -1.4, 1.0).outcome is Outcome.OPPOSITE
    # an effect too small to matter: inside the tolerance although it excludes zero
    small = equivalence(0.3, 0.1, 0.5, 1.0)
    assert small.outcome is Outcome.HOLDS and small.real


def test_a_real_difference_is_beyond_the_tolerance_only_when_its_whole_interval_is() -> None:
    """0.9 (0.3 to 1.5) against +-1: real (it excludes zero), but not shown to exceed the
    tolerance: open, with the games that would settle it."""
    real = equivalence(0.9, 0.3, 1.5, 1.0, games=2000)
    assert real.outcome is Outcome.UNSETTLED and real.real and real.games_to_settle > 2000
    assert not equivalence(0.2, -0.5, 0.9, 1.0).real


def test_a_better_test_of_an_effect_must_back_a_difference_beyond_the_tolerance() -> None:
    assert equivalence(2.5, 1.4, 3.6, 1.0, effect_shown=False).outcome is Outcome.UNSETTLED
    assert equivalence(2.5, 1.4, 3.6, 1.0, effect_shown=True).outcome is Outcome.OPPOSITE
    assert equivalence(0.5, -0.6, 1.6, 1.0, effect_shown=True).outcome is Outcome.UNSETTLED
    assert equivalence(0.5, 0.2, 0.8, 1.0, effect_shown=True).outcome is Outcome.HOLDS


def test_undetermined_or_open_ended_intervals_settle_nothing() -> None:
    nan = equivalence(math.nan, math.nan, math.nan, 1.0, games=100)
    assert nan.outcome is Outcome.UNSETTLED and nan.games_to_settle is None
    open_ended = equivalence(3.0, -0.5, math.inf, 1.0, games=100)
    assert open_ended.outcome is Outcome.UNSETTLED and open_ended.games_to_settle is None
    assert equivalence(3.0, 1.5, math.inf, 1.0).outcome is Outcome.OPPOSITE  # beyond the range
    assert equivalence(3.0, 0.5, math.inf, 1.0).outcome is Outcome.UNSETTLED
    with pytest.raises(ValueError):
        equivalence(0.0, -1.0, 1.0, -1.0)


def test_positive_claims_hold_beyond_the_tolerance_only() -> None:
    assert positive(2.5, 1.5, 3.5, 1.0).outcome is Outcome.HOLDS
    assert positive(0.0, -1.0, 0.9, 1.0).outcome is Outcome.OPPOSITE  # at most negligible
    assert positive(-3.0, -4.0, -2.0, 1.0).outcome is Outcome.OPPOSITE
    small = positive(0.5, 0.2, 0.8, 1.0)  # real but smaller than the tolerance
    assert small.outcome is Outcome.OPPOSITE and small.real
    open_ = positive(1.5, 0.5, 2.5, 1.0, games=200)  # real, not settled whether beyond
    assert open_.outcome is Outcome.UNSETTLED and open_.real and open_.games_to_settle > 200


def test_a_target_is_met_inside_its_widened_band_and_missed_outside_it() -> None:
    # the band 20% to 30%, give or take 1 pp: met inside 19% to 31%, missed wholly outside
    assert in_band(0.25, 0.20, 0.30, (0.20, 0.30), 0.01).outcome is Outcome.HOLDS
    assert in_band(0.304, 0.30, 0.308, (0.20, 0.30), 0.01).outcome is Outcome.HOLDS
    assert in_band(0.35, 0.33, 0.37, (0.20, 0.30), 0.01).outcome is Outcome.OPPOSITE
    # clear of the band but not of its tolerance: a miss by more than the tolerance is not shown
    near = in_band(0.32, 0.305, 0.335, (0.20, 0.30), 0.01, games=500)
    assert near.outcome is Outcome.UNSETTLED and near.games_to_settle > 500
    assert near.estimate == 0.32 and near.tolerance == 0.01  # the value's own interval
    # a one-point band: a target value
    assert in_band(0.455, 0.44, 0.47, (0.45, 0.45), 0.02).outcome is Outcome.HOLDS
    with pytest.raises(ValueError):
        in_band(0.0, -1.0, 1.0, (0.3, 0.2), 0.01)


def test_all_of_needs_every_claim() -> None:
    holds = equivalence(0.0, -0.5, 0.5, 1.0)
    near = equivalence(0.0, -0.9, 0.9, 1.0)
    shown = equivalence(2.5, 1.5, 3.5, 1.0)
    open_a = equivalence(0.0, -2.0, 2.0, 1.0, games=100)
    open_b = equivalence(0.0, -4.0, 4.0, 1.0, games=100)
    assert all_of([holds, near]) == near  # the one nearest its tolerance
    assert all_of([holds, open_a, shown]) == shown
    both = all_of([holds, open_a, open_b])
    assert both.outcome is Outcome.UNSETTLED
    assert both.games_to_settle == max(open_a.games_to_settle, open_b.games_to_settle)
    assert all_of([open_a, equivalence(math.nan, math.nan, math.nan, 1.0)]).games_to_settle is None


def test_an_estimate_on_the_edge_gets_no_games_to_settle() -> None:
    """On the edge of the widened band the question stays open whatever the games: no figure
    (more than a hundred times the games played is not said)."""
    edge = in_band(1.1, 1.1 - Z * 0.6, 1.1 + Z * 0.6, (-0.1, 0.1), 1.0, games=1000)
    assert edge.outcome is Outcome.UNSETTLED and edge.games_to_settle is None
    near = in_band(0.9, 0.9 - Z * 0.6, 0.9 + Z * 0.6, (-0.1, 0.1), 1.0, games=1000)
    assert near.games_to_settle is not None and near.games_to_settle <= 100 * 1000
    with pytest.raises(ValueError):
        all_of([])


def _target(estimate, low, high, tolerance, *, games=None):
    """A target band [-0.1, 0.1], give or take the tolerance."""
    return in_band(estimate, low, high, (-0.1, 0.1), tolerance, games=games)


def _settled_share(claim, true: float, se: float, games: int, tol: float, rng) -> float:
    """How often a normal estimate with standard error `se` at `games` settles the question."""
    est = rng.normal(true, se, 20_000)
    found = [claim(e, e - Z * se, e + Z * se, tol, games=games) for e in est]
    return float(np.mean([v.settled for v in found]))


@pytest.mark.parametrize(
    ("claim", "true"),
    [(equivalence, t) for t in (0.0, 0.3, 0.5, 1.6, 2.0)]
    + [(positive, t) for t in (0.2, 0.4, 1.6)]
    + [(_target, t) for t in (0.0, 0.6, 1.4, 1.9)],
)
def test_the_games_to_settle_settle_it_four_times_in_five(claim, true: float) -> None:
    """Were the truth the current estimate, the suggested games settle the question in about
    80% of the runs (the standard error shrinking as 1 / sqrt(games))."""
    games, se, tol = 1000, 0.6, 1.0
    v = claim(true, true - Z * se, true + Z * se, tol, games=games)
    assert v.outcome is Outcome.UNSETTLED
    n = v.games_to_settle
    scaled = se * math.sqrt(games / n)
    share = _settled_share(claim, true, scaled, n, tol, np.random.default_rng(7))
    assert 0.78 <= share <= 0.86, (n, share)  # 80%, give or take rounding n up
    assert len(str(n).rstrip("0")) <= 2  # rounded up to two significant figures


def test_a_verdict_is_a_small_frozen_value() -> None:
    v = equivalence(0.0, -0.5, 0.5, 1.0)
    assert isinstance(v, Verdict) and v.settled and v.holds and not v.opposite
    with pytest.raises(AttributeError):
        v.outcome = Outcome.OPPOSITE  # type: ignore[misc]


def test_tolerances_defaults_text_and_overrides() -> None:
    assert DEFAULTS["price"].text() == "\u00b11 point"
    assert DEFAULTS["seat_advantage"].text() == "\u00b11 pp"
    assert DEFAULTS["outcome_rate"].text() == "\u00b12 pp"
    assert DEFAULTS["card_price"].text() == "\u00b15,000 humans"
    assert all(t.value > 0 and t.about for t in DEFAULTS.values())
    tol = resolve({"price": 2, "seat_advantage": 0.005, "nonsense": 3, "score": "x"})
    assert tol["price"].value == 2 and tol["price"].text() == "\u00b12 points"
    assert tol["seat_advantage"].text() == "\u00b10.5 pp"
    assert tol["score"] == DEFAULTS["score"] and "nonsense" not in tol


def test_the_normal_cdf_written_out_is_the_standard_library_s() -> None:
    """The search for the games to settle reads the normal cdf written out (a call fewer than
    statistics.NormalDist's, some 240 times a verdict): the same values."""
    from statistics import NormalDist

    from sim.stats.verdict import _cdf

    xs = np.concatenate([np.linspace(-9.0, 9.0, 20_001), [0.0, -0.0, 1e-300, -40.0, 40.0]])
    reference = NormalDist()
    assert [_cdf(float(x)) for x in xs] == [reference.cdf(float(x)) for x in xs]  # to the bit
