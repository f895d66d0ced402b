"""The Space Invaders quality section (a cooperative game: the table wins or loses together),
from a tiny `sim run` of two printed levels and two team skills on the same deals: the page is
titled as the other games' (a balance report), the section builds (it once crashed on the
cooperative closeness answer, unseen), answers each of its questions in a sentence and draws
its pictures before its tables, and the scorecard has a row per question."""

import re

import pytest
from typer.testing import CliRunner

from sim.cli import app
from tests.report_fixtures import answer_rows, answers

EXPERIMENT = """\
name: tiny_quality
game: space-invaders
players: 2
seats: tactical
games: 30
seed: 3
sweep:
  setup.level: [training, standard]
  seats.all: [naive, planner]
report: [quality]
"""

QUESTIONS = ("quality.skill", "quality.luck", "quality.close", "quality.flow")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    base = tmp_path_factory.mktemp("invaders_quality")
    path = base / "tiny_quality.yaml"
    path.write_text(EXPERIMENT)
    result = CliRunner().invoke(app, ["run", str(path), "--out", str(base / "results"), "-j", "1",
                                      "--report-dir", str(base / "report")])  # fmt: skip
    assert result.exit_code == 0, result.output
    return base / "report"


def test_the_page_is_a_balance_report_with_the_quality_section(report):
    page = (report / "index.html").read_text()
    assert "<h1>Space Invaders balance report: tiny_quality</h1>" in page
    assert "difficulty report" not in page
    assert '<section id="quality">' in page


def test_each_cooperative_question_is_answered_in_a_sentence(report):
    found = answers(report)
    for key in QUESTIONS:
        kind, text, _ = found[key]
        assert text and text[0].isupper() and text.rstrip().endswith((".", ")")), (key, text)
    # the deal decides a share of deals, at each level played by both teams
    _, text, _ = found["quality.luck"]
    assert text.startswith("The deal alone decides "), text
    settings = {r[0] for r in answer_rows(report)["quality.luck"]}
    assert len(settings) == 2, settings  # one per printed level


def test_pictures_first_and_a_scorecard_row_per_question(report):
    page = (report / "index.html").read_text()
    section = page.split('<section id="quality">', 1)[1].split("</section>", 1)[0]
    assert "<figure" in section and section.index("<figure") < section.index("<table")
    card = page.split('<section id="scorecard"', 1)[1].split("</section>", 1)[0]
    rows = re.findall(r'<tr data-question="([^"]+)"', card)
    assert set(QUESTIONS) <= set(rows), rows
