"""A preset names its game: found without --game in every command and experiment; a preset of
another game than the one named, an unknown preset (the nearest preset of any game
suggested) and a preset two games share are refused, naming the games."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sim import plugins
from sim.cli import app
from sim.errors import ConfigError
from sim.experiment import parse_experiment
from sim.plugins import game_for


def test_a_preset_names_its_game():
    assert game_for(None, "space-invaders-three-rows").name == "space-invaders"
    assert game_for(None, "alien-raid-other-readings").name == "alien-raid"
    assert game_for(None, None).name == plugins.DEFAULT_GAME
    assert game_for("alien-raid", None).name == "alien-raid"
    shown = CliRunner().invoke(app, ["rules", "show", "space-invaders", "--set",
                                     "setup.level=elite"])  # fmt: skip
    assert shown.exit_code == 0 and "level: elite" in shown.output
    exp = parse_experiment({"ruleset": "alien-raid", "seats": "naive", "games": 10})
    assert exp.game == "alien-raid" and exp.arms[0].players == 4


def test_a_preset_of_another_game_is_refused_naming_both():
    with pytest.raises(ConfigError, match="'space-invaders' is a preset of space-invaders, "
                       "not of guardians"):  # fmt: skip
        game_for("guardians", "space-invaders")
    with pytest.raises(ConfigError) as err:
        parse_experiment({"game": "alien-raid", "ruleset": "guardians", "seats": "naive"})
    assert "'guardians' is a preset of guardians, not of alien-raid" in str(err.value)
    assert "key 'ruleset'" in str(err.value)


def test_an_unknown_preset_suggests_the_nearest_of_any_game():
    result = CliRunner().invoke(app, ["rules", "show", "space-invader"])
    assert result.exit_code == 2
    assert "Did you mean 'space-invaders'? It is a preset of space-invaders." in result.output
    with pytest.raises(ConfigError, match="Did you mean 'alien-raid'"):
        game_for("guardians", "alien-raiid")


class _Clash:
    """A game with a preset of Guardians' name."""

    name, title, presets = "clash-game", "Clash", ("guardians",)


def test_a_preset_two_games_share_is_refused_naming_both():
    plugins.register(_Clash())
    try:
        with pytest.raises(ConfigError, match="two games have a preset named 'guardians': "
                           "clash-game, guardians"):  # fmt: skip
            game_for(None, "guardians")
        assert game_for("guardians", "guardians").name == "guardians"  # --game settles it
    finally:
        plugins._GAMES.pop("clash-game")
