"""An experiment being read: its data (the file's mapping with the command line applied), where
each key was written, and the game once it is known. Every error the experiment's checks raise
is made here, naming the key as the user wrote it: the file and its line, or the command-line
option that set it (`--set`, `--games`, `--seed`).

The parser (sim/experiment/parsing.py) is a line of steps that each take a Reading: apply the
command line (command_line.py), check each value once (checks.py, sweep.py, skills.py,
precision_settings.py, tolerance_settings.py), build the arms (arms.py). They import this
module; none imports parsing.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.config.files import line_map
from sim.config.words import did_you_mean
from sim.errors import ConfigError

if TYPE_CHECKING:
    from sim.plugins.base import Game, StrategySpec

KeyPath = tuple[str | int, ...]  # where a value stands: ("arms", 1, "rules", "shot.steal")


@dataclass(frozen=True)
class Reading:
    """The data being read and where each key was written. `origin` maps a key path set on
    the command line to its option ('--set', '--games', '--seed'); `cli_rules` are the rule
    keys the command line set; `aliases` the word the file used for a key read under another
    name (`strategies` for `seats`)."""

    data: Mapping[str, Any]
    file: str | None = None
    text: str = ""
    origin: Mapping[KeyPath, str] = field(default_factory=dict)
    cli_rules: tuple[tuple[str, Any], ...] = ()
    aliases: Mapping[KeyPath, str] = field(default_factory=dict)
    game: Game | None = None
    # specs the game has accepted: each strategy is checked once (a cache, not a result)
    strategy_ok: dict[StrategySpec, None] = field(default_factory=dict, compare=False)

    @property
    def base_dir(self) -> Path:
        """The folder paths in the experiment start from: the file's, else the current one."""
        return Path(self.file).resolve().parent if self.file else Path.cwd()

    @property
    def source(self) -> str:
        return self.file or "experiment"

    def with_data(self, data: Mapping[str, Any]) -> Reading:
        return replace(self, data=data)

    # errors -------------------------------------------------------------------------------

    def fail(self, message: str, path: KeyPath, hint: str | None = None) -> ConfigError:
        """An error at `path`, named as the user wrote it: the file and line, or the option."""
        option = self.option(path)
        shown = self._as_written(path)
        key = render(shown) if shown else None
        if option == "--set":
            return ConfigError(message, file="--set", key=key, hint=hint)
        if option is not None:
            return ConfigError(message, key=option, hint=hint)
        return ConfigError(message, file=self.file, key=key, line=self._line(shown), hint=hint)

    def relabel(self, err: ConfigError, path: KeyPath) -> ConfigError:
        return self.fail(err.message, path, err.hint)

    def unknown(self, key: Any, known: Sequence[str], where: KeyPath) -> ConfigError:
        hint = did_you_mean(str(key), known, otherwise=f"Valid keys: {', '.join(known)}.")
        return self.fail("unknown key", (*where, str(key)), hint)

    def option(self, path: KeyPath) -> str | None:
        """The command-line option that set the value at `path` (or a key above it), if any."""
        for set_path, option in self.origin.items():
            if path[: len(set_path)] == set_path:
                return option
        return None

    def from_command_line(self, path: KeyPath) -> bool:
        return self.option(path) is not None

    def _line(self, path: KeyPath) -> int | None:
        lines = line_map(self.text)
        segments = _segments(path)
        for n in range(len(segments), 0, -1):
            if segments[:n] in lines:
                return lines[segments[:n]]
        return None

    def _as_written(self, path: KeyPath) -> KeyPath:
        for n in (3, 1):
            alias = self.aliases.get(path[:n])
            if alias is not None:
                return (*path[: n - 1], alias, *path[n:])
        return path


def render(path: KeyPath) -> str:
    """A key path as written in a message: ``arms[1].rules.shot.steal``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part:
            out += f".{part}" if out else str(part)
    return out


def _segments(path: KeyPath) -> tuple[Any, ...]:
    """A key path as the line map's keys: dotted keys split into their parts."""
    out: list[Any] = []
    for part in path:
        if isinstance(part, str):
            out.extend(p for p in part.split(".") if p)
        else:
            out.append(part)
    return tuple(out)
