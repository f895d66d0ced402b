"""Hostile or mistaken input gets one clear error line (issue 13): YAML bombs, `sim play`
options checked before the game is printed, tournaments of one strategy, and the wording of
errors that named the wrong thing."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.errors import ConfigError
from sim.experiment import load_experiment
from sim.runner import run
from tests.cli_checks import invoke, one_error_line

SMALL = "name: small\nplayers: 2\nseats: [greedy, random]\ngames: 60\nseed: 2\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    """A results folder of two arms, 60 games each."""
    folder = tmp_path_factory.mktemp("stored")
    exp = write(folder, "two.yaml", SMALL + "sweep: {mine.step: [1, 2]}\n")
    run(load_experiment(exp), out=folder / "r", jobs=1, progress=False)
    return folder / "r"


# --- YAML bombs ----------------------------------------------------------------------------


def _laughs() -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    return "name: bomb\nseats: greedy\nrules:\n" + "".join(f"  {line}\n" for line in lines)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (_laughs(), 9, "expands to more than 100,000 values"),
        ("name: loop\nseats: greedy\nsweep: &a {missile.cost: [*a]}\n", 3, "inside its own"),
        ("name: deep\nseats: greedy\nrules: " + "[" * 5000 + "]" * 5000 + "\n", 3, "50 levels"),
    ],
    ids=["billion-laughs", "self-alias", "deep-nesting"],
)
def test_yaml_bombs_are_refused(tmp_path, text, line, words):
    exp = write(tmp_path, "bomb.yaml", text)
    message = one_error_line(invoke("run", str(exp), "--out", str(tmp_path / "r")))
    assert f"bomb.yaml:{line}: invalid YAML" in message and words in message
    assert not (tmp_path / "r").exists()


def test_a_huge_yaml_file_is_refused_before_it_is_parsed(tmp_path):
    exp = write(tmp_path, "big.yaml", "name: big\n# " + "x" * 2_000_000 + "\n")
    message = one_error_line(invoke("run", str(exp)))
    assert "big.yaml" in message and "at most 1,000,000 are read" in message


def test_a_set_value_is_bounded_too(tmp_path):
    exp = write(tmp_path, "e.yaml", SMALL)
    bomb = "[" * 200 + "]" * 200
    message = one_error_line(invoke("run", str(exp), "--set", f"missile.cost={bomb}"))
    assert "--set" in message and "50 levels" in message


# --- sim play ------------------------------------------------------------------------------


def test_play_refuses_a_negative_seed():
    message = one_error_line(invoke("play", "--seed", "-1"))
    assert "'--seed'" in message and "0..2**64-1" in message


def test_play_checks_the_html_path_before_playing(tmp_path):
    result = invoke("play", "--seed", "3", "--html", str(tmp_path / "missing" / "game.html"))
    message = one_error_line(result)
    assert "'--html'" in message and "does not exist" in message and "missing" in message
    assert "turn 1" not in result.output and "seed 3" not in result.output  # nothing played
    afile = write(tmp_path, "afile", "x")
    message = one_error_line(invoke("play", "--html", str(afile / "game.html")))
    assert "is a file, not a folder" in message


def test_play_from_results_checks_the_game_and_the_arm(stored):
    message = one_error_line(invoke("play", "--from-results", str(stored), "--index", "999999"))
    assert "'--index'" in message and "game 999999 of arm 'mine.step=1' is not stored" in message
    assert "0-59" in message
    message = one_error_line(
        invoke("play", "--from-results", str(stored), "--index", "1", "--arm", "7")
    )
    assert "'--arm'" in message and "no arm 7" in message and "1 'mine.step=2'" in message
    ok = invoke("play", "--from-results", str(stored), "--index", "59", "--arm", "1")
    assert ok.exit_code == 0, ok.output


# --- tournaments -----------------------------------------------------------------------------


def test_a_tournament_of_one_strategy_is_refused(tmp_path):
    message = one_error_line(
        invoke("tournament", "--strategies", "greedy", "--out", str(tmp_path / "t"))
    )
    assert "'--strategies'" in message and "at least two different strategies" in message
    message = one_error_line(invoke("tournament", "--strategies", "greedy,greedy"))
    assert "only 'greedy'" in message


@pytest.mark.parametrize(
    ("args", "flag", "words"),
    [
        (["--players", "7"], "'--players'", "got 7"),
        (["--games", "0"], "'--games'", "got 0"),
        (["--ruleset", "guardianz"], "'--ruleset'", "Did you mean 'guardians'"),
        (["--strategies", "greedy,randon"], "'--strategies'", "Did you mean 'random'"),
    ],
)
def test_tournament_errors_name_the_option(args, flag, words):
    base = {"--strategies": "greedy,random"}
    for key, value in zip(args[::2], args[1::2], strict=True):
        base[key] = value
    message = one_error_line(invoke("tournament", *[x for kv in base.items() for x in kv]))
    assert flag in message and words in message
    if flag != "'--strategies'":
        assert "--strategies" not in message


# --- wording ------------------------------------------------------------------------------


def test_an_empty_sweep_says_it_is_empty(tmp_path):
    message = one_error_line(invoke("run", str(write(tmp_path, "e.yaml", SMALL + "sweep: {}\n"))))
    assert "got an empty mapping" in message and "got a mapping" not in message


def test_an_empty_sweep_list_asks_for_values(tmp_path):
    exp = write(tmp_path, "e.yaml", SMALL + "sweep: {missile.cost: []}\n")
    message = one_error_line(invoke("run", str(exp)))
    assert "[[]" not in message and "List at least one value" in message


def test_a_typo_of_games_suggests_games(tmp_path):
    message = one_error_line(invoke("run", str(write(tmp_path, "e.yaml", SMALL + "gamez: 5\n"))))
    assert "Did you mean 'games'?" in message


def test_a_bad_report_dir_names_report_dir(tmp_path):
    exp = write(tmp_path, "e.yaml", SMALL)
    afile = write(tmp_path, "taken", "x")
    result = invoke("run", str(exp), "--out", str(tmp_path / "r"), "--report-dir", str(afile))
    message = one_error_line(result)
    assert "'--report-dir'" in message and "--out" not in message
    assert not (tmp_path / "r").exists()  # refused before any game was played


def test_a_missing_ruleset_file_is_looked_for_beside_the_experiment(tmp_path, monkeypatch):
    folder = tmp_path / "experiments"
    folder.mkdir()
    exp = write(folder, "e.yaml", SMALL + "ruleset: rules/mine.yaml\n")
    monkeypatch.chdir(tmp_path)
    message = one_error_line(invoke("run", str(exp)))
    assert f"{folder / 'rules' / 'mine.yaml'}" in message
    assert f"start from its folder, {folder}" in message
    assert "current" not in message and f"start from {tmp_path}" not in message


def test_known_strategies_are_listed_once():
    from sim.plugins import get_game
    from sim.plugins.base import StrategySpec

    with pytest.raises(ConfigError) as err:
        get_game("guardians").check_strategy(StrategySpec("qqqqq"), source="x.yaml")
    assert str(err.value).count("expert") == 1


def test_scenario_check_of_an_unknown_preset_names_the_file(tmp_path):
    scenario = write(tmp_path, "s.yaml", "ruleset: nopreset\nboard: |\n  . .\n")
    message = one_error_line(invoke("scenario", "check", str(scenario)))
    assert f"{scenario}: key 'ruleset': unknown preset 'nopreset'" in message
