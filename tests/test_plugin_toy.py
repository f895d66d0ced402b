"""A game from outside this project plugs in through its entry point alone: the toy coin race
(examples/coin_race, the walk-through of docs/adding-a-game.md) is installed as a package would
be, then run, reported, watched and checked with the ordinary commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "examples" / "coin_race"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    """An environment in which coin-race is installed: its package on the path and its
    distribution's metadata declaring the entry point (what `pip install` writes)."""
    site = tmp_path_factory.mktemp("site")
    info = site / "coin_race-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: coin-race\nVersion: 0.1.0\n")
    line = next(line for line in (TOY / "pyproject.toml").read_text().splitlines()
                if line.startswith("coin-race ="))  # fmt: skip
    target = line.split("=", 1)[1].strip().strip('"')
    (info / "entry_points.txt").write_text(f"[sim.games]\ncoin-race = {target}\n")
    path = os.pathsep.join([str(site), str(TOY), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path)


def _sim(env: dict[str, str], *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)  # fmt: skip


def test_an_installed_game_runs_an_experiment_and_its_report(installed, tmp_path):
    out, report = tmp_path / "results", tmp_path / "report"
    done = _sim(installed, "run", str(TOY / "experiment.yaml"), "--games", "400", "--jobs",
                "1", "--out", str(out), "--report-dir", str(report))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "played 400 games" in done.stdout
    page = (report / "index.html").read_text()
    assert "Coin race balance report" in page and "Win share by strategy" in page
    import polars as pl

    seats = pl.read_parquet(out / "seats").filter(pl.col("win_share") > 0)
    assert set(seats.get_column("strategy")) == {"steady", "bold"}
    assert "dashes" in seats.columns  # the game's own per-seat column is stored


def test_an_installed_game_is_watched_and_its_scenarios_checked(installed):
    played = _sim(installed, "play", "--game", "coin-race", "--strategies", "steady,bold",
                  "--seed", "3")  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "players: seat 1=steady, seat 2=bold" in played.stdout
    assert ("winner: seat" in played.stdout) or ("nobody finished" in played.stdout)
    checked = _sim(installed, "scenario", "check", str(TOY / "scenarios" / "dash_wins.yaml"))
    assert checked.returncode == 0 and "1 passed, 0 failed" in checked.stdout


def test_an_unknown_game_names_the_installed_ones(installed):
    done = _sim(installed, "play", "--game", "coin-rase")
    assert done.returncode == 2 and "Did you mean 'coin-race'?" in done.stderr
