"""Pig, a game from outside this project (examples/pig), installed as pip would install it and
driven through its `sim.games` entry point alone by every command the built-in games use:
`sim run` of its first-player experiment and the report, the quality report, `sim tune` of the
head start, `sim play` (text and page), `sim scenario check`, `sim tournament`,
`sim bench --game pig` and `sim rules`.

The lab's own test session never registers pig: the entry point exists only in the
environment these subprocesses get (as tests/test_plugin_toy.py does for the coin race)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.examples.installing import PACKAGES, installed_env, sim
from tests.report_fixtures import answer_rows, answers

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    return installed_env(tmp_path_factory.mktemp("site"), PIG)


@pytest.mark.parametrize("package", PACKAGES.values(), ids=PACKAGES.keys())
def test_the_example_requires_the_lab_by_its_published_name(package):
    """pip resolves an example's dependency by the lab's distribution name: the wrong name
    makes `pip install -e examples/<game>` fail, which the installed environments of these
    tests (metadata written, not resolved) would never notice."""
    import tomllib

    lab = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]
    needs = tomllib.loads((package / "pyproject.toml").read_text())["project"]["dependencies"]
    assert lab in needs, (package, needs)


def test_the_first_player_experiment_runs_and_reports(installed, tmp_path):
    out, report = tmp_path / "results", tmp_path / "report"
    done = sim(installed, "run", str(PIG / "experiments" / "first_player.yaml"),
               "--games", "20000", "--set", "precision.width=0.05", "--jobs", "1",
               "--out", str(out), "--report-dir", str(report))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "played 40,000 games" in done.stdout
    assert "optimal: win_share.seat.0 = 0.5" in done.stdout
    assert "hold20: win_share.seat.0 = 0.5" in done.stdout
    page = (report / "index.html").read_text()
    assert "Pig balance report" in page and "Win share by seat" in page
    import polars as pl

    games = pl.read_parquet(out / "games")
    assert {"outcome", "turns", "rolls", "lead_changes"} <= set(games.columns)
    assert set(games.get_column("outcome")) == {"win"}
    seats = pl.read_parquet(out / "seats")
    assert set(seats.get_column("strategy")) == {"optimal", "hold(at=20)"}
    assert "busts" in seats.columns  # the game's own per-seat column is stored


def test_the_quality_report_answers_the_five_questions(installed, tmp_path):
    """Skill depth shows (optimal finishes ahead of careless), and luck is large: the weakest
    still beats the strongest in more than one meeting in ten, and players two or more levels
    below the best at the table win more than a tenth of the games."""
    import csv
    import re

    report = tmp_path / "report"
    done = sim(installed, "run", str(PIG / "experiments" / "quality.yaml"), "--games", "3000",
               "--jobs", "1", "--out", str(tmp_path / "results"),
               "--report-dir", str(report))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    found = answers(report)
    questions = ("skill", "luck", "close", "lead", "flow")
    assert {f"quality.{q}" for q in questions} <= set(found), sorted(found)
    assert found["quality.skill"][0] == "finding"
    with (report / "tables" / "quality_ladder.csv").open() as f:
        # the table holds the head-to-head steps (`ahead`) and the ladder in points (`points`)
        steps = {(r["upper"], r["lower"]): r for r in csv.DictReader(f) if r["ahead"]}
    top = steps["optimal", "careless"]
    assert float(top["ahead_low"]) > 0.5 and float(top["ahead_high"]) < 0.9, top
    rows = {r[0]: r for r in answer_rows(report)["quality.luck"]}
    upsets = re.fullmatch(r"\(([\d.]+) to ([\d.]+)\)",
                          rows["won by a player two levels below the best"][2])  # fmt: skip
    assert upsets and float(upsets[1]) > 10, rows
    _, flow, _ = found["quality.flow"]
    assert flow.startswith("Median turns per game: ") and "offer no real choice" in flow, flow
    measures = {r[1] for r in answer_rows(report)["quality.flow"]}  # level, measure, ...
    assert any("rolls" in m for m in measures), measures


def test_the_tune_finds_the_exact_fair_head_start(installed, tmp_path):
    """At careless, the tune recommends the head start the exact computation makes fairest (3:
    50.21%), and where the win share crosses 50% (read between the confirmed head starts)
    holds the exact crossing (between 3 and 4) within its interval."""
    from pig.exact import first_player_rate
    from pig.ruleset import load_ruleset

    out = tmp_path / "tune"
    done = sim(installed, "tune", str(PIG / "experiments" / "tune_head_start.yaml"),
               "--set", "skills=[careless]", "--set", "search.games=[1000, 4000]",
               "--games", "20000", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads((out / "tune.json").read_text())
    assert summary["recommended"]["rules"] == {"start.head_start": 3}
    (crossing,) = summary["crossings"]
    exact = [first_player_rate(load_ruleset("pig", {"start.head_start": h}), "careless",
                               "careless") for h in (3, 4)]  # fmt: skip
    fair = 3 + (exact[0] - 0.5) / (exact[0] - exact[1])  # the exact curve, linear between
    assert crossing["low"] <= fair <= crossing["high"], (crossing, fair)
    assert (out / "report" / "index.html").is_file()


def test_a_game_is_watched_and_the_scenarios_pass(installed, tmp_path):
    page = tmp_path / "game.html"
    played = sim(installed, "play", "--game", "pig", "--strategies", "careless,optimal",
                 "--seed", "3", "--html", str(page))  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "players: seat 1=careless, seat 2=optimal" in played.stdout
    assert "winner: seat" in played.stdout
    assert "turn 1: seat 1 (careless)" in page.read_text()
    scenarios = sorted(str(p) for p in (PIG / "scenarios").glob("*.yaml"))
    checked = sim(installed, "scenario", "check", *scenarios)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{len(scenarios)} passed, 0 failed" in checked.stdout


def test_a_tournament_ranks_the_ladder(installed, tmp_path):
    done = sim(installed, "tournament", "--game", "pig", "--players", "2",
               "--strategies", "careless,optimal", "--games", "2000",
               "--out", str(tmp_path / "t"), "--jobs", "1")  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    ranking = [line for line in done.stdout.splitlines() if "│ 1 │" in line or "│ 2 │" in line]
    assert "optimal" in ranking[0] and "careless" in ranking[1]


def test_bench_measures_the_python_and_the_compiled_loop(installed):
    # two of the six strategies: each row plays 6,000 games, in plain Python too
    done = sim(installed, "bench", "--game", "pig", "--quick", "--json",
               "--strategies", "hold,shrewd")  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rates"]
    names = ("hold", "shrewd")
    assert {r["strategy"] for r in rows} == {*names, *(f"{name} [python]" for name in names)}
    assert all(r["games_per_cpu_s"] > 0 and r["players"] == 2 for r in rows)


def test_rules_and_mistakes_are_told_plainly(installed):
    listed = sim(installed, "rules", "list", "--game", "pig")
    assert listed.returncode == 0 and "piglet" in listed.stdout
    wrong = sim(installed, "play", "--game", "pig", "--strategies", "optimall,steady")
    assert wrong.returncode == 2 and "Did you mean 'optimal'?" in wrong.stderr
    bad = sim(installed, "play", "--game", "pig", "--set", "die.bust=7")
    assert bad.returncode == 2 and "die.bust" in bad.stderr


def test_the_plug_in_object_is_light():
    """Importing the plug-in loads neither numba, the compiled loop nor the report framework:
    they come with the methods that need them."""
    from tests.modules import loaded_after

    loaded = loaded_after(f"import sys; sys.path.insert(0, {str(PIG)!r}); "
                          "from pig.plugin import GAME")  # fmt: skip
    heavy = ("numba", "polars", "pig.kernel", "pig.chunks", "pig.report", "pig.watch")
    assert "pig.plugin" in loaded
    assert [m for m in loaded if m.startswith(heavy)] == []
