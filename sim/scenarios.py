"""`sim scenario`: a scenario file names its game (`game:`, default sim.games.DEFAULT_GAME);
the game's plug-in plays and checks it in its own format. `expectation_diff` is the comparison of a
scenario's `expect:` with what happened that any game's format can use, with what else the
games' formats share (reading a file, its error, a per-seat comparison)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sim.config.files import check_keys, read_yaml
from sim.errors import ConfigError
from sim.plugins import DEFAULT_GAME, get_game
from sim.plugins.base import Scenarios, scenarios


class ScenarioError(ConfigError):
    """A malformed scenario file."""


def read_scenario(path: str, top_keys: tuple[str, ...]) -> dict[str, Any]:
    """A scenario file's YAML mapping, its top-level keys checked (a ScenarioError naming the
    file and the key)."""
    data = read_yaml(path)
    check_keys(data, top_keys, file=path, error=ScenarioError)
    return data


def read_expect(data: Mapping[str, Any], path: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """A scenario's `expect:` mapping, its keys checked against `keys` (a ScenarioError naming
    the file, the key and the keys it may hold)."""
    expect = data.get("expect")
    if not isinstance(expect, dict) or not expect:
        raise ScenarioError("expected a mapping of results", file=path, key="expect",
                            hint=f"Keys: {', '.join(keys)}.")  # fmt: skip
    unknown = [key for key in expect if key not in keys]
    if unknown:
        raise ScenarioError(f"unknown result {unknown[0]!r}", file=path, key="expect",
                            hint=f"Keys: {', '.join(keys)}.")  # fmt: skip
    return expect


def scenario_ruleset(data: Mapping[str, Any], path: str, load: Callable[..., Any],
                     default: str) -> Any:  # fmt: skip
    """The ruleset a scenario plays: `ruleset` (a preset or a ruleset file, default
    `default`) with its `rules` overrides, loaded by the game's `load`. A value of the wrong
    kind, an unknown preset or a missing file is a ScenarioError naming the scenario and the
    key; an error inside an existing ruleset file names that file."""
    name = data.get("ruleset", default)
    if not isinstance(name, str):
        raise ScenarioError("expected a preset name or a ruleset file", file=path, key="ruleset")
    rules = data.get("rules") or {}
    if not isinstance(rules, Mapping):
        raise ScenarioError("expected a mapping of rule keys to values", file=path, key="rules")
    try:
        return load(name, rules, source=path)
    except ConfigError as err:
        if err.file is not None and (err.file == path or Path(err.file).is_file()):
            raise
        raise ScenarioError(err.message, file=path, key="ruleset", hint=err.hint) from None


def _scenarios_of(path: str) -> Scenarios:
    """The scenario format of the game the file names (`game:`, default DEFAULT_GAME); a file
    that cannot be read as a YAML mapping is refused naming it."""
    data = read_yaml(path)
    return scenarios(get_game(str(data.get("game", DEFAULT_GAME)), source=str(path)))


def run_scenario(path: str) -> str:
    """The scenario's moves played, the result in the scenario format."""
    return _scenarios_of(path).run_file(path)


def check_scenario(path: str) -> str:
    """'' when the scenario's result matches its `expect:`, else the differences."""
    return _scenarios_of(path).check_file(path)


# key -> (expected, got) -> the lines saying how they differ ([] when they match)
Compare = Callable[[Any, Any], list[str]]


def expectation_diff(expect: Mapping[str, Any], got: Mapping[str, Any], *,
                     compare: Mapping[str, Compare] | None = None,
                     refused: str = "a decision was refused") -> str:  # fmt: skip
    """Readable lines for every expected key that differs ('' when all match): a key in
    `compare` by its own comparison, any other by equality; a refusal nobody expected (the
    result's `error`) is said first."""
    lines: list[str] = []
    if "error" not in expect and "error" in got:
        lines.append(f"  {refused}: {got['error']}")
    for key, want in expect.items():
        have = got.get(key)
        if compare and key in compare:
            lines += compare[key](want, have)
        elif want != have:
            lines.append(f"  {key}: expected {want!r}, got {have!r}")
    return "\n".join(lines)


def entries_diff(key: str, want: Any, have: list[Mapping[str, Any]]) -> list[str]:
    """For an expected list `key` of entries (one per seat, say): a line for each field an
    entry names that the result's entry differs in (an entry the result lacks is empty). An
    expectation of another shape cannot match: it is one line."""
    if not isinstance(want, list) or not all(isinstance(e, Mapping | None) for e in want):
        return [f"  {key}: expected {want!r} (a list of entries, one per seat), got {have!r}"]
    lines = []
    for i, entry in enumerate(want):
        for field, value in (entry or {}).items():
            got = have[i].get(field) if i < len(have) else None
            if got != value:
                lines.append(f"  {key}[{i}].{field}: expected {value!r}, got {got!r}")
    return lines
