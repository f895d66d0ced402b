"""An answer's first sentence says only what its verdict supports (docs/reports.md, "The verdict
vocabulary"), on planted data: players of one skill under several labels are never said to
"finish ahead"; break-even prices 0.9 points apart at two levels, against the ±1 point price
tolerance, never "depend on skill". `unsupported` reads a lead sentence against its answer's
kind; the first test shows it catches the wrong sentences reports used to print."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.report import build_report
from tests import quality_fixtures as Q
from tests import report_fixtures as F

pytestmark = pytest.mark.without_engines  # planted results: no game is played

# Words that state a finding: a difference beyond its tolerance (sim.report.verdicts).
CLAIMS = ("finishes ahead", "finish ahead", "depends on skill", "skill decides", "too cheap",
          "too dear", "changes the game", "the seat matters", "reprice")  # fmt: skip
# A claim named only to say it is open or ruled out claims nothing.
QUALIFIED = re.compile(r"not settled whether[^:;.]*|no [a-z ]*beyond the[^:;.]*", re.I)


def lead(text: str) -> str:
    """An answer's first sentence (a figure's decimal point does not end it)."""
    return re.split(r"(?<=\.)\s+(?=[A-Z])", text.strip(), maxsplit=1)[0]


def unsupported(kind: str, text: str) -> list[str]:
    """The findings an answer's first sentence states that its verdict does not support: any
    claim of a difference beyond the tolerance, unless the answer is a finding."""
    if kind == "finding":
        return []
    said = QUALIFIED.sub("", lead(text)).lower()
    return [c for c in CLAIMS if c in said]


def _report(root: Path) -> Path:
    return build_report(results_dir=root, report_dir=root.parent / f"{root.name}-report").parent


def _all_leads_supported(report: Path) -> None:
    for key, (kind, text, _) in F.answers(report).items():
        assert unsupported(kind, text) == [], (key, kind, text)


def test_the_check_catches_a_lead_that_claims_more_than_its_verdict():
    wrong = [  # what reports said before the vocabulary (issue text), with their kinds
        ("unsettled", "Each level finishes ahead of the one below: 0 of 3 steps "
                      "distinguishable (2,000 games), not settled."),
        ("unsettled", "Break-even price: 13.2 (12.7 to 13.6) at club and 14.1 (13.6 to 14.6) "
                      "at strong: depends on skill."),
        ("within", "The printed 10 is too cheap at every level."),
    ]  # fmt: skip
    assert all(unsupported(kind, text) for kind, text in wrong)
    right = [
        ("unsettled", "Not settled whether skill decides: master's record against novice is "
                      "49.2% (45.5 to 52.8), against a coin's 50% ±2 pp."),
        ("unsettled", "The printed 10 is right at every level; not settled whether the "
                      "break-even price depends on skill (tolerance ±1 point)."),
        ("within", "No skill depth beyond the tolerance: master's record against novice is "
                   "49.2% (45.5 to 52.8), within ±5 pp of a coin's 50%."),
        ("finding", "Skill decides: master finishes ahead of novice in 100.0% (99.4 to 100.0) "
                    "of games."),
    ]  # fmt: skip
    assert [unsupported(kind, text) for kind, text in right] == [[]] * len(right)
    # only the first sentence is the lead: what follows may name what would settle it
    assert lead("A 0.9 (0.3 to 1.5) gap. Then more.") == "A 0.9 (0.3 to 1.5) gap."


@pytest.mark.parametrize("tolerance", [None, 0.05], ids=["open", "within"])
def test_players_of_one_skill_under_several_labels_never_finish_ahead(tmp_path, tolerance):
    """A coin decides every game; the seats hold five labels of one player. At 1,500 games
    the ±2 pp skill-depth question is open, at ±5 pp it is settled as no skill depth: either
    way no lead says a level finishes ahead, and every answer's lead keeps to its verdict."""
    tolerances = {"skill_depth": tolerance} if tolerance else None
    report = _report(Q.pure_luck(tmp_path / "results", tolerances=tolerances))
    kind, text, _ = F.answers(report)["quality.skill"]
    assert kind == ("within" if tolerance else "unsettled"), text
    assert "ahead" not in lead(text), text
    _all_leads_supported(report)


def test_levels_under_one_price_tolerance_apart_do_not_depend_on_skill(tmp_path):
    """Break-even planted at 10 at club and 10.9 at strong, against the ±1 point price
    tolerance: the levels may differ (the interval may exclude zero), but not beyond the
    tolerance, so the price does not 'depend on skill' and the printed 10 is not 'too cheap'."""
    report = _report(F.pricing_by_skill(tmp_path / "results", {"club": 10.0, "strong": 10.9},
                                        games=3000, slope=0.25))  # fmt: skip
    kind, text, _ = F.answers(report)["missile_pricing.all"]
    assert kind in ("within", "unsettled"), text
    first = lead(text)
    assert re.search(r"within the \u00b11 point tolerance|not settled whether", first), first
    assert "too cheap" not in first and "too dear" not in first, first
    rows = {row[0]: float(row[1]) for row in F.answer_rows(report)["missile_pricing.all"]}
    assert 0.3 < rows["strong"] - rows["club"] < 1.5, rows  # the planted 0.9 is measured
    _all_leads_supported(report)
