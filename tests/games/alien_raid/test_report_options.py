"""The options section (`alien_raid_options`): the captain whose strategy has a parameter
changed against the same seat of the same game where every captain plays it as it comes,
from a tiny `sim run`; its figures are the paired differences of the stored seats."""

import polars as pl
import pytest

from sim.results import load
from tests.cli_checks import run_experiment
from tests.report_fixtures import answers as page_answers

EXPERIMENT = """\
name: tiny_options
game: alien-raid
players: 3
rotate: true
games: 30
seed: 5
report: [alien_raid_options]
baseline: value
arms:
  - {name: value, seats: [value, value, value]}
  - {name: repays early, seats: [{name: value, repay_early: 1}, value, value]}
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_experiment(tmp_path_factory.mktemp("options_report"), EXPERIMENT)


def test_the_deviating_captain_against_the_same_seat(run):
    table = pl.read_csv(run / "report" / "tables" / "alien_raid_options_table.csv")
    row = table.row(0, named=True)
    assert (row["arm"], row["against"], row["lineup"]) == (
        "repays early", "value", "value(repay_early=1)")  # fmt: skip
    seats = load(run / "results", "seats").collect()
    mine = seats.filter(pl.col("strategy") == "value(repay_early=1)").select(
        "game", "seat", "score"
    )
    base = seats.filter(pl.col("arm") == "value").select("game", "seat", "score")
    both = mine.join(base, on=["game", "seat"], suffix="_base")
    assert both.height == 30  # one deviating captain a game, rotating through the seats
    assert set(both["seat"]) == {0, 1, 2}
    assert row["humans"] == pytest.approx((both["score"] - both["score_base"]).mean())
    assert row["games"] == 30


def test_the_answer_names_the_captain(run):
    _, text, quality = page_answers(run / "report")["alien_raid_options.worth"]
    assert "value(repay_early=1)" in text and "final humans" in text
    assert "30 paired games" in quality
