"""The Guardians report's Answers block on planted data (tests/report_fixtures.py): one sentence
per question with every estimate beside its interval (tests/answer_checks.py); the data-quality
warnings (a raid-dominated run warns, a balanced one does not; a break-even outside the swept
range says so, with a sweep that reaches past it); the per-skill verdict (the same at every
level when equal levels are measured well enough, not settled when they are measured too
thinly, depends on skill when they differ); `sim report --compare`; legends that never cover
data; the recommended difficulty setup that names no setup far from its target."""

from __future__ import annotations

import contextlib
import csv
import math
import re
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from typer.testing import CliRunner

import sim.report as report_package
from sim.cli import app
from sim.report import build_report
from tests import report_fixtures as F
from tests.answer_checks import answer_htmls, numbers_without_interval

pytestmark = pytest.mark.without_engines  # runs while the engines compile

N_BOOT = 200
LEVELS = ("casual", "club", "strong")


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Path], dict[str, dict]]:
    """The planted runs' reports (name -> report folder, name_results -> results folder) and
    each figure's legend overlaps as drawn for its page (name -> figure -> count)."""
    base = tmp_path_factory.mktemp("answers")
    makers = {
        "raids": lambda r: F.pricing(r, games=1500, raid=0.85),
        "balanced": lambda r: F.pricing(r, games=1000, raid=0.3),
        "narrow": lambda r: F.pricing(r, games=1000, prices=(4, 5, 6, 7, 8)),
        "few": lambda r: F.pricing_by_skill(r, dict.fromkeys(LEVELS, 10), games=1500),
        "many": lambda r: F.pricing_by_skill(
            r, dict.fromkeys(LEVELS[:2], 10), games=3000, slope=0.25
        ),
        "depends": lambda r: F.pricing_by_skill(
            r, dict(zip(LEVELS, (6, 10, 14), strict=True)), games=1500
        ),
        "what_if_skill": lambda r: F.what_if_by_skill(r, dict.fromkeys(LEVELS, 0.06), games=3000),
        "mine_value": lambda r: F.mine_value(r, games=1000),
        "first_player": lambda r: F.first_player(r, games=1500),
        "difficulty": lambda r: F.difficulty(r, games=1000),
    }
    out, overlaps = {}, {}
    for name, make in makers.items():
        root = make(base / name)
        with _figures_kept(overlaps.setdefault(name, {})):
            build_report(results_dir=root, report_dir=base / f"{name}_report", n_boot=N_BOOT)
        out[name] = base / f"{name}_report"
        out[f"{name}_results"] = root
    return out, overlaps


@contextlib.contextmanager
def _figures_kept(into: dict[str, int]) -> Iterator[None]:
    """While the block runs, each figure a report writes leaves its legend overlaps in `into`
    (the report is written as ever: its page and files are the same)."""
    write = report_package.write_report

    def writing(out, *, sections, **rest):
        into.update({f.name: f.legend_overlaps for s in sections for f in s.figures()})
        return write(out, sections=sections, **rest)

    with mock.patch.object(report_package, "write_report", writing):
        yield


@pytest.fixture(scope="module")
def planted(drawn) -> dict[str, Path]:
    """name -> report folder, name_results -> its results folder."""
    return drawn[0]


def _csv(report: Path, name: str) -> list[dict[str, str]]:
    with open(report / "tables" / f"{name}.csv", newline="") as f:
        return list(csv.DictReader(f))


# --- the Answers block -------------------------------------------------------------------------


def test_one_answer_per_question_and_every_number_has_its_interval(planted):
    for name, report in planted.items():
        if name.endswith("_results"):
            continue
        found = answer_htmls(report)
        keys = [k for k, _ in found]
        assert found and len(keys) == len(set(keys)), (name, keys)
        for key, body in found:
            assert not numbers_without_interval(body), (name, key, body)


def test_terms_are_defined_on_hover_and_in_the_glossary(planted):
    page = (planted["balanced"] / "index.html").read_text()
    assert '<abbr title="The price at which buying stops paying' in page
    glossary = page.split('<section id="definitions">', 1)[1].split("</section>", 1)[0]
    assert "<dt>break-even price</dt>" in glossary and "<dt>invaders win</dt>" in glossary
    md = (planted["balanced"] / "report.md").read_text()
    assert re.search(r"break-even price\[\^\d\]", md) and "[^1]: " in md


