"""Watching a game: the text shows every turn and the winner, the page steps through them,
and `sim play --game-plugin alien-raid` prints it."""

import numpy as np
from typer.testing import CliRunner

from sim.cli import app
from sim.games import get_game
from sim.games.base import StrategySpec

GAME = get_game("alien-raid")


def test_watch_text_and_page():
    lineup = [StrategySpec("planner"), StrategySpec("naive"), StrategySpec("value")]
    watched = GAME.watch(GAME.load_ruleset("alien-raid"), lineup, seed=3)
    assert [f.title for f in watched.frames][:3] == ["setup", "turn 1", "turn 2"]
    assert len(watched.frames) == 12  # setup, ten turns, the end
    assert "winner" in watched.text and "turn 10" in watched.text
    assert "rolls" in watched.text or "raids" in watched.text
    page = watched.html("a game")
    assert page.startswith("<!doctype html>") and '"title": "turn 5"' in page
    again = GAME.watch(GAME.load_ruleset("alien-raid"), lineup, seed=3)
    assert again.text == watched.text
    # the game watched is the game of that seed in a run
    chunk = GAME.play_chunk(GAME.load_ruleset("alien-raid"), 3, lineup, np.array([[0, 1, 2]]),
                            np.array([3]))  # fmt: skip
    assert [c["humans"] for c in watched.frames[-1].captains] == list(chunk.seats["score"])


def test_sim_play_for_the_plugin(tmp_path):
    page = tmp_path / "game.html"
    args = ["play", "--game-plugin", "alien-raid", "--strategies", "value,naive", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert "turn 1" in result.output and page.is_file()
    bad = CliRunner().invoke(app, ["play", "--game-plugin", "alien-raid", "--strategies", "vlaue"])
    assert bad.exit_code == 2 and "Did you mean 'value'" in bad.output
