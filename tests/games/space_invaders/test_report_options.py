"""The options section (`invaders_options`): each arm against the arm that plays the same
strategy as it comes, on the same games, from a tiny `sim run`; its answer says every change
with its interval, its picture comes before its table, and its figures are the paired
differences of the stored games."""

import re

import polars as pl
import pytest

from sim.games.space_invaders.report.options import answer
from sim.report.answers import plain_text
from sim.results import load
from sim.stats.tolerances import DEFAULTS
from tests.answer_checks import numbers_without_interval
from tests.cli_checks import run_experiment
from tests.report_fixtures import answers as page_answers

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
    assert "(tolerance \u00b12 pp)" in text  # the win_rate tolerance's default
    for arm in ("naive never takes a bonus shot", "tactical never heals"):
        said = re.search(rf"{arm} \(against \w+\) [^;:]*: ([a-z ]+)", text)[1].strip()
        assert said in ("changes nothing beyond the tolerance", "changes the win rate",
                        "not settled"), text  # fmt: skip


def test_the_picture_comes_before_the_table(run):
    text = (run / "report" / "report.md").read_text()
    body = text.split("\n## Space Invaders: what are the optional actions worth?\n", 1)[1]
    assert "![" in body and body.index("![") < body.index("[CSV](tables/")


def _row(arm: str, diff: float, low: float, high: float, games: int) -> dict:
    return {"arm": arm, "against": "tactical", "diff": diff, "diff_low": low, "diff_high": high,
            "games": games}  # fmt: skip


TOL = DEFAULTS["win_rate"]  # ±2 pp


def test_planted_options_that_change_nothing_hold_within_the_tolerance():
    found = answer([_row("no heal", 0.001, -0.005, 0.007, 20_000),
                    _row("no bonus", -0.004, -0.011, 0.003, 20_000)], TOL)  # fmt: skip
    text = plain_text(found.parts)
    assert found.kind == "within" and found.verdict.holds
    assert text.count("changes nothing beyond the tolerance") == 2
    assert "(tolerance \u00b12 pp)" in text and "settle" not in text
    assert found.category == "no option changes the win rate beyond the tolerance"


def test_planted_options_one_shown_one_open_the_open_one_keeps_the_verdict_open():
    found = answer([_row("no heal", -0.05, -0.07, -0.03, 500),
                    _row("no bonus", 0.01, -0.03, 0.05, 500)], TOL)  # fmt: skip
    text = plain_text(found.parts)
    assert found.kind == "finding" and found.category == "some option changes the win rate"
    assert (
        "no heal (against tactical) \u22125.0 pp (\u22127.0 to \u22123.0): changes the win rate"
        in text
    )
    assert "no bonus (against tactical) +1.0 pp (\u22123.0 to +5.0): not settled" in text
    # the settle stop plays on for the open one: the answer's verdict is that one's
    assert not found.verdict.settled and found.verdict.games_to_settle > 500
    assert "games per arm would likely settle it for the ones not settled" in text


def test_planted_option_too_few_games_is_not_settled():
    found = answer([_row("no heal", 0.0, -0.04, 0.04, 200)], TOL)
    assert found.kind == "unsettled" and found.category == "not settled"
    assert "changes nothing" not in plain_text(found.parts)