# --- data quality ------------------------------------------------------------------------------


def test_a_raid_dominated_run_warns_and_a_balanced_one_does_not(planted):
    _, _, raids = F.answers(planted["raids"])["missile_pricing.all"]
    assert "were lost by everybody to a raid" in raids
    share = int(re.search(r"Warning: (\d+)% of the games", raids)[1])
    assert 80 <= share <= 90  # planted raid rate 0.85
    assert re.search(r"Rests on [\d,]+ games with a winner \(of 7,500 games", raids)
    _, _, balanced = F.answers(planted["balanced"])["missile_pricing.all"]
    assert "Warning" not in balanced
    assert re.search(r"smallest uplift at one price detectable at 80% power: \d\.\d pp", balanced)


def test_a_break_even_outside_the_range_says_so_with_the_sweep_that_settles_it(planted):
    kind, text, q = F.answers(planted["narrow"])["missile_pricing.all"]
    assert "the break-even price is above the range" in text  # planted at 10, tried 4-8
    sweep = re.search(r"sweep missile\.cost over \[([\d, .]+)\] to settle it", q)
    assert sweep, q
    values = [float(v) for v in sweep[1].split(",")]
    assert values[0] == 8 and values[-1] >= 10 and values == sorted(values)
    _, text, q = F.answers(planted["balanced"])["missile_pricing.all"]
    assert "sweep" not in q and "buying the missile pays up to " in text


def test_first_player_quality_line_counts_games_with_a_winner(planted):
    _, _, q = F.answers(planted["first_player"])["first_player.4p.guardians"]
    # planted raid rate 0.45 at 4 players: about 55% of 1,500 games have a winner
    games = int(re.search(r"Rests on ([\d,]+) games with a winner", q)[1].replace(",", ""))
    assert 700 < games < 950 and "Warning" not in q
    assert "smallest seat advantage detectable at 80% power" in q


# --- per skill level ---------------------------------------------------------------------------


def test_equal_levels_with_many_games_are_the_same_at_every_level(planted):
    kind, text, q = F.answers(planted["many"])["missile_pricing.all"]
    assert text.startswith("The printed 10 is right at every level; the break-even price is "
                           "the same at every level: "), text  # fmt: skip
    assert text.endswith("within the \u00b11 point tolerance."), text
    found = {row[0]: float(row[1]) for row in F.answer_rows(planted["many"])["missile_pricing.all"]}
    assert set(found) == set(LEVELS[:2]) and all(abs(v - 10) < 1 for v in found.values())
    assert "over all levels" in q and kind != "unsettled"
    kind, text, _ = F.answers(planted["what_if_skill"])["what_if.steal-highest"]
    assert kind == "finding" and text.startswith("It changes the game at every level; "), text
    assert "is the same at every level" in text, text


def test_equal_levels_with_few_games_are_not_settled(planted):
    kind, text, _ = F.answers(planted["few"])["missile_pricing.all"]
    assert kind == "unsettled" and "same" not in text and "depends on skill:" not in text, text
    said = re.search(
        r"; not settled whether the break-even price depends on skill \(tolerance \u00b11 "
        r"point\)\. About ([\d,]+) games per arm would likely settle it\.$",
        text,
    )
    assert said, text
    assert int(said[1].replace(",", "")) > 1500  # more than the games it rests on


def test_depends_on_skill_names_each_level_and_its_value(planted):
    kind, text, _ = F.answers(planted["depends"])["missile_pricing.all"]
    assert "the break-even price depends on skill" in text, text
    assert kind == "finding"
    rows = F.answer_rows(planted["depends"])["missile_pricing.all"]
    found = {row[0]: float(row[1]) for row in rows}
    assert set(found) == set(LEVELS)
    assert found["casual"] < found["club"] < found["strong"]  # planted 6, 10, 14
    assert abs(found["club"] - 10) < 2.5 and abs(found["strong"] - 14) < 2.5
    said = {row[0]: row[-1] for row in rows}
    assert said["casual"] == "too dear" and said["strong"] == "too cheap"  # printed 10


