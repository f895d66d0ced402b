"""Games the toolkit can play, by name.

A game plug-in is found through the Python entry point group `sim.games` (name -> the plug-in
object, `package.module:OBJECT`), so a designer's own game in its own installed package plugs
in without touching this repository; this project's games are declared the same way in its
pyproject.toml. `register` adds one by hand (tests, notebooks). Two plug-ins may not share a
name.
"""

from __future__ import annotations

from difflib import get_close_matches
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

from sim.errors import ConfigError

if TYPE_CHECKING:
    from sim.games.base import Game

GROUP = "sim.games"
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
        close = get_close_matches(name, known, n=1)
        hint = f"Did you mean {close[0]!r}?" if close else f"Known games: {', '.join(known)}."
        raise ConfigError(f"unknown game {name!r}", file=source, key="game", hint=hint)
    return _GAMES[name]
