"""Games the toolkit can simulate, by name. A plugin registers itself once."""

from __future__ import annotations

from difflib import get_close_matches
from typing import TYPE_CHECKING

from sim.errors import ConfigError

if TYPE_CHECKING:
    from sim.games.base import Game

_GAMES: dict[str, Game] = {}
_BUILTIN = {
    "guardians": "sim.games.guardians.game",
    "alien-raid": "sim.games.alien_raid.plugin",  # alien-raid plug-in (issue 18)
}


def register(game: Game) -> Game:
    """Add a game plugin; a second plugin with the same name is refused."""
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def get_game(name: str, *, source: str | None = None) -> Game:
    """The plugin called `name` (built-in plugins are imported on first use)."""
    if name not in _GAMES and name in _BUILTIN:
        __import__(_BUILTIN[name])
    if name not in _GAMES:
        known = sorted(set(_GAMES) | set(_BUILTIN))
        close = get_close_matches(name, known, n=1)
        hint = f"Did you mean {close[0]!r}?" if close else f"Known games: {', '.join(known)}."
        raise ConfigError(f"unknown game {name!r}", file=source, key="game", hint=hint)
    return _GAMES[name]
