"""The options section (`invaders_options`): each arm against the arm that plays the same
strategy as it comes, on the same games, from a tiny `sim run`; its answer says every change
with its interval, its picture comes before its table, and its figures are the paired
differences of the stored games."""

import polars as pl
import pytest

from sim.results import load
from tests.cli_checks import run_experiment
from tests.report_fixtures import answers as page_answers
from tests.test_report_answers import numbers_without_interval

EXPERIMENT = """\
name: tiny_options
game: space-invaders
players: 2
games: 60
seed: 5
report: [invaders_options]
baseline: naive
arms:
  - {name: naive, seats: [naive]}
  - {name: naive never takes a bonus shot, seats: [{name: naive, bonus_shot: 0}]}
  - {name: tactical, seats: [tactical]}
  - {name: tactical never heals, seats: [{name: tactical, heal: 0}]}
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_experiment(tmp_path_factory.mktemp("options_report"), EXPERIMENT)


def test_each_arm_is_compared_with_its_own_strategy_as_it_comes(run):
    table = pl.read_csv(run / "report" / "tables" / "invaders_options_table.csv")
    against = dict(zip(table["arm"], table["against"], strict=True))
    assert against == {
        "naive never takes a bonus shot": "naive",
        "tactical never heals": "tactical",
    }
    games = load(run / "results", "games").collect()
    won = {arm: g.sort("game")["won"].to_numpy() for (arm,), g in games.group_by("arm")}
    row = table.filter(pl.col("arm") == "naive never takes a bonus shot").row(0, named=True)
    direct = (won["naive never takes a bonus shot"] - won["naive"]).mean()
    assert row["diff"] == pytest.approx(direct)
    assert row["diff_low"] <= row["diff"] <= row["diff_high"]


def answer_html(report, key: str) -> str:
    page = (report / "index.html").read_text()
    return page.split(f'data-question="{key}"', 1)[1].split("</p>", 1)[0]


def test_the_answer_gives_every_change_with_its_interval(run):
    _, text, quality = page_answers(run / "report")["invaders_options.worth"]
    assert "naive never takes a bonus shot (against naive)" in text
    assert "tactical never heals (against tactical)" in text
    assert numbers_without_interval(answer_html(run / "report", "invaders_options.worth")) == []
    assert "60 paired games" in quality


def test_the_picture_comes_before_the_table(run):
    text = (run / "report" / "report.md").read_text()
    body = text.split("\n## Space Invaders: what are the optional actions worth?\n", 1)[1]
    assert "![" in body and body.index("![") < body.index("[CSV](tables/")
