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


def test_a_stored_game_replays_exactly(tmp_path):
    import polars as pl

    from sim.results import load

    out = tmp_path / "results"
    runner = CliRunner()
    ran = runner.invoke(app, ["run", "experiments/what_if.yaml", "--games", "30", "--out",
                              str(out), "--no-report", "--set", "seats=[greedy,random,greedy]",
                              "--set", "players=3", "--set", "skills=[]"])  # fmt: skip
    assert ran.exit_code == 0, ran.output
    stored = load(out).filter(pl.col("game").is_in([3, 29])).collect()
    for row in stored.iter_rows(named=True):
        shown = runner.invoke(app, ["play", "--from-results", str(out), "--game",
                                    str(row["game"]), "--arm", row["arm"]])  # fmt: skip
        assert shown.exit_code == 0, shown.output
        assert f"outcome: {row['outcome']} after {row['turns']} turns" in shown.output
