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
from tests.answer_checks import (
    answer_htmls,
    numbers_without_interval,
    places_not_plain,
    scorecard_places,
)
from tests.cli_checks import run_experiment
from tests.report_fixtures import answer_rows
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
    """The answer's sentence in the page's Answers block (the scorecard above it carries the
    same question key)."""
    return dict(answer_htmls(report))[key]


def test_the_answer_gives_every_change_with_its_interval(run):
    _, text, quality = page_answers(run / "report")["invaders_options.worth"]
    assert numbers_without_interval(answer_html(run / "report", "invaders_options.worth")) == []
    assert "60 paired games" in quality
    assert "\u00b12 pp tolerance" in text  # the win_rate tolerance's default
    rows = {r[0]: r for r in answer_rows(run / "report")["invaders_options.worth"]}
    # every option that does not round to zero, with its interval and its verdict
    options = {"naive never takes a bonus shot (against naive)",
               "tactical never heals (against tactical)"}  # fmt: skip
    assert rows and set(rows) <= options, rows  # a change that rounds to zero is left out
    for row in rows.values():
        assert re.fullmatch(r"\(\S+ to \S+\)", row[2]), rows
        assert row[3] in ("within tolerance", "beyond tolerance", "not settled"), rows


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
    assert text.startswith("No option changes the team's win rate beyond the \u00b12 pp tolerance")
    assert [r.said for r in found.rows] == ["within tolerance"] * 2 and "settle" not in text
    assert found.category == "no option changes the win rate beyond the tolerance"


def test_planted_options_one_shown_one_open_the_open_one_keeps_the_verdict_open():
    found = answer([_row("no heal", -0.05, -0.07, -0.03, 500),
                    _row("no bonus", 0.01, -0.03, 0.05, 500)], TOL)  # fmt: skip
    text = plain_text(found.parts)
    assert found.kind == "finding" and found.category == "some option changes the win rate"
    assert text == ("no heal changes the team's win rate most: \u22125.0 pp (\u22127.0 to "
                    "\u22123.0), beyond the \u00b12 pp tolerance."), text  # fmt: skip
    said = {r.where: (r.figure.text(), r.said) for r in found.rows}
    assert said["no heal (against tactical)"] == ("\u22125.0 pp", "beyond tolerance")
    assert said["no bonus (against tactical)"] == ("+1.0 pp", "not settled")
    # the settle stop plays on for the open one: the answer's verdict is that one's
    assert not found.verdict.settled and found.verdict.games_to_settle > 500
    assert "games per arm would likely settle them" in plain_text(found.more)


def test_planted_option_too_few_games_is_not_settled():
    found = answer([_row("no heal", 0.0, -0.04, 0.04, 200)], TOL)
    assert found.kind == "unsettled" and found.category == "not settled"
    assert "changes nothing" not in plain_text(found.parts)


def test_the_scorecard_says_where_in_plain_words(run):
    """The overview's lowest and highest win rates hold at an arm: the scorecard names it as
    the experiment does ("naive never takes a bonus shot"), not by its stored lineup ("seats
    naive(bonus_shot=0),naive(bonus_shot=0)")."""
    page = (run / "report" / "index.html").read_text()
    places = scorecard_places(page)
    assert len(places) >= 3, places  # the options row and the overview's two
    assert places_not_plain(page) == [], places
    arms = {"naive", "naive never takes a bonus shot", "tactical", "tactical never heals"}
    assert set(places[-2:]) <= arms, places
