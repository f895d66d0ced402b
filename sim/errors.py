"""Domain errors: problems the user can fix (bad files, keys, values).

The CLI prints ``str(error)`` and exits with code 2; it never shows a traceback for these.
"""

from __future__ import annotations

import os
from typing import Any


class SimError(Exception):
    """An error in user input, rendered as ``file:line: key 'k': message. hint`` on one line
    (``option '--k'`` for a command-line option; a line break in a message, or in a key or
    value quoted from a hostile file, becomes a space: the command line prints one error
    line)."""

    def __init__(
        self,
        message: str,
        *,
        file: str | os.PathLike[str] | None = None,
        key: str | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = os.fspath(file) if file is not None else None
        self.key = key
        self.line = line
        self.hint = hint

    def __str__(self) -> str:
        parts = [p for p in (self._where(), _key_part(self.key)) if p]
        text = _join_sentences(self.message, self.hint)
        return " ".join(": ".join([*parts, text]).splitlines())

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only fields are lost by Exception's default pickling; worker processes
        # must be able to send these errors back intact.
        fields = {"file": self.file, "key": self.key, "line": self.line, "hint": self.hint}
        return (_rebuild, (type(self), self.message, fields))

    def _where(self) -> str | None:
        if self.file is None:
            return f"line {self.line}" if self.line is not None else None
        return f"{self.file}:{self.line}" if self.line is not None else self.file


class ConfigError(SimError):
    """A configuration file, preset or override is invalid."""


class StrategyError(SimError):
    """A strategy failed during a game (raised, or answered with the wrong type).

    The game plugin raises it with the chunk-local `game` and the `seat`; the runner, which
    knows the arm, the game's index in the arm and its seed, turns it into the message shown.
    """

    def __init__(self, message: str, *, strategy: str, game: int, seat: int, **fields: Any):
        super().__init__(message, **fields)
        self.strategy = strategy
        self.game = game
        self.seat = seat

    def __reduce__(self) -> tuple[Any, ...]:
        extra = {"strategy": self.strategy, "game": self.game, "seat": self.seat}
        fields = {"file": self.file, "key": self.key, "line": self.line, "hint": self.hint}
        return (_rebuild, (type(self), self.message, {**fields, **extra}))


def _rebuild(cls: type[SimError], message: str, fields: dict[str, Any]) -> SimError:
    return cls(message, **fields)


def _key_part(key: str | None) -> str | None:
    """A file's key is a key ('missile.cost'); a command line's is an option ('--games')."""
    if key is None:
        return None
    return f"option '{key}'" if key.startswith("-") else f"key '{key}'"


def _join_sentences(message: str, hint: str | None) -> str:
    if not hint:
        return message
    # "unknown key" + "Did you mean ...?" -> "unknown key. Did you mean ...?"
    sep = " " if message.endswith((".", "!", "?", ":")) else ". "
    return f"{message}{sep}{hint}"
