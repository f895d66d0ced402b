"""Watching a game: the text shows every turn and the winner, the page steps through them, the
game watched is the game of that seed in a run, and `sim play --game alien-raid` prints it."""

import numpy as np
from typer.testing import CliRunner

from sim.cli import app
from sim.games.alien_raid.watch import watch
from sim.plugins import get_game
from sim.plugins.base import StrategySpec

GAME = get_game("alien-raid")
LINEUP = [StrategySpec("planner"), StrategySpec("naive"), StrategySpec("value")]


def test_watch_text_and_page():
    ruleset = GAME.load_ruleset("alien-raid")
    watched = watch(ruleset, GAME.ready(LINEUP), seed=3)
    assert [f.title for f in watched.frames][:3] == ["setup", "turn 1", "turn 2"]
    assert len(watched.frames) == 12  # setup, ten turns, the end
    assert "winner" in watched.text and "== turn 10 ==" in watched.text
    assert "rolls" in watched.text or "raids" in watched.text
    shown = GAME.watch(ruleset, LINEUP, 3)  # the plug-in's Watch: the same text and page
    assert shown.text == watched.text == GAME.watch(ruleset, LINEUP, 3).text
    page = shown.html("a game")
    assert page.startswith("<!doctype html>") and '"title": "turn 5"' in page
    # the game watched is the game of that seed in a run
    chunk = GAME.simulate_chunk(ruleset, 3, LINEUP, np.array([[0, 1, 2]]), np.array([3]))
    assert [c["humans"] for c in watched.frames[-1].captains] == list(chunk.seats["score"])


def test_sim_play(tmp_path):
    page = tmp_path / "game.html"
    args = ["play", "--game", "alien-raid", "--strategies", "value,naive", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert "== turn 1 ==" in result.output and "winner" in result.output
    assert page.read_text().startswith("<!doctype html>")
    bad = CliRunner().invoke(app, ["play", "--game", "alien-raid", "--strategies", "vlaue"])
    assert bad.exit_code == 2 and "Did you mean 'value'" in bad.output
