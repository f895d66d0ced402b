"""A game from outside this project plugs in through its entry point alone: the toy coin race
(examples/coin_race, the walk-through of docs/adding-a-game.md) is installed as a package would
be, then run, reported, watched and checked with the ordinary commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.examples.installing import installed_env, sim

pytestmark = pytest.mark.without_engines  # runs while the engines compile

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "examples" / "coin_race"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    """An environment in which coin-race is installed, as pip would install it."""
    return installed_env(tmp_path_factory.mktemp("site"), TOY)


def test_an_installed_game_runs_an_experiment_and_its_report(installed, tmp_path):
    out, report = tmp_path / "results", tmp_path / "report"
    done = sim(installed, "run", str(TOY / "experiment.yaml"), "--games", "400", "--jobs",
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
    played = sim(installed, "play", "--game", "coin-race", "--strategies", "steady,bold",
                 "--seed", "3")  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "players: seat 1=steady, seat 2=bold" in played.stdout
    assert ("winner: seat" in played.stdout) or ("nobody finished" in played.stdout)
    checked = sim(installed, "scenario", "check", str(TOY / "scenarios" / "dash_wins.yaml"))
    assert checked.returncode == 0 and "1 passed, 0 failed" in checked.stdout


def test_an_unknown_game_names_the_installed_ones(installed):
    done = sim(installed, "play", "--game", "coin-rase")
    assert done.returncode == 2 and "Did you mean 'coin-race'?" in done.stderr
