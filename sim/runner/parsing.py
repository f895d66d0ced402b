"""Experiment files: parsed and validated into a frozen Experiment of arms before any game runs.

The format is documented in docs/results.md. Every error names the file (or ``--set``), the key
(``arms[1].rules.shot.steal``), the line where it can, and a suggestion. Game-specific checks
(rule keys and values, strategy names and parameters, player counts) are the plugin's, reached
through ``get_game(name)``; the errors it raises are re-labelled with the experiment's key.

This module reads the file and keeps where each key was written (the YAML line map, the words
the user chose); the rest of the parsing is split by what changes together:
sim/runner/command_line.py (--set, --games, --seed), checks.py (single values), sweep.py (the sweep
grammar and parameter columns), arms.py (expansion into arms), skills.py (the `skills` key),
precision_settings.py (the `precision` key), tolerance_settings.py (the `tolerances` key);
experiment.py holds the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sim.config import line_map, nearest, read_yaml
from sim.errors import ConfigError
from sim.games import get_game
from sim.games.base import Game, StrategySpec, version
from sim.runner import arms as arm_expansion
from sim.runner import checks, command_line, skills
from sim.runner.checks import KeyPath
from sim.runner.experiment import DEFAULT_GAMES, DEFAULT_SEED, TOP_KEYS, Experiment, jsonable
from sim.runner.precision_settings import precision
from sim.runner.sweep import param_columns
from sim.runner.tolerance_settings import tolerances
from sim.storage.parts import MAX_GAMES


def load_experiment(
    path: str | Path,
    overrides: Sequence[str] | Mapping[str, Any] = (),
    *,
    games: int | None = None,
    seed: int | None = None,
) -> Experiment:
    """Read, override (``--set KEY=VALUE``, ``--games``, ``--seed``) and validate a file."""
    path = Path(path)
    data = read_yaml(path)  # missing file, YAML syntax (with line), top-level type
    text = path.read_text(encoding="utf-8")
    pairs = command_line.pairs(overrides, games=games, seed=seed)
    return parse_experiment(data, file=str(path), text=text, overrides=pairs)


def parse_experiment(
    data: Mapping[str, Any],
    *,
    file: str | None = None,
    text: str = "",
    overrides: Sequence[tuple[str, Any]] = (),
) -> Experiment:
    """Validate an experiment given as a mapping (the content of an experiment file)."""
    return Parser(dict(data), file=file, text=text).parse(list(overrides))


class Parser:
    """One experiment being validated: its data (with the command line's changes), the game,
    and where each key was written, for errors."""

    def __init__(self, data: dict[str, Any], *, file: str | None, text: str) -> None:
        self.data = data
        self.file = file
        self.text = text
        self.lines = line_map(text)
        self.overrides: list[tuple[str, Any]] = []  # the command line's pairs, as given
        self.cli_paths: set[KeyPath] = set()  # keys the command line set
        self.cli_rules: list[tuple[str, Any]] = []  # rule keys the command line set
        self.game: Game | None = None
        self.strategy_ok: dict[StrategySpec, None] = {}  # specs the game has accepted
        self.aliases: dict[KeyPath, str] = {}  # path as parsed -> the key the file used
        self.base_dir = Path(file).resolve().parent if file else Path.cwd()

    def parse(self, pairs: list[tuple[str, Any]]) -> Experiment:
        d = self.data
        self._check_top_keys()
        command_line.apply(self, pairs)
        self._check_top_keys()  # --set may have added keys
        if "seats" in d and "strategies" in d:
            raise self.fail(
                "give either seats or strategies (the same key), not both", ("strategies",)
            )
        if "strategies" in d:
            d["seats"] = d.pop("strategies")
            self._rename_path("strategies", "seats")
        name = checks.name(self)
        game_name = checks.string(self, "game", default="guardians")
        try:
            self.game = get_game(game_name, source=self.file)
        except ConfigError as err:
            raise self.relabel(err, ("game",)) from None
        games = checks.integer(self, ("games",), d.get("games", DEFAULT_GAMES), low=1,
                               high=MAX_GAMES)  # fmt: skip
        seed = checks.integer(self, ("seed",), d.get("seed", DEFAULT_SEED), low=0,
                              high=command_line.SEED_MAX)  # fmt: skip
        report = checks.report_sections(self)
        if "sweep" in d and "arms" in d:
            raise self.fail(
                "give either a sweep or a list of arms, not both",
                ("arms",),
                "Use a sweep for a grid of values, arms for named what-ifs.",
            )
        if d.get("skills") not in (None, []):  # every arm at each level
            arms, baseline, columns = skills.repeat_arms(self)
        else:
            arms = arm_expansion.expand(self)
            baseline = checks.baseline(self, arms)
            columns = param_columns(self, arms)
        stop = precision(self, games, arms)
        return Experiment(
            name=name,
            game=game_name,
            seed=seed,
            games=games,
            arms=tuple(arms),
            file=self.file,
            text=self.text,
            cli_overrides=tuple((k, jsonable(v)) for k, v in self.overrides),
            baseline=baseline,
            precision=stop,
            report=report,
            description=str(d.get("description", "") or ""),
            param_columns=columns,
            game_version=version(self.game),
            tolerances=tolerances(self),
        )

    # errors -----------------------------------------------------------------------------------

    def fail(self, message: str, path: KeyPath, hint: str | None = None) -> ConfigError:
        """An error at `path`, named as the user wrote it: the file and line, or ``--set``."""
        cli = self.from_command_line(path)
        path = self._as_written(path)
        key = _render(path) if path else None
        if cli:
            return ConfigError(message, file="--set", key=key, hint=hint)
        return ConfigError(message, file=self.file, key=key, line=self._line(path), hint=hint)

    def relabel(self, err: ConfigError, path: KeyPath) -> ConfigError:
        return self.fail(err.message, path, err.hint)

    def unknown(self, key: Any, known: Sequence[str], where: KeyPath) -> ConfigError:
        near = nearest(str(key), known)
        hint = f"Did you mean '{near}'?" if near else f"Valid keys: {', '.join(known)}."
        return self.fail("unknown key", (*where, str(key)), hint)

    def from_command_line(self, path: KeyPath) -> bool:
        """Whether the value at `path` (or a key above it) was set by ``--set``."""
        return any(path[: len(p)] == p for p in self.cli_paths)

    def _check_top_keys(self) -> None:
        for key in self.data:
            if key not in TOP_KEYS:
                raise self.unknown(key, TOP_KEYS, ())

    def _line(self, path: KeyPath) -> int | None:
        segments = _segments(path)
        for n in range(len(segments), 0, -1):
            if segments[:n] in self.lines:
                return self.lines[segments[:n]]
        return None

    def _rename_path(self, old: str, new: str) -> None:
        """The file says `old` (strategies) for `new` (seats): errors keep the user's word."""
        for p in list(self.cli_paths):
            if p and p[0] == old:
                self.cli_paths.add((new, *p[1:]))
        self.aliases[(new,)] = old

    def _as_written(self, path: KeyPath) -> KeyPath:
        for n in (3, 1):
            alias = self.aliases.get(path[:n])
            if alias is not None:
                return (*path[: n - 1], alias, *path[n:])
        return path


def _render(path: KeyPath) -> str:
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
