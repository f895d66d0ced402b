"""Reports: built from synthetic results folders with planted effects (tests/report_fixtures.py),
each section must find what was planted and call a null effect a null; the numbers are
recomputed from the Parquet parts alone (no engine import), the page is self-contained, and
bad folders give one-line errors. One end-to-end test runs `sim run` + `sim report`."""

from __future__ import annotations

import csv
import json
import math
import re
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import SimError
from sim.measures import measure_table
from sim.report import build_report, choose_sections, load_results
from sim.stats.intervals import wilson
from tests import report_fixtures as F
from tests.modules import loaded_after

N_BOOT = 200


def _build(root: Path, out: Path) -> Path:
    return build_report(results_dir=root, report_dir=out, n_boot=N_BOOT)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """name -> (results folder, report folder) for the five experiments, synthetic."""
    base = tmp_path_factory.mktemp("reports")
    makers = {
        "first_player": lambda r: F.first_player(r, games=2000),
        "mine_value": lambda r: F.mine_value(r, games=2000),
        "missile": lambda r: F.pricing(r, "missile", games=2000),
        "upgrade": lambda r: F.pricing(r, "upgrade", games=1500),
        "power_up": lambda r: F.pricing(r, "power_up", games=1500),
        "difficulty": lambda r: F.difficulty(r, games=2000),
        "what_if": lambda r: F.what_if(r, games=2000),
    }
    out = {}
    for name, make in makers.items():
        root = make(base / name)
        out[name] = (root, _build(root, base / f"{name}_report").parent)
    return out


def _csv(report: Path, name: str) -> list[dict[str, str]]:
    with open(report / "tables" / f"{name}.csv", newline="") as f:
        return list(csv.DictReader(f))


def _findings(report: Path) -> list[tuple[str, str]]:
    """(kind, text) of every finding on the page (each comparison's, in the sections)."""
    page = (report / "index.html").read_text()
    return re.findall(r'<li class="(\w+)">(.*?)</li>', page)


# --- what every report has ------------------------------------------------------------------


def test_every_report_has_page_markdown_tables_and_figures(built):
    for name, (_, report) in built.items():
        page = (report / "index.html").read_text()
        assert page.startswith("<!DOCTYPE html>"), name
        assert (report / "report.md").read_text().startswith("# Guardians of Space"), name
        tables = sorted(p.stem for p in (report / "tables").glob("*.csv"))
        figures = sorted(p.stem for p in (report / "figures").glob("*.png"))
        assert "overview_outcomes" in tables, name
        assert len(figures) >= 2, name
        # every table and figure of the page is in report.md too
        md = (report / "report.md").read_text()
        for t in tables:
            assert f"tables/{t}.csv" in md and f'id="t-{t}"' in page
        for f in figures:
            assert f"figures/{f}.png" in md and f'id="f-{f}"' in page


def test_page_is_self_contained(built):
    for _, report in built.values():
        page = (report / "index.html").read_text()
        srcs = re.findall(r'\ssrc="([^"]*)"', page)
        assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)
        assert not re.search(r'(src|href)="(https?:)?//', page)
        assert "<link" not in page and "@import" not in page
        hrefs = re.findall(r'href="([^"#][^"]*)"', page)
        assert all(h.startswith("tables/") for h in hrefs), hrefs  # local CSV links only


def test_report_never_imports_the_engine(built, tmp_path):
    """The report reads the stored games (sim.results), the game's plug-in object and its
    report sections, never its engine, its strategies or numba."""
    root = built["what_if"][0]
    loaded = loaded_after(
        "from sim.report import build_report\n"
        "from sim.report.compare import build_comparison\n"
        f"build_report(results_dir={str(root)!r}, report_dir={str(tmp_path / 'r')!r}, n_boot=50)\n"
        f"build_comparison(dir_a={str(root)!r}, dir_b={str(root)!r}, "
        f"report_dir={str(tmp_path / 'c')!r}, n_boot=50)\n"
    )
    engine = ("numba", "sim.jit", "sim.compiling", "strategies", "sim.runner",
              "sim.games.guardians.engine", "sim.games.guardians.kernel",
              "sim.games.guardians.chunks")  # fmt: skip
    assert [m for m in loaded if m.startswith(engine)] == []


def test_copied_results_give_the_same_tables(built, tmp_path):
    root, report = built["missile"]
    copy = shutil.copytree(root, tmp_path / "elsewhere" / "copy")
    again = _build(copy, tmp_path / "again").parent
    for table in (report / "tables").glob("*.csv"):
        assert (again / "tables" / table.name).read_text() == table.read_text(), table.name


