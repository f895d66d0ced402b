"""The Space Invaders report, from a tiny `sim run` (40 games an arm): its sections written,
every section's answer stated as a sentence (every figure in it an estimate with its interval,
a setting's name or a count), its pictures before its tables, a warning when the data are
thin; built from the stored games without the engine, the strategies or numba."""

import math
import re

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.games.space_invaders.report import answers
from tests.answer_checks import numbers_without_interval
from tests.modules import loaded_after
from tests.report_fixtures import answers as page_answers

EXPERIMENT = """\
name: tiny
game: space-invaders
games: 40
seed: 3
report: [invaders_difficulty]
arms:
  - {name: a, players: 2, seats: [naive], rules: {setup.level: training}}
  - {name: b, players: 2, seats: [naive], rules: {setup.level: standard}}
  - {name: c, players: 2, seats: [naive], rules: {setup.level: standard, powers.plain: pierce}}
  - {name: d, players: 2, seats: [naive], rules: {setup.level: standard, catalog.file: fast}}
"""

SECTIONS = {
    "invaders_difficulty": "Space Invaders: how hard is each printed level?",
    "overview": "Overview",
}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    base = tmp_path_factory.mktemp("invaders_report")
    path = base / "tiny.yaml"
    path.write_text(EXPERIMENT)
    result = CliRunner().invoke(app, ["run", str(path), "--out", str(base / "results"), "-j", "1",
                                      "--report-dir", str(base / "report")])  # fmt: skip
    assert result.exit_code == 0, result.output
    return base / "report"


def test_sim_run_writes_the_sections(report):
    text = (report / "report.md").read_text()
    assert "The printed chart's implied win rates" in text
    assert "Is each printed level harder than the one below?" in text
    assert "win-rate uplift against a plain token" in text
    assert "Sensitivity to the assumed card catalog" in text
    for table in ("invaders_outcomes", "invaders_power_uplift",
                  "overview_outcomes", "overview_strategies"):  # fmt: skip
        assert (report / "tables" / f"{table}.csv").is_file()
    assert text.startswith("# Space Invaders difficulty report: tiny")
    page = (report / "index.html").read_text()
    for word in ("Guardians", "raid", "missile", "fighter", "mine", "upgrade", "turn cap"):
        assert not re.search(rf"\b{word}\b", text + page, re.IGNORECASE), word


def test_the_report_never_imports_the_engine(report, tmp_path):
    """The report reads the game's plug-in object, its report sections and its ladder (plain
    data), never its engine, its strategies, numba or another game."""
    loaded = loaded_after(
        "from sim.report import build_report\n"
        f"build_report(results_dir={str(report.parent / 'results')!r}, "
        f"report_dir={str(tmp_path / 'again')!r}, n_boot=20)\n"
    )
    heavy = ("numba", "sim.jit", "sim.compiling", "sim.runner", "sim.random_streams",
             "sim.games.guardians", "sim.games.alien_raid")  # fmt: skip
    engine = ("engine", "kernel", "chunks", "rounds", "board", "advance", "resolve",
              "dexterity", "watch", "scenario", "params")  # fmt: skip
    own = [m.rsplit(".", 1)[1] for m in loaded if m.startswith("sim.games.space_invaders.")]
    assert [m for m in loaded if m.startswith(heavy)] == []
    assert [m for m in own if m in engine] == []
    assert [m for m in loaded if m.startswith("strategies.") and m.count(".") > 1] == [
        "strategies.space_invaders.ladder"
    ]


def test_every_section_answers_in_a_sentence_with_intervals(report):
    found = page_answers(report)
    for section in SECTIONS:
        assert any(key.startswith(f"{section}.") for key in found), section
    expected = ["win", "steps", "powers", "sensitivity"]
    assert [k for k in expected if f"invaders_difficulty.{k}" not in found] == []
    page = (report / "index.html").read_text()
    block = page.split('<section id="answers">', 1)[1].split("</section>", 1)[0]
    for html in block.split('<p class="answer ')[1:]:
        assert numbers_without_interval(html.split("</p>", 1)[0]) == []


def test_pictures_come_first_in_every_section(report):
    text = (report / "report.md").read_text()
    for title in SECTIONS.values():
        body = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
        assert "![" in body and body.index("![") < body.index("[CSV](tables/"), title


def test_thin_data_are_warned_about(report):
    _, text, quality = page_answers(report)["invaders_difficulty.win"]
    assert "The table of 2 players" in text
    assert "the data are thin" in quality and "40 games at the fewest" in quality


def test_a_wide_interval_warns_and_a_narrow_one_does_not():
    narrow = [{"games": 2000, "victory_low": 0.48, "victory_high": 0.52}]
    wide = [*narrow, {"games": 300, "victory_low": 0.42, "victory_high": 0.56}]
    assert answers.thin_warning(narrow, "victory", "win rates") is None
    warning = answers.thin_warning(wide, "victory", "win rates")
    assert "\u00b17.0 pp" in warning and "300 games at the fewest" in warning
    unknown = [{"games": 5, "victory_low": math.nan, "victory_high": math.nan}]
    assert answers.thin_warning(unknown, "victory", "win rates") is None


def test_the_uplift_table_counts_the_games_a_power_was_in_play(report):
    table = pl.read_csv(report / "tables" / "invaders_power_uplift.csv")
    assert table.height > 0
    assert (table["in_play"] <= table["dealt"]).all() and (table["in_play"] >= 0).all()


def test_a_power_seldom_in_play_is_warned_about():
    usable = {"power": "pierce", "dealt": 400, "in_play": 310}
    never = {"power": "heal", "dealt": 400, "in_play": 0}
    seldom = {"power": "ufo_three_tries", "dealt": 400, "in_play": 12}
    assert answers._rarely_in_play([usable]) is None
    warning = answers._rarely_in_play([usable, never, seldom])
    assert warning.startswith("2 of the 3 powers and tables tried (heal, ufo_three_tries)")
    assert "(1 never" in warning and "pierce" not in warning