def test_every_section_shows_each_level(planted):
    report = planted["depends"]
    tables = {p.stem for p in (report / "tables").glob("*.csv")}
    assert {f"missile_break_even__{lv}" for lv in LEVELS} <= tables
    page = (report / "index.html").read_text()
    assert "<details open><summary>At casual</summary>" in page
    assert all(f"<summary>At {lv}</summary>" in page for lv in LEVELS[1:])
    estimate = {
        lv: float(_csv(report, f"missile_break_even__{lv}")[0]["estimate"]) for lv in LEVELS
    }
    assert estimate["casual"] < estimate["club"] < estimate["strong"]


# --- compare -----------------------------------------------------------------------------------


def test_compare_puts_two_runs_side_by_side_with_differences(planted, tmp_path):
    before = F.write_results(
        tmp_path / "before",
        "what_if",
        [F.ArmSpec("baseline"), F.ArmSpec("steal-highest", raid=0.3)],
        games=2000,
        report=("what_if",),
        baseline="baseline",
        param_columns=[],
    )
    after = F.write_results(
        tmp_path / "after",
        "what_if",
        [F.ArmSpec("baseline"), F.ArmSpec("steal-highest", raid=0.38)],
        games=2000,
        report=("what_if",),
        baseline="baseline",
        param_columns=[],
    )
    out = tmp_path / "cmp"
    result = CliRunner().invoke(
        app, ["report", "--compare", str(before), str(after), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    rows = {r["estimate"]: r for r in _csv(out, "compare")}
    raid = rows["what_if.steal-highest.invaders win (raid rate)"]
    a, b, d = (float(raid[k]) for k in ("a", "b", "diff"))
    assert abs(a) < 0.02 and abs(b - 0.08) < 0.02 and d == pytest.approx(b - a)
    a_lo, a_hi, b_lo, b_hi = (float(raid[k]) for k in ("a_low", "a_high", "b_low", "b_high"))
    assert float(raid["diff_low"]) == pytest.approx(d - math.hypot(b - b_lo, a_hi - a))
    assert float(raid["diff_high"]) == pytest.approx(d + math.hypot(b_hi - b, a - a_lo))
    assert raid["excludes_zero"] == "true"
    page = (out / "index.html").read_text()
    block = page.split('<section id="answers">', 1)[1]
    keys = re.findall(r'data-question="([^"]+)"', block)
    assert len(keys) == len(set(keys)) and "what_if.steal-highest" in keys
    for body in re.findall(r'<p class="answer \w+">(.*?)</p>', block):
        assert not numbers_without_interval(body.replace("<b>B \u2212 A:</b>", "")), body
    assert "B \u2212 A" in (out / "report.md").read_text()
    both = CliRunner().invoke(app, ["report", str(before), "--compare", str(before), str(after)])
    assert both.exit_code == 2 and "not both" in both.output


# --- pictures ----------------------------------------------------------------------------------


def test_legends_never_cover_data(drawn):
    """Every figure of every planted report, as drawn for its page."""
    import matplotlib.pyplot as plt

    from sim.report import plots

    _, overlaps = drawn
    assert all(overlaps.values()) and len(overlaps) == 10, overlaps
    for name, figures in overlaps.items():
        for figure, count in figures.items():
            assert count == 0, (name, figure)
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="inside")
    ax.legend(loc="center")
    assert plots.legend_overlaps(fig) == 1  # the check sees a legend over the data
    plt.close(fig)


def test_difficulty_recommends_no_setup_far_from_its_target(planted):
    rec = {(r["players"], r["skill"]): r for r in _csv(planted["difficulty"], "difficulty_setup")}
    # planted novice, 4 players: raid 0.47 / 0.59 / 0.71 for 3 / 4 / 5 rows; Training is 10%
    novice = rec[("4", "novice")]
    assert novice["Training"] == "" and novice["Training_nearest"] == "board.start_rows 3"
    assert novice["Elite"] == "board.start_rows 4"  # 0.59 against 60%
    page = (planted["difficulty"] / "index.html").read_text()
    assert "none (harder; nearest board.start_rows 3" in page


def test_mine_section_says_who_moves_the_mine_and_what_an_explosion_is(planted):
    rows = {r["arm"]: r for r in _csv(planted["mine_value"], "mine_arms")}
    assert rows["mine"]["role"].startswith("nobody moves the mine")
    assert rows["miner"]["role"].startswith("miner moves the mine")
    assert rows["no-mine"]["words"] == "the game has no mine"
    page = (planted["mine_value"] / "index.html").read_text()
    assert "an invader descends onto the mine where it stands" in page