# --- numbers against an independent computation ----------------------------------------------


def test_outcome_rates_match_the_raw_parquet(built):
    root, report = built["what_if"]
    games = pl.read_parquet(list((root / "games").rglob("*.parquet")))
    rows = {r["arm"]: r for r in _csv(report, "overview_outcomes")}
    for (arm,), g in games.group_by("arm"):
        k, n = int((g["outcome"] == "raid").sum()), g.height
        low, high = wilson(k, n)
        assert float(rows[arm]["raid"]) == pytest.approx(k / n)
        assert float(rows[arm]["raid_low"]) == pytest.approx(low)
        assert float(rows[arm]["raid_high"]) == pytest.approx(high)
        assert float(rows[arm]["turns"]) == pytest.approx(g["turns"].mean())


def test_paired_difference_matches_scipy(built):
    """The registry's paired difference: the mean of the per-game differences, its normal
    interval and two-sided p (a z test on the differences)."""
    stats = pytest.importorskip("scipy.stats")
    root, report = built["what_if"]
    games = pl.read_parquet(list((root / "games").rglob("*.parquet")))
    a = games.filter(pl.col("arm") == "baseline").sort("game")["turns"].to_numpy()
    b = games.filter(pl.col("arm") == "steal-highest").sort("game")["turns"].to_numpy()
    d = (b - a).astype(float)
    se = d.std(ddof=1) / np.sqrt(d.size)
    row = next(
        r
        for r in _csv(report, "what_if")
        if r["arm"] == "steal-highest" and r["metric"] == "game length (turns)"
    )
    assert float(row["diff"]) == pytest.approx(d.mean())
    assert float(row["diff_low"]) == pytest.approx(d.mean() - stats.norm.ppf(0.975) * se)
    assert float(row["diff_high"]) == pytest.approx(d.mean() + stats.norm.ppf(0.975) * se)
    assert float(row["diff_p"]) == pytest.approx(2 * stats.norm.sf(abs(d.mean()) / se))


# --- the sections find what was planted --------------------------------------------------------


def test_first_player_finds_the_planted_seat_advantage_only(built):
    _, report = built["first_player"]
    found = [(k, t) for k, t in _findings(report) if "players," in t]
    assert len(found) == 6
    for kind, text in found:  # 2,000 games do not settle that fair seats are fair within 1 pp
        expected = "finding" if ", guardians:" in text else "unsettled"
        assert kind == expected, text
    rows = _csv(report, "first_player_seats")
    seat1 = [r for r in rows if r["group"] == "guardians" and r["seat"] == "1"]
    assert all(float(r["dev"]) > 0.05 and float(r["chi_p"]) < 0.001 for r in seat1)
    fair = [float(r["fair"]) for r in rows]
    assert {round(1 / f) for f in fair} == {2, 3, 4}
    assert sorted(p.name for p in (report / "figures").glob("first_player_*")) == [
        "first_player_2p.png",
        "first_player_3p.png",
        "first_player_4p.png",
        "first_player_advantage.png",
    ]
    answers = F.answers(report)
    for p in (2, 3, 4):  # one answer per player count and preset, planted only in guardians
        assert answers[f"first_player.{p}p.guardians"][0] == "finding"
        assert answers[f"first_player.{p}p.guardians-advanced"][0] == "unsettled"
        assert "The seat matters" in answers[f"first_player.{p}p.guardians"][1]


def test_mine_value_measures_the_mine_and_its_user(built):
    _, report = built["mine_value"]
    rows = _csv(report, "mine_differences")
    raid = next(
        r
        for r in rows
        if r["arm"].startswith("the mine as printed (mine) vs no mine")
        and r["metric"] == "invaders win (raid rate)"
    )
    assert float(raid["diff"]) == pytest.approx(-0.06, abs=0.02)  # planted 0.30 vs 0.36
    assert raid["diff_sig_holm"] == "true"
    gain = _csv(report, "mine_user_gain")
    assert gain and all(float(g["win"]) > 0.02 and g["win_sig"] == "true" for g in gain)
    assert {g["user"] for g in gain} == {"miner"}
    kind, text, quality = F.answers(report)["mine_value.worth"]
    assert kind == "finding"
    assert text.startswith("The mine is worth +") and "of win share (miner against" in text
    assert "invaders' wins change by −" in text  # planted: 0.30 with the mine, 0.36 without
    assert "games with a winner in either arm" in quality


