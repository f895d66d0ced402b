"""`sim play`: one game turn by turn, the same for the same seed, and as a page."""

from typer.testing import CliRunner

from sim.cli import app

ARGS = ["play", "--ruleset", "guardians-advanced", "--strategies", "greedy,random,greedy"]


def test_same_seed_prints_the_same_game(tmp_path):
    runner = CliRunner()
    first = runner.invoke(app, [*ARGS, "--seed", "7"])
    again = runner.invoke(app, [*ARGS, "--seed", "7"])
    other = runner.invoke(app, [*ARGS, "--seed", "8"])
    assert first.exit_code == 0, first.output
    assert first.output == again.output != other.output
    assert "turn 1  A: " in first.output
    assert "outcome: " in first.output and "winners: " in first.output
    assert " 10 | " in first.output  # the board is drawn with row numbers


def test_html_page_holds_every_turn(tmp_path):
    out = tmp_path / "game.html"
    result = CliRunner().invoke(app, [*ARGS, "--seed", "3", "--html", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    turns = result.output.count("\nturn ")
    assert text.count('"turn": ') == turns
    assert "<script>" in text and "http" not in text  # self-contained


def test_bad_strategy_is_a_clear_error():
    result = CliRunner().invoke(app, ["play", "--strategies", "greedy,gredy"])
    assert result.exit_code == 2
    assert "Did you mean 'greedy'" in result.output
