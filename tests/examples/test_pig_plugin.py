"""Pig, a game from outside this project (examples/pig), installed as pip would install it and
driven through its `sim.games` entry point alone by every command the built-in games use:
`sim run` of its first-player experiment and the report, `sim play` (text and page),
`sim scenario check`, `sim tournament`, `sim bench --game pig` and `sim rules`.

The lab's own test session never registers pig: the entry point exists only in the
environment these subprocesses get (as tests/test_plugin_toy.py does for the coin race)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    """An environment in which pig-dice is installed: its package on the path and its
    distribution's metadata declaring the entry point (what `pip install` writes)."""
    site = tmp_path_factory.mktemp("site")
    info = site / "pig_dice-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pig-dice\nVersion: 0.1.0\n")
    line = next(line for line in (PIG / "pyproject.toml").read_text().splitlines()
                if line.startswith("pig ="))  # fmt: skip
    target = line.split("=", 1)[1].strip().strip('"')
    (info / "entry_points.txt").write_text(f"[sim.games]\npig = {target}\n")
    path = os.pathsep.join([str(site), str(PIG), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path)


def _sim(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)  # fmt: skip


def test_the_first_player_experiment_runs_and_reports(installed, tmp_path):
    out, report = tmp_path / "results", tmp_path / "report"
    done = _sim(installed, "run", str(PIG / "experiments" / "first_player.yaml"),
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


def test_a_game_is_watched_and_the_scenarios_pass(installed, tmp_path):
    page = tmp_path / "game.html"
    played = _sim(installed, "play", "--game", "pig", "--strategies", "careless,optimal",
                  "--seed", "3", "--html", str(page))  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "players: seat 1=careless, seat 2=optimal" in played.stdout
    assert "winner: seat" in played.stdout
    assert "turn 1: seat 1 (careless)" in page.read_text()
    scenarios = sorted(str(p) for p in (PIG / "scenarios").glob("*.yaml"))
    checked = _sim(installed, "scenario", "check", *scenarios)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{len(scenarios)} passed, 0 failed" in checked.stdout


def test_a_tournament_ranks_the_ladder(installed, tmp_path):
    done = _sim(installed, "tournament", "--game", "pig", "--players", "2",
                "--strategies", "careless,optimal", "--games", "2000",
                "--out", str(tmp_path / "t"), "--jobs", "1")  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    ranking = [line for line in done.stdout.splitlines() if "│ 1 │" in line or "│ 2 │" in line]
    assert "optimal" in ranking[0] and "careless" in ranking[1]


def test_bench_measures_the_python_and_the_compiled_loop(installed):
    done = _sim(installed, "bench", "--game", "pig", "--quick", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rates"]
    assert {(r["strategy"], r["engine"]) for r in rows} == {
        (f"{name} [{engine}]", engine)
        for name in ("steady", "optimal")
        for engine in ("python", "compiled")
    }
    assert all(r["games_per_cpu_s"] > 0 and r["players"] == 2 for r in rows)


def test_rules_and_mistakes_are_told_plainly(installed):
    listed = _sim(installed, "rules", "list", "--game", "pig")
    assert listed.returncode == 0 and "piglet" in listed.stdout
    wrong = _sim(installed, "play", "--game", "pig", "--strategies", "optimall,steady")
    assert wrong.returncode == 2 and "Did you mean 'optimal'?" in wrong.stderr
    bad = _sim(installed, "play", "--game", "pig", "--set", "die.bust=7")
    assert bad.returncode == 2 and "die.bust" in bad.stderr


def test_the_plug_in_object_is_light():
    """Importing the plug-in loads neither numba, the compiled loop nor the report framework:
    they come with the methods that need them."""
    from tests.modules import loaded_after

    loaded = loaded_after(f"import sys; sys.path.insert(0, {str(PIG)!r}); "
                          "from pig.plugin import GAME")  # fmt: skip
    heavy = ("numba", "polars", "pig.kernel", "pig.play", "pig.report", "pig.watch")
    assert "pig.plugin" in loaded
    assert [m for m in loaded if m.startswith(heavy)] == []