@pytest.mark.parametrize("item", ["missile", "upgrade", "power_up"])
def test_pricing_finds_the_planted_break_even(built, item):
    _, report = built[item]
    be = _csv(report, f"{item}_break_even")
    assert len(be) == 1
    est, low, high = (float(be[0][k]) for k in ("estimate", "low", "high"))
    assert low <= est <= high
    assert 8.0 < est < 12.5  # planted at 10
    assert low < 10.0 < high
    rows = _csv(report, f"{item}_pricing")
    purchase = [float(r["purchase"]) for r in rows]
    assert purchase == sorted(purchase, reverse=True)  # planted: buys less as the price rises
    if item == "missile":
        assert all(0.5 < float(r["use"]) < 1.0 for r in rows)
        assert all(float(r["gross"]) > 0 for r in rows)


def test_pricing_uplift_is_the_registrys_measure(built):
    """The pricing table's uplift at each price is the number `uplift.<buyer>` gives the lab
    (one figure, one place: sim.measures)."""
    root, report = built["missile"]
    table = measure_table(root, ["uplift.economist"]).select("arm", "value")
    registry = dict(table.iter_rows())
    rows = _csv(report, "missile_pricing")
    assert len(rows) == len(registry) == 5
    for r in rows:
        assert float(r["uplift"]) == pytest.approx(registry[r["arm"]], rel=1e-9, abs=1e-12)


def test_difficulty_chart_and_recommended_setups(built):
    _, report = built["difficulty"]
    chart = _csv(report, "difficulty_raid")
    assert {r["skill"] for r in chart} == {"novice", "casual", "expert"}
    assert {"p2", "p3", "p4"} <= set(chart[0])
    rec = {(r["players"], r["skill"]): r for r in _csv(report, "difficulty_setup")}
    # planted: expert, 2 players: raid 0.14 / 0.26 / 0.38 for 3 / 4 / 5 start rows
    e2 = rec[("2", "expert")]
    assert (e2["Training"], e2["Standard"], e2["Expert"]) == (
        "board.start_rows 3",
        "board.start_rows 4",
        "board.start_rows 5",
    )
    # and the standard setup of the chart is the preset's own value (4 rows)
    assert "board.start_rows 4" in (report / "report.md").read_text()


def test_what_if_flags_the_real_change_and_calls_the_null_a_null(built):
    _, report = built["what_if"]
    findings = dict((t.split(" ", 1)[0], k) for k, t in _findings(report) if " vs baseline" in t)
    # mine-two-cells plays exactly the baseline's games: every change is 0 (0 to 0)
    assert findings == {"steal-highest": "finding", "mine-two-cells": "within"}
    rows = _csv(report, "what_if")
    null = [r for r in rows if r["arm"] == "mine-two-cells"]
    assert null and all(r["diff_sig_holm"] == "false" for r in null)
    raid = next(
        r for r in rows if r["arm"] == "steal-highest" and r["metric"].startswith("invaders")
    )
    assert float(raid["diff"]) == pytest.approx(0.06, abs=0.02) and raid["diff_sig_holm"] == "true"
    effects = [abs(float(r["effect"])) for r in rows if r["arm"] == "steal-highest"]
    assert effects == sorted(effects, reverse=True)
    page = (report / "index.html").read_text()
    assert page.count('class="ns"') >= len(null)  # not significant: shown greyed, marked n.s.


# --- choosing sections, odd folders ------------------------------------------------------------


def test_sections_follow_the_manifest_or_are_inferred(built, tmp_path):
    root = built["missile"][0]
    assert choose_sections(load_results(root)) == ["guardians_missile_pricing"]  # its old name
    copy = shutil.copytree(root, tmp_path / "noreport")
    m = json.loads((copy / "manifest.json").read_text())
    m["report"] = []
    (copy / "manifest.json").write_text(json.dumps(m))
    assert choose_sections(load_results(copy)) == ["guardians_missile_pricing"]  # missile.cost
    wi = shutil.copytree(built["what_if"][0], tmp_path / "wi")
    m = json.loads((wi / "manifest.json").read_text())
    m["report"] = []
    (wi / "manifest.json").write_text(json.dumps(m))
    assert choose_sections(load_results(wi)) == ["guardians_what_if"]  # a baseline, named arms


