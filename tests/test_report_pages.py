"""What a report page shows and how, on planted data (tests/report_fixtures.py): the scorecard
on the first screen (a row per question, its verdict, its key figure with the interval, each
skill level, a link to the section); the provenance in the header (the experiment file, every
`--set` override, games per arm, root seed, code version); the picture of the answers across
skill levels (the printed price beside the break-even) before the section's tables; tables
that fit (an interval under its figure, long tables folded behind "show all" with the rows that
matter first); the card report's picture (the cards to reprice first and named, a card whose
fair price depends on skill said so); a comparison page that opens with what differs between
the runs and judges each paired difference against its tolerance, without significance
marks. The pages in a browser: tests/test_report_browser.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest

from sim.games.alien_raid.report import card_figure
from sim.measures import Value
from sim.report import build_report, fmt
from sim.report.compare import build_comparison, paired_verdicts
from sim.report.metrics import diff_cols, prefixed
from sim.report.render import render_table
from sim.report.table import Column, Table
from sim.stats.interval_columns import as_columns, interval_in, interval_keys
from sim.stats.tolerances import DEFAULTS, resolve
from sim.storage import write_manifest
from tests import report_fixtures as F

pytestmark = pytest.mark.without_engines  # runs while the engines compile

LEVELS = {"casual": 6, "club": 10}  # the planted break-even price at each level


def _with_overrides(root: Path, overrides: list[list]) -> Path:
    """The results as `sim run --games N --set KEY=VALUE` records them."""
    manifest = json.loads((root / "manifest.json").read_text())
    manifest.update(cli_overrides=overrides, package_version="9.9.9",
                    git_commit="0123456789abcdef0123456789abcdef01234567",
                    effective={"game_version": 3})  # fmt: skip
    write_manifest(root, manifest)
    return root


@pytest.fixture(scope="module")
def skills(tmp_path_factory: pytest.TempPathFactory) -> str:
    base = tmp_path_factory.mktemp("pages")
    root = _with_overrides(F.pricing_by_skill(base / "run", LEVELS, games=800),
                           [["games", 800], ["mine.step", 2]])  # fmt: skip
    return build_report(results_dir=root, report_dir=base / "report", n_boot=100).read_text()


def _scorecard(page: str) -> str:
    return page.split('<section id="scorecard"', 1)[1].split("</section>", 1)[0]


def test_the_scorecard_opens_the_page_with_a_row_per_question(skills):
    assert skills.index('id="scorecard"') < skills.index('id="answers"')
    card = _scorecard(skills)
    questions = re.findall(r'<div class="qa" data-question="([^"]+)"', skills)
    rows = re.findall(r'<tr data-question="([^"]+)"', card)
    assert rows == questions and len(rows) >= 2  # the pricing question and the overview's
    sections = set(re.findall(r'<section id="([^"]+)"', skills))
    for target in re.findall(r'<th scope="row" class="q"[^>]*><a href="#([^"]+)"', card):
        assert target in sections
    # the price question over two levels: its verdict and a figure with its interval per level
    price = card.split('data-question="missile_pricing.all"', 1)[1].split('data-question="', 1)[0]
    assert re.search(r'<td class="v \w+"[^>]*>[^<]+</td>', price)
    figures = re.findall(r'<span class="est"[^>]*>([^<]+)<span class="ci">([^<]+)</span>', price)
    assert len(figures) == len(LEVELS), figures
    assert re.findall(r'<td class="at">([^<]+)</td>', price) == list(LEVELS)


def test_the_header_says_where_the_numbers_come_from(skills):
    header = skills.split("<h1>", 1)[1].split('<section id="scorecard"', 1)[0]
    for said in ("experiments/missile_cost.yaml", "--set games=800", "--set mine.step=2",
                 "800 games per arm", "root seed 7", "commit 0123456789ab",
                 "lab 9.9.9", "guardians rules version 3"):  # fmt: skip
        assert said in header, said


def test_the_answers_across_levels_are_pictured_before_any_table(skills):
    section = skills.split('<section id="missile_pricing">', 1)[1].split("</section>", 1)[0]
    assert section.index('id="f-missile_pricing_levels"') < section.index("<table")


def test_a_figure_and_its_interval_stack_in_a_cell_and_long_tables_fold():
    rows = [{"n": i, "rate": 0.5, "rate_low": 0.4, "rate_high": 0.6} for i in range(40)]
    table = Table("long", "Forty rows", pl.DataFrame(rows),
                  [Column.count("n", "n"), Column.pct_ci("rate", "rate")])  # fmt: skip
    shown = render_table(table)
    assert '<span class="tci">(40.0\u201360.0)</span>' in shown
    assert 'class="tablewrap folded" data-shown="15"' in shown
    assert shown.count('<tr class="more">') == 25 and "Show all 40 rows" in shown
    short = Table("short", "Ten rows", pl.DataFrame(rows[:10]), table.columns)
    assert "folded" not in render_table(short) and "more" not in render_table(short)
    chosen = Table("chosen", "Rows that matter first", pl.DataFrame(rows[:12]), table.columns,
                   fold=3)  # fmt: skip
    assert render_table(chosen).count('<tr class="more">') == 9


def _card(arm: str, card: str, price: float, fair: float, half: float, verdict: str) -> dict:
    return {"arm": arm, "card": card, "price": price, "fair": fair, "fair_low": fair - half,
            "fair_high": fair + half, "verdict": verdict}  # fmt: skip


def test_the_card_picture_puts_the_cards_to_reprice_first_and_says_which_depend_on_skill():
    tol = DEFAULTS["card_price"]  # +-5,000 humans
    below, right, open_ = card_figure.BELOW, card_figure.RIGHT, "not settled"
    rows = [
        # the cruiser: worth far more than printed at strong only (apart by ~100,000 humans)
        _card("naive", "cruiser", 60_000, 62_000, 2_000, right),
        _card("strong", "cruiser", 60_000, 160_000, 20_000, below),
        # the booster: a little under its worth at both levels, alike
        _card("naive", "booster", 20_000, 30_000, 3_000, below),
        _card("strong", "booster", 20_000, 31_000, 3_000, below),
        # the scanner: not settled anywhere, apart by less than the tolerance could tell
        _card("naive", "scanner", 30_000, 30_000, 40_000, open_),
        _card("strong", "scanner", 30_000, 45_000, 40_000, open_),
    ]
    assert card_figure.reprice(rows) == ["cruiser", "booster"]  # the furthest from its price
    assert card_figure.depends_on_skill(rows, tol) == ["cruiser"]
    picture = card_figure.figure(rows, {"naive": "naive", "strong": "strong"}, tol)
    assert picture is not None and picture.legend_overlaps == 0
    assert "To reprice (bold): cruiser, booster." in picture.caption
    assert "Depends on skill: cruiser." in picture.caption


def test_a_difference_is_judged_against_its_tolerance_in_its_own_units():
    """Paired quality rows: a share against quality_share (±2 pp), a quantity against
    quality_relative (±5%) of run A's value, in the vocabulary's words; a difference that
    excludes zero (Holm's p tiny) but not the tolerance is not beyond it."""

    def said(unit: str, value: float, low: float, high: float, reference: float = 0.0) -> str:
        row = {"unit": unit, "diff_value": value, "diff_low": low, "diff_high": high,
               "p_holm": 1e-6, "reference": reference}  # fmt: skip
        return paired_verdicts([row], resolve(None))[0]["verdict"]

    assert said("share", 0.05, 0.03, 0.07) == "beyond tolerance"  # wholly beyond ±2 pp
    assert said("share", 0.01, 0.005, 0.015) == "within tolerance"  # real, but within it
    assert said("share", 0.02, 0.01, 0.03) == "not settled"  # real: beyond it or not, open
    assert said("num", 2.0, 1.0, 3.0, reference=10.0) == "beyond tolerance"  # ±0.5 turns


def test_a_comparison_opens_with_what_differs_and_marks_no_significance(tmp_path):
    a = F.what_if(tmp_path / "a", games=600)
    b = _with_overrides(F.what_if(tmp_path / "b", games=700), [["mine.step", 2]])
    page = build_comparison(dir_a=a, dir_b=b, report_dir=tmp_path / "cmp", n_boot=100)
    text = page.read_text()
    differs = text.split('<section id="differs">', 1)[1].split("</section>", 1)[0]
    assert text.index('id="differs"') < text.index('id="answers"')
    for said in ("command-line overrides", "mine.step=2", "600 games per arm",
                 "700 games per arm", "code"):  # fmt: skip
        assert said in differs, said
    assert "n.s." not in text and 'class="ns"' not in text and 'class="sig"' not in text
    same = build_comparison(dir_a=a, dir_b=a, report_dir=tmp_path / "same", n_boot=100)
    assert "Nothing: the two runs share" in same.read_text()


def test_the_scorecard_says_where_each_figure_holds():
    from sim.report.answers import Answer, Estimate, Label, Row, sentence
    from sim.report.scorecard import key_figures

    def share(key: str, v: float) -> Estimate:
        return Estimate(key, "seat 1's win share", v, v - 0.01, v + 0.01, unit="pct")

    a, b = share("first@ladder", 0.53), share("first@optimal", 0.51)
    # the setting the sentence names after each figure ("53% (...) in ladder")
    told = Answer(
        "first",
        "Who wins?",
        sentence(
            "Seat 1 wins ", a, " in ", Label("ladder"), " and ", b, " in ", Label("optimal"), "."
        ),
    )
    assert [f.where for f in key_figures(told)] == ["ladder"]  # one figure per kind of figure
    # the row that shows the headline, else the answer's own `where`
    close = share("close@careless", 0.5)
    rowed = Answer(
        "close",
        "Close?",
        sentence("Close in ", close, "."),
        headline=close,
        rows=[Row("steady", share("close@steady", 0.3)), Row("careless", close)],
    )
    assert [f.where for f in key_figures(rowed)] == ["careless"]
    rowed.where = "every level"
    assert [f.where for f in key_figures(rowed)] == ["every level"]
    # a figure that is not the headline: where it was measured before where the answer holds
    told.where = "casual, club"
    assert [f.where for f in key_figures(told)] == ["ladder"]
    told.parts = sentence("Seat 1 wins ", a, ".")
    assert [f.where for f in key_figures(told)] == ["casual, club"]
    # a label in the next clause names something else ("...; the upgrade's price ...")
    told.parts = sentence("The missile's price ", a, "; ", Label("the upgrade's price"), " ", b)
    assert [f.where for f in key_figures(told)] == ["casual, club"]
    # never the old placeholder
    assert "first of" not in " ".join(f.where for f in key_figures(told))


def test_two_runs_of_one_experiment_are_named_by_their_folders(tmp_path, monkeypatch):
    a = F.what_if(tmp_path / "baseline", games=200)
    b = F.what_if(tmp_path / "step2", games=200)
    monkeypatch.chdir(tmp_path)  # the default page folder is reports/ under the working folder
    page = build_comparison(dir_a=a, dir_b=b, n_boot=50)
    assert page.parent.name == "compare-baseline-vs-step2"
    assert "Comparison: baseline (A) and step2 (B)" in page.read_text()


def test_a_rows_interval_written_by_its_key_is_what_the_tables_read():
    """A number with its interval is written into a row and read back under the same names
    (sim/stats/interval_columns.py): the table's interval columns and `interval_in` find the
    ends `as_columns` and `prefixed` wrote."""
    rate, change = Value(0.5, 0.4, 0.6, 0.05, 100), Value(-0.02, -0.05, 0.01, 0.015, 100)
    row = {**prefixed(rate, "rate"), **diff_cols(change, "change")}
    assert list(row) == [
        "rate", "rate_low", "rate_high", "rate_se", "rate_n",
        "change", "change_low", "change_high", "change_p", "change_sig", "change_n",
    ]  # fmt: skip
    assert interval_in(row, "change") == (-0.02, -0.05, 0.01)
    assert as_columns("rate", rate) == {k: row[k] for k in interval_keys("rate")}
    columns = [Column.pct_ci("rate", "rate"), Column.diff("change", "change", unit="pp")]
    table = Table.of_rows("t", "One row", [row], columns)
    rate_cell, change_cell = table.cells()[0]
    assert rate_cell.text == fmt.pct_ci(0.5, 0.4, 0.6)
    assert change_cell.text == fmt.pp_ci(-0.02, -0.05, 0.01) + " n.s." and change_cell.css == "ns"
