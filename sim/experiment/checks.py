"""Checks of an experiment's single values: the keys, names, numbers, players, rotation, report
sections, rulesets with their rule overrides, strategy entries and the baseline.

Each check takes the Reading (sim/experiment/reading.py) for the data, the game and its errors,
which name the key as the user wrote it and its line (or the option that set it). The game's
own checks (rule keys and values, strategies) are the plug-in's; their errors are re-labelled
with the experiment's key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.config.keys import flatten
from sim.config.words import did_you_mean, show_value
from sim.errors import ConfigError
from sim.experiment.lineups import ROTATIONS
from sim.experiment.model import DEFAULT_GAMES, DEFAULT_SEED, TOP_KEYS
from sim.experiment.reading import KeyPath, Reading
from sim.plugins import game_for
from sim.plugins.base import StrategySpec, player_counts, report_section_name, report_section_names
from sim.storage.parts import MAX_GAMES

if TYPE_CHECKING:
    from sim.experiment.model import Arm
    from sim.plugins.base import Game

SEED_MAX = 2**63 - 1

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass
class RuleGroup:
    """Rule overrides from one place of the file (for re-labelling the plugin's errors)."""

    path: KeyPath
    pairs: list[tuple[str, Any]]
    cli: bool = False


@dataclass
class SeatEntry:
    """A seat entry and where it was written."""

    spec: StrategySpec
    path: KeyPath
    cli: bool = False


# --- scalars --------------------------------------------------------------------------------


def top_keys(p: Reading) -> None:
    for key in p.data:
        if key not in TOP_KEYS:
            raise p.unknown(key, TOP_KEYS, ())


def games(p: Reading) -> int:
    """The games per arm: from the file or --games, checked once."""
    value = p.data.get("games", DEFAULT_GAMES)
    return integer(p, ("games",), value, low=1, high=MAX_GAMES, what="a positive number of games")


def seed(p: Reading) -> int:
    """The root seed: from the file or --seed, checked once."""
    value = p.data.get("seed", DEFAULT_SEED)
    return integer(p, ("seed",), value, low=0, high=SEED_MAX, what="a seed in 0..2**63-1")


def name(p: Reading) -> str:
    default = Path(p.file).stem if p.file else "experiment"
    value = p.data.get("name", default)
    if not isinstance(value, str) or not _NAME_RE.match(value):
        raise p.fail(
            f"expected a name of letters, digits, '_', '-' or '.', got {show(value)}",
            ("name",),
            "It names the results folder, e.g. name: missile_cost.",
        )
    return value


def string(p: Reading, key: str, *, default: str) -> str:
    value = p.data.get(key, default)
    if not isinstance(value, str):
        raise p.fail(f"expected a string, got {show(value)}", (key,))
    return value


def game(p: Reading) -> Game:
    """The `game` key's plug-in; without the key, the game whose preset the top-level
    `ruleset` names (preset names are unique across games), else the default game."""
    name = string(p, "game", default="") or None
    ruleset = p.data.get("ruleset")
    preset = ruleset if name is None and isinstance(ruleset, str) else None
    try:
        return game_for(name, preset, key="ruleset", source=p.file)
    except ConfigError as err:
        raise p.relabel(err, ("game",) if name is not None else ("ruleset",)) from None


def integer(p: Reading, path: KeyPath, value: Any, *, low: int, high: int | None = None,
            what: str = "") -> int:  # fmt: skip
    """A whole number in low..high; `what` says what is expected in words."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)  # 1e6 in YAML is a float
    if not isinstance(value, int) or isinstance(value, bool):
        raise p.fail(f"expected a whole number, got {show(value)}", path)
    if value < low or (high is not None and value > high):
        span = f"{low:,}..{high:,}" if high is not None else f">= {low:,}"
        expected = f"{what} ({span})" if what else span
        raise p.fail(f"out of range: expected {expected}, got {value}", path)
    return value


def report_sections(p: Reading) -> tuple[str, ...]:
    """The `report` key: section names the game's report offers."""
    value = p.data.get("report", [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise p.fail(f"expected a list of report sections, got {show(value)}", ("report",))
    assert p.game is not None
    known = list(report_section_names(p.game))
    value = [report_section_name(p.game, s) if isinstance(s, str) else s for s in value]
    for i, section in enumerate(value):
        if section not in known:
            raise p.fail(
                f"unknown report section {show(section)}",
                ("report", i),
                did_you_mean(
                    str(section),
                    known,
                    then=f"Sections of {p.game.name}: {', '.join(known) or 'none'}.",
                ),
            )
    return tuple(value)


def players(p: Reading, value: Any, path: KeyPath) -> int:
    assert p.game is not None
    counts = player_counts(p.game)
    if isinstance(value, int) and not isinstance(value, bool) and value in counts:
        return value
    raise p.fail(
        f"expected a number of players, one of {', '.join(map(str, counts))}; got {show(value)}",
        path,
        f"{p.game.name} is played by {min(counts)} to {max(counts)} players.",
    )


def rotate(p: Reading, value: Any, path: KeyPath) -> str:
    if value is True:
        return "cyclic"
    if value is False or value is None:
        return "none"
    if isinstance(value, str) and value in ROTATIONS:
        return value
    raise p.fail(
        f"expected true, false, cyclic or permutations, got {show(value)}",
        path,
        "true rotates the seats cyclically so every strategy sits in every seat equally often.",
    )


def baseline(p: Reading, arms: list[Arm]) -> str | None:
    value = p.data.get("baseline")
    names = [arm.name for arm in arms]
    if value is None:
        return names[0] if "arms" in p.data else None
    if not isinstance(value, str) or value not in names:
        shown = ", ".join(f"'{n}'" for n in names[:8]) + (" ..." if len(names) > 8 else "")
        raise p.fail(
            f"baseline {show(value)} is not one of the arms",
            ("baseline",),
            did_you_mean(str(value), names, then=f"Arms: {shown}."),
        )
    return value


# --- rulesets -------------------------------------------------------------------------------


def ruleset_ref(p: Reading, value: Any, path: KeyPath) -> str:
    """A preset name, or the absolute path of a ruleset file (relative to the experiment)."""
    assert p.game is not None
    if not isinstance(value, str):
        raise p.fail(f"expected a preset name or a file path, got {show(value)}", path)
    if value in p.game.presets:
        return value
    for candidate in (p.base_dir / value, Path(value)):
        if candidate.is_file():
            return str(candidate.resolve())
    if value.endswith((".yaml", ".yml")) or "/" in value:
        where = f"Paths in an experiment file start from its folder, {p.base_dir}."
        raise p.fail(f"ruleset file not found: {p.base_dir / value}", path, where)
    try:  # a preset of another game, or of none (the nearest of any game suggested)
        game_for(p.game.name, value, source=p.file)
    except ConfigError as err:
        raise p.relabel(err, path) from None
    return value


def load_rules(p: Reading, ref: str, ref_path: KeyPath, groups: list[RuleGroup]) -> Any:
    """The game's ruleset with every group's overrides; its errors name the group's key."""
    assert p.game is not None
    pairs = [pair for group in groups for pair in group.pairs]
    source = p.file or "experiment"
    try:
        return p.game.load_ruleset(ref, pairs, source=source)
    except ConfigError as err:
        if err.key is None:  # the preset or the ruleset file itself
            where = f" ({err.file})" if err.file and err.file != source else ""
            raise p.fail(f"{err.message}{where}", ref_path, err.hint) from None
        if err.file not in (source, None):
            raise  # a mistake inside a ruleset file: that file is named already
        for group in reversed(groups):
            if err.key in dict(group.pairs):
                if group.cli:
                    raise ConfigError(
                        err.message, file="--set", key=err.key, hint=err.hint
                    ) from None
                raise p.fail(err.message, (*group.path, err.key), err.hint) from None
        raise p.fail(err.message, ref_path, err.hint) from None


def rule_pairs(p: Reading, value: Any, path: KeyPath) -> list[tuple[str, Any]]:
    """A `rules` mapping as (dotted key, value) pairs."""
    if value is None:
        return []
    mapping(p, value, path, "a mapping of rule keys to values",
            "For example rules: {missile.cost: 8}.")  # fmt: skip
    try:
        flat = flatten(value, file=p.file)
    except ConfigError as err:
        raise p.fail(err.message, (*path, err.key or ""), err.hint) from None
    return [(strip_rules(k), v) for k, v in flat.items()]


def strip_rules(key: str) -> str:
    """`rules.missile.cost` and `missile.cost` name the same rule key."""
    return key[len("rules.") :] if key.startswith("rules.") else key


# --- strategies -----------------------------------------------------------------------------


def seat_entries(p: Reading, value: Any, path: KeyPath) -> list[SeatEntry]:
    if isinstance(value, str | Mapping):
        value = [value]  # one entry: every seat
    if not isinstance(value, list) or not value:
        raise p.fail(
            f"expected a list of strategies, got {show(value)}",
            path,
            "For example seats: [economist, greedy, greedy, greedy].",
        )
    return [seat_entry(p, item, (*path, i)) for i, item in enumerate(value)]


def seat_entry(p: Reading, item: Any, path: KeyPath) -> SeatEntry:
    if isinstance(item, str):
        spec = StrategySpec(item)
    elif isinstance(item, Mapping):
        if "name" not in item or not isinstance(item["name"], str):
            raise p.fail(
                "a strategy with parameters needs a name",
                path,
                "For example {name: economist, missile_at: 15}.",
            )
        params = {str(k): v for k, v in item.items() if k != "name"}
        spec = StrategySpec(item["name"], tuple(sorted(params.items())))
    else:
        raise p.fail(
            f"expected a strategy name or {{name: ..., parameter: value}}, got {show(item)}",
            path,
        )
    return SeatEntry(spec, path, p.from_command_line(path))


def check_entry(
    p: Reading, entry: SeatEntry, param_paths: Mapping[str, KeyPath] | None = None
) -> None:
    """The game knows the strategy and its parameters (each spec is asked once)."""
    assert p.game is not None
    spec = entry.spec
    try:
        if spec in p.strategy_ok:  # hashing: parameters must be plain values
            return
        p.game.check_strategy(spec, source=p.file or "experiment")
    except ConfigError as err:
        key = err.key or ""
        param = key.partition(".")[2] if "." in key else ""
        path = entry.path
        if param and param_paths and param in param_paths:
            path = param_paths[param]
        elif param:
            path = (*path, param)
        raise p.fail(err.message, path, err.hint) from None
    except TypeError:
        raise p.fail("strategy parameters must be plain values", entry.path) from None
    p.strategy_ok[spec] = None


# --- how a value is shown in an error -------------------------------------------------------


def mapping(p: Reading, value: Any, path: KeyPath, what: str, example: str) -> Mapping:
    """`value` when it is a mapping; else an error at `path`: what was expected, what the file
    holds, and an example."""
    if not isinstance(value, Mapping):
        raise p.fail(f"expected {what}, got {show(value)}", path, example)
    return value


def show(value: Any) -> str:
    """A value as the user would have written it; a mapping or a long list by its kind."""
    if isinstance(value, Mapping):
        return "a mapping" if value else "an empty mapping"
    if isinstance(value, list) and len(value) > 5:
        return "a list"
    return show_value(value)