def test_illegal_games_are_left_out_and_said_so(built, tmp_path):
    copy = shutil.copytree(built["what_if"][0], tmp_path / "bad")
    part = sorted((copy / "games" / "arm-001").glob("*.parquet"))[0]
    g = pl.read_parquet(part)
    g = g.with_columns(pl.when(pl.col("game") < 10).then(21).otherwise(0).alias("error"))
    g.write_parquet(part)
    report = _build(copy, tmp_path / "bad_report").parent
    assert "10 game(s) stopped on an illegal move" in (report / "index.html").read_text()
    rows = {r["arm"]: r for r in _csv(report, "overview_outcomes")}
    assert rows["steal-highest"]["games"] == "1990"


def test_incomplete_run_is_flagged(built, tmp_path):
    copy = shutil.copytree(built["mine_value"][0], tmp_path / "partial")
    m = json.loads((copy / "manifest.json").read_text())
    m["status"] = "interrupted"
    (copy / "manifest.json").write_text(json.dumps(m))
    report = _build(copy, tmp_path / "partial_report").parent
    assert "The run is incomplete" in (report / "index.html").read_text()


def test_errors_name_the_folder_and_give_a_hint(tmp_path):
    with pytest.raises(SimError, match="results folder not found") as err:
        build_report(results_dir=tmp_path / "missing", report_dir=tmp_path / "r")
    assert err.value.hint
    (tmp_path / "empty").mkdir()
    with pytest.raises(SimError, match="no manifest.json"):
        build_report(results_dir=tmp_path / "empty", report_dir=tmp_path / "r")
    (tmp_path / "noparts").mkdir()
    (tmp_path / "noparts" / "manifest.json").write_text('{"name": "x", "arms": []}')
    with pytest.raises(SimError, match="no games stored") as err:
        build_report(results_dir=tmp_path / "noparts", report_dir=tmp_path / "r")
    assert "sim run" in str(err.value)
    result = CliRunner().invoke(app, ["report", str(tmp_path / "missing")])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and "Traceback" not in result.output


def test_cli_report_default_folder_is_beside_the_results(built, tmp_path, monkeypatch):
    """results/<name> (sim run's default) -> reports/<name>; any other folder -> its report/."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(built["what_if"][0], tmp_path / "results" / "what_if")
    result = CliRunner().invoke(app, ["report", "results/what_if"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "reports" / "what_if" / "index.html").is_file()
    assert "reports/what_if/index.html" in result.output
    elsewhere = shutil.copytree(built["what_if"][0], tmp_path / "data" / "wi")
    result = CliRunner().invoke(app, ["report", str(elsewhere)])
    assert result.exit_code == 0, result.output
    assert (elsewhere / "report" / "index.html").is_file()
    assert not (tmp_path / "reports" / "wi").exists()


def test_hive_style_folder_without_storage_names_is_read(tmp_path):
    """Hand-copied data in games/arm=<k>/ folders (not the runner's names) still loads."""
    root = F.what_if(tmp_path / "orig", games=300)
    hive = tmp_path / "hive"
    for table in ("games", "seats"):
        for i, arm_dir in enumerate(sorted((root / table).iterdir())):
            dest = hive / table / f"arm={i}"
            dest.mkdir(parents=True)
            for part in arm_dir.glob("*.parquet"):
                shutil.copy(part, dest / part.name)
    shutil.copy(root / "manifest.json", hive / "manifest.json")
    r = load_results(hive)
    assert r.games.height == 900 and set(r.games["arm"].unique()) == {
        "baseline",
        "steal-highest",
        "mine-two-cells",
    }


# --- end to end: sim run, then sim report --------------------------------------------------------

SMALL = """
name: tiny_first_player
ruleset: guardians
seats: greedy
rotate: false
games: 300
seed: 3
sweep:
  players: [2, 3]
report: [first_player]
"""


def test_sim_run_then_sim_report(tmp_path):
    exp = tmp_path / "tiny.yaml"
    exp.write_text(SMALL)
    runner = CliRunner()
    out, rep = tmp_path / "results", tmp_path / "rep"
    ran = runner.invoke(app, ["run", str(exp), "--jobs", "1", "--out", str(out), "--no-report"])
    assert ran.exit_code == 0, ran.output
    result = runner.invoke(app, ["report", str(out), "--out", str(rep)])
    assert result.exit_code == 0, result.output
    rows = _csv(rep, "first_player_seats_all")
    assert {r["players"] for r in rows} == {"2", "3"}
    assert sum(int(r["games"]) for r in rows if r["seat"] == "1") == 600
    for r in rows:
        assert 0 <= float(r["win_low"]) <= float(r["win"]) <= float(r["win_high"]) <= 1
        assert not math.isnan(float(r["fair"]))
