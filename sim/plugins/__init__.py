"""Games the toolkit can play, by name.

A game plug-in is found through the Python entry point group `sim.games` (name -> the plug-in
object, `package.module:OBJECT`), so a designer's own game in its own installed package plugs
in without touching this repository; this project's games are declared the same way in its
pyproject.toml. `register` adds one by hand (tests, notebooks). Two plug-ins may not share a
name, and a preset name belongs to one game: a command finds the game from a preset alone
(`game_for`).
"""

from __future__ import annotations

import os
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING

from sim.config.words import did_you_mean, nearest
from sim.errors import ConfigError

if TYPE_CHECKING:
    from sim.plugins.base import Game

GROUP = "sim.games"
# what a command plays, and a scenario file is of, when neither --game (or `game:`) nor a
# preset names a game: the one place the lab names a default game
DEFAULT_GAME = "guardians"
_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game plug-in; a second plug-in with the same name is refused."""
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        if point.name in found and found[point.name].value != point.value:
            raise ConfigError(
                f"two installed packages declare the game {point.name!r}: "
                f"{found[point.name].value} and {point.value}",
                key="game",
                hint="Uninstall one of them (pip uninstall).",
            )
        found[point.name] = point
    return found


def game_names() -> list[str]:
    """Every game that can be played: installed plug-ins and registered ones."""
    return sorted(set(_GAMES) | set(_entry_points()))


def get_game(name: str, *, source: str | None = None) -> Game:
    """The plug-in called `name` (an installed one is imported on first use)."""
    if name not in _GAMES:
        point = _entry_points().get(name)
        if point is not None:
            try:
                game = point.load()
            except Exception as err:  # a broken plug-in: say which, not a traceback
                raise ConfigError(
                    f"cannot load the game plug-in {point.value} ({type(err).__name__}: {err})",
                    file=source,
                    key="game",
                    hint="Check that its package is installed and imports cleanly.",
                ) from None
            if game.name != name:
                raise ConfigError(
                    f"the plug-in {point.value} calls itself {game.name!r}, not {name!r}",
                    key="game",
                    hint="Make the entry point's name and the plug-in's `name` agree.",
                )
            register(game)
    if name not in _GAMES:
        known = game_names()
        hint = did_you_mean(name, known, otherwise=f"Known games: {', '.join(known)}.")
        raise ConfigError(f"unknown game {name!r}", file=source, key="game", hint=hint)
    return _GAMES[name]


def is_ruleset_file(ref: str) -> bool:
    """Whether a ruleset reference is a file (a .yaml name, a path, an existing file), not a
    preset name."""
    return ref.endswith((".yaml", ".yml")) or "/" in ref or os.sep in ref or Path(ref).is_file()


def preset_owners(preset: str) -> list[str]:
    """The installed games that have a preset of this name (one, if the names are unique)."""
    return [name for name in game_names() if preset in get_game(name).presets]


def game_for(game: str | None, ruleset: str | None, *, key: str | None = "--ruleset",
             source: str | None = None) -> Game:  # fmt: skip
    """The game a command plays: the one `game` names (--game), else the one whose preset
    `ruleset` is (preset names are unique across the installed games), else DEFAULT_GAME. A
    preset of another game than `game`, an unknown preset (the nearest preset of any game
    suggested) and a preset two games share are refused, naming the games."""
    if ruleset is None or is_ruleset_file(ruleset):
        return get_game(game or DEFAULT_GAME, source=source)
    owners = preset_owners(ruleset)
    if game is not None:
        plugin = get_game(game, source=source)
        if ruleset in plugin.presets:
            return plugin
        if owners:
            raise ConfigError(
                f"'{ruleset}' is a preset of {' and '.join(owners)}, not of {game}",
                file=source,
                key=key,
                hint=f"Name its game ({owners[0]}) or leave the game out.",
            )
    if len(owners) > 1:
        raise ConfigError(f"two games have a preset named '{ruleset}': {', '.join(owners)}",
                          file=source, key=key, hint="Name the game with --game.")  # fmt: skip
    if owners:
        return get_game(owners[0], source=source)
    raise unknown_preset(ruleset, key=key, source=source)


def unknown_preset(name: str, *, key: str | None, source: str | None = None) -> ConfigError:
    """The error for a preset no installed game has, with the nearest preset of any game."""
    owner = {preset: game for game in game_names() for preset in get_game(game).presets}
    close = nearest(name, list(owner))
    hint = (f"Did you mean '{close}'? It is a preset of {owner[close]}." if close
            else "`sim rules list --game GAME` lists a game's presets.")  # fmt: skip
    return ConfigError(f"unknown preset '{name}'", file=source, key=key,
                       hint=f"{hint} Or give a path to a ruleset .yaml file.")  # fmt: skip
