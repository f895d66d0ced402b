"""The precision stop reads the measure registry: any registry name stops a run, the old metric
names are registry names with the numbers the stop computed by hand before, and a name that
cannot stop every arm is refused with the reason.

Small runs of the fast built-in strategies (greedy, random) keep the file quick.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.experiment import load_experiment
from sim.experiment.precision import measure, metric_problem
from sim.lab.stops import stop_rule
from sim.plugins import get_game
from sim.results import Settings, load
from sim.runner import run
from sim.stats.intervals import Z95, normal_interval, wilson

EXPERIMENT = """
name: precise
players: 3
seats: [greedy, random, greedy]
rotate: true
games: 200
seed: 7
"""
GUARDIANS = get_game("guardians")


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("exp")
    (folder / "exp.yaml").write_text(EXPERIMENT)
    out = folder / "out"
    exp = load_experiment(folder / "exp.yaml")
    run(exp.with_games(600), out=out, jobs=1, progress=False)
    return out


def test_the_old_metric_names_measure_what_they_did(stored: Path) -> None:
    """The stop's old hand-made metrics, by hand on games 0..399 of the stored 600."""
    games = load(stored).filter(pl.col("game") < 400).collect()
    seats = load(stored, "seats").filter(pl.col("game") < 400).collect()
    raids = float((games["outcome"] == "raid").sum())
    assert _bounds(measure(stored, 0, 400, "raid_rate")) == pytest.approx(
        (raids / 400, *wilson(raids, 400))
    )
    first = seats.filter(pl.col("seat") == 0)["win_share"]
    assert _bounds(measure(stored, 0, 400, "win_share.seat.0")) == pytest.approx(
        (first.mean(), *wilson(first.sum(), 400))
    )
    turns = games["turns"].to_numpy().astype(float)
    low, high = normal_interval(turns.mean(), turns.std(ddof=1), 400, z=Z95)
    found = measure(stored, 0, 400, "mean_turns")
    assert _bounds(found) == pytest.approx((turns.mean(), low, high))
    # several seats of one game: the registry's interval counts a game once (delta method)
    per_game = (
        seats.filter(pl.col("strategy") == "greedy")
        .group_by("game")
        .agg(pl.col("win_share").sum().alias("x"), pl.len().alias("w"))
    )
    x, w = per_game["x"].to_numpy(), per_game["w"].to_numpy().astype(float)
    r = x.sum() / w.sum()
    se = ((x - r * w) / w.mean()).std(ddof=1) / math.sqrt(x.size)
    found = measure(stored, 0, 400, "win_share.greedy")
    assert (found.estimate, found.width) == pytest.approx((r, 2 * Z95 * se))


def test_any_registry_measure_stops_a_run(tmp_path: Path) -> None:
    """`leader_wins.half` stops at the first checkpoint whose interval is narrow enough."""
    width = 0.2
    path = tmp_path / "exp.yaml"
    path.write_text(EXPERIMENT + "precision: {metric: leader_wins.half, width: 0.2, step: 100, "
                    "max_games: 2000}\n")  # fmt: skip
    exp = load_experiment(path)
    summary = run(exp, out=tmp_path / "out", jobs=1, progress=False, stop=stop_rule(exp))
    n = summary.arms["default"]
    assert 200 < n < 2000 and n % 100 == 0
    widths = [measure(tmp_path / "out", 0, k, "leader_wins.half").width
              for k in range(200, n + 1, 100)]  # fmt: skip
    assert [w <= width for w in widths] == [False] * (len(widths) - 1) + [True]
    result = summary.precision["default"]
    assert result["reached"] and result["metric"] == "leader_wins.half"


@pytest.mark.parametrize(
    ("metric", "words"),
    [
        ("raid_rate", None),
        ("mean_score", None),
        ("leader_wins.two_thirds", None),
        ("raids_rate", ("unknown metric 'raids_rate'", "Did you mean 'raid_rate'?")),
        ("win_share.seat.3", ("seat 3 does not exist in every arm", "Seats 0 to 2")),
        ("win_share.grredy", ("strategy 'grredy' does not play in every arm",
                              "Did you mean 'win_share.greedy'?")),
        ("beats.greedy>expert", ("strategy 'expert' does not play in every arm", "random")),
    ],
)  # fmt: skip
def test_a_metric_that_cannot_stop_every_arm_is_refused(metric, words) -> None:
    arms = [Settings(3, ("greedy", "random")), Settings(4, ("greedy", "random"))]
    problem = metric_problem(GUARDIANS, metric, arms)
    if words is None:
        assert problem is None
    else:
        assert problem is not None and words[0] == problem[0] and words[1] in problem[1]


def _bounds(m) -> tuple[float, float, float]:
    return m.estimate, m.low, m.high


def test_a_measurement_without_games_is_not_narrow_enough(stored: Path) -> None:
    one = measure(stored, 0, 1, "mean_turns")
    assert one.games == 1 and not one.width <= 1.0  # NaN: no interval from one game
    assert np.isnan(one.width)
