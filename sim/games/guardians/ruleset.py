"""Guardians of Space rulesets: the key schema, preset loading and the immutable Ruleset.

A ruleset file is a YAML mapping of sections (``missile: {cost: 10}``) plus the metadata keys
``name``, ``title`` and ``extends``. ``rulesets/guardians.yaml`` holds every key and its default;
the other presets extend it and change a few keys (see docs/rules.md).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from sim.config import (
    Field,
    Overrides,
    Schema,
    flatten,
    nearest,
    override_pairs,
    read_yaml,
    unflatten,
    unknown_key,
    validate,
)
from sim.errors import ConfigError

PRESETS = ("guardians", "guardians-advanced", "space-defenders", "space-defenders-upgrades")
METADATA = ("name", "title", "extends")

_COST = {"min": 0, "max": 100}

# In the order of guardians.yaml, which fixes the order of `to_yaml` (a test checks both agree).
SCHEMA: Schema = {
    "board.columns": Field("int", min=3, max=8, doc="board width"),
    "board.rows": Field("int", min=5, max=12, doc="board height"),
    "board.start_rows": Field(
        "int", min=1, max=10, doc="rows filled with invaders at setup (at most rows - 2)"
    ),
    "tokens.monsters": Field(
        "int_list", min=0, max=30, length=5, doc="counts of 1..5-eye monsters"
    ),
    "tokens.ships": Field("int", min=0, max=10, doc="command ships, each a left and a right half"),
    "tokens.ship_part_points": Field("int", min=0, max=50, doc="points of a collected ship half"),
    "setup.ship_halves": Field(
        "choice", choices=("reshuffle", "box"), doc="ship halves drawn while filling the start rows"
    ),
    "movement.directions": Field(
        "choice", choices=("all", "horizontal"), doc="8 directions or left/right only"
    ),
    "shot.steal": Field(
        "choice", choices=("lowest", "highest"), doc="token taken when shooting a fighter"
    ),
    "shot.empty_fighter": Field(
        "choice",
        choices=("hit", "miss"),
        doc="a shot at a fighter whose owner has no token: a hit, or a miss for the stall rule",
    ),
    "mine.enabled": Field("bool", doc="play with the mine"),
    "mine.column": Field("int", min=1, max=8, doc="column of the mine spaces"),
    "mine.first_row": Field("int", min=1, max=12, doc="lowest mine space"),
    "mine.last_row": Field("int", min=1, max=12, doc="highest mine space, below the start rows"),
    "mine.step": Field("int", min=1, max=3, doc="cells per mine move"),
    "descent.check": Field(
        "choice", choices=("after_shot", "end_of_turn"), doc="when an emptied column descends"
    ),
    "descent.on_mine_empty": Field("bool", doc="a column emptied by the mine also descends"),
    "descent.needs_full_row": Field("bool", doc="descend only if the pile can refill a whole row"),
    "collision.destroyed_fighter": Field(
        "choice", choices=("reenter", "out"), doc="pay to return next turn, or out at once"
    ),
    "collision.reentry_cost": Field("int", **_COST, doc="price of re-entering"),
    "raid.when": Field(
        "choice", choices=("below_bottom", "enter_bottom"), doc="when an invader raids the planet"
    ),
    "missile.enabled": Field("bool", doc="the missile (GoS) / bomb (SD) can be bought"),
    "missile.cost": Field("int", **_COST, doc="price of the missile"),
    "upgrade.enabled": Field("bool", doc="fighter upgrades can be bought"),
    "upgrade.cost": Field("int", **_COST, doc="price per level"),
    "upgrade.max_level": Field("int", min=1, max=3, doc="shots per turn at the top level"),
    "power_up.enabled": Field("bool", doc="the power-up can be bought"),
    "power_up.cost": Field("int", **_COST, doc="price of the power-up"),
    "power_up.permanent": Field("bool", doc="false: used once (GoS); true: rapid fire (SD)"),
    "end.stall_turns": Field(
        "int", min=0, max=100, doc="turns without a hit that end the game (0 = players left)"
    ),
    "end.turn_cap": Field("int", min=10, max=100000, doc="safety net: outcome `cap`"),
}


# --- the ruleset --------------------------------------------------------------------------


@dataclass(frozen=True)
class Ruleset:
    """An effective, validated ruleset. ``values`` maps dotted keys to values (read-only)."""

    name: str
    title: str
    values: Mapping[str, Any]
    overrides: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        # Lists become tuples so that nothing reachable from a Ruleset can be mutated.
        frozen = {key: _freeze(value) for key, value in self.values.items()}
        object.__setattr__(self, "values", MappingProxyType(frozen))
        overrides = tuple((key, _freeze(value)) for key, value in self.overrides)
        object.__setattr__(self, "overrides", overrides)

    def __getitem__(self, key: str) -> Any:
        try:
            return self.values[key]
        except KeyError:
            raise KeyError(str(unknown_key(key, SCHEMA, file=f"ruleset {self.name}"))) from None

    def __hash__(self) -> int:
        return hash((self.name, self.title, self.fingerprint(), self.overrides))

    def nested(self) -> dict[str, Any]:
        """The values as sections ({'missile': {'cost': 10}, ...}), lists as lists."""
        ordered = sorted(self.values, key=_schema_order)
        return unflatten({key: _thaw(self.values[key]) for key in ordered})

    def to_yaml(self) -> str:
        """The effective ruleset as a YAML file that loads back to the same values."""
        head = "".join(f"# override: {k}={json.dumps(_thaw(v))}\n" for k, v in self.overrides)
        body = {"name": self.name, "title": self.title, **self.nested()}
        return head + yaml.dump(body, Dumper=_Dumper, sort_keys=False, allow_unicode=True)

    def fingerprint(self) -> str:
        """A short hash of the values, equal for rulesets that play the same game."""
        canonical = json.dumps(dict(self.values), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def with_overrides(self, overrides: Overrides, *, source: str = "--set") -> Ruleset:
        """A new Ruleset with the overrides validated (errors name ``source``) and applied."""
        checked = validate(dict(override_pairs(overrides, source=source)), SCHEMA, file=source)
        if not checked:
            return self
        values = {**self.values, **checked}
        origin = dict.fromkeys(self.values, (0, f"ruleset {self.name}"))
        origin.update(dict.fromkeys(checked, (1, source)))
        check_cross_keys(values, origin)
        applied = self.overrides + tuple(checked.items())
        return Ruleset(self.name, self.title, values, applied)


class _Dumper(yaml.SafeDumper):
    """Writes lists inline ([11, 11, 11, 11, 12]) and mappings as blocks."""


_Dumper.add_representer(
    list, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, True)
)


def _freeze(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _thaw(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


_ORDER = {key: index for index, key in enumerate(SCHEMA)}


def _schema_order(key: str) -> int:
    return _ORDER.get(key, len(_ORDER))


# --- loading ------------------------------------------------------------------------------


def load_ruleset(
    name_or_path: str | os.PathLike[str], overrides: Overrides = (), *, source: str = "--set"
) -> Ruleset:
    """Load a preset name or a YAML path, resolve ``extends`` and apply overrides.

    Every file is validated with that file named in errors; overrides name ``source``.
    """
    chain = _resolve_chain(os.fspath(name_or_path))
    values, origin = _merge(chain)
    check_cross_keys(values, origin)
    top_file, top = chain[-1]
    name = top.get("name", Path(top_file).stem)
    ruleset = Ruleset(name, top.get("title", name), values)
    return ruleset.with_overrides(overrides, source=source)


def preset_path(name: str) -> Path:
    """The YAML file of a preset."""
    if name not in PRESETS:
        raise _unknown_preset(name, file=None)
    return _rulesets_dir() / f"{name}.yaml"


def _rulesets_dir() -> Path:
    try:
        root = resources.files(__package__) / "rulesets"
        if isinstance(root, Path) and root.is_dir():
            return root
    except (ModuleNotFoundError, TypeError):
        pass
    # Not importable as a package (or zipped): use the files next to this module.
    return Path(__file__).resolve().parent / "rulesets"


def _resolve_chain(ref: str) -> list[tuple[str, dict[str, Any]]]:
    """[(file, data), ...] from the root (no ``extends``) to ``ref``."""
    chain: list[tuple[str, dict[str, Any]]] = []
    seen: list[Path] = []
    path, referrer = _locate(ref, referrer=None), None
    while path is not None:
        if path.resolve() in seen:
            cycle = " -> ".join(str(f) for f, _ in chain) + f" -> {path}"
            raise ConfigError(f"extends cycle: {cycle}", file=referrer, key="extends")
        seen.append(path.resolve())
        data = read_yaml(path)
        _check_metadata(data, path)
        chain.append((str(path), data))
        parent, referrer = data.get("extends"), str(path)
        path = _locate(parent, referrer=path) if parent is not None else None
    return chain[::-1]


def _locate(ref: str, *, referrer: Path | None) -> Path:
    """A preset name or a path (relative to the referring file's folder)."""
    if ref in PRESETS:
        return _rulesets_dir() / f"{ref}.yaml"
    base = referrer.parent if referrer is not None else Path()
    path = base / ref
    if _looks_like_path(ref) or path.is_file():
        if referrer is not None and not path.is_file():
            raise ConfigError(f"parent file not found: {path}", file=referrer, key="extends")
        return path
    raise _unknown_preset(ref, file=referrer)


def _looks_like_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or os.sep in ref


def _unknown_preset(ref: str, *, file: Path | None) -> ConfigError:
    near = nearest(ref, PRESETS)
    mean = f"Did you mean '{near}'? " if near else ""
    hint = f"{mean}Presets: {', '.join(PRESETS)}; or give a path to a .yaml file"
    key = "extends" if file is not None else None
    return ConfigError(f"unknown preset '{ref}'", file=file, key=key, hint=hint)


def _check_metadata(data: Mapping[str, Any], path: Path) -> None:
    for key in METADATA:
        if key in data and not isinstance(data[key], str):
            raise ConfigError("expected a string", file=path, key=key)


def _merge(chain: list[tuple[str, dict[str, Any]]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Overlay the files root first; origin maps each key to (rank, file that set it last)."""
    values: dict[str, Any] = {}
    origin: dict[str, tuple[int, str]] = {}
    for rank, (file, data) in enumerate(chain):
        body = {k: v for k, v in data.items() if k not in METADATA}
        checked = validate(flatten(body, file=file), SCHEMA, file=file)
        values.update(checked)
        origin.update(dict.fromkeys(checked, (rank, file)))
    _check_complete(values, chain[0][0])
    return values, origin


def _check_complete(values: Mapping[str, Any], root_file: str) -> None:
    missing = [key for key in SCHEMA if key not in values]
    if missing:
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        shown = ", ".join(missing[:5]) + more
        hint = "Start from a preset, e.g. 'extends: guardians', to inherit every other key"
        raise ConfigError(f"missing keys: {shown}", file=root_file, hint=hint)


# --- checks across keys -------------------------------------------------------------------


def check_cross_keys(values: Mapping[str, Any], origin: Mapping[str, tuple[int, str]]) -> None:
    """Raise ConfigError for the first rule broken by a combination of keys.

    The error names the most recently set key among those involved (``origin`` maps a key to
    (rank, source); higher rank = applied later), since that is the one the user just changed.
    """
    for keys, message in _cross_key_problems(values):
        blamed = max(keys, key=lambda k: origin.get(k, (-1, ""))[0])
        file = origin.get(blamed, (-1, None))[1]
        raise ConfigError(message, file=file, key=blamed)


def _cross_key_problems(v: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    rows, columns, start = v["board.rows"], v["board.columns"], v["board.start_rows"]
    if start > rows - 2:
        # Row 1 holds the fighters and at least one row must separate them from the invaders.
        yield (
            ("board.start_rows", "board.rows"),
            (f"board.start_rows ({start}) must be at most board.rows - 2 ({rows - 2})"),
        )
    monsters = sum(v["tokens.monsters"])
    if monsters < columns * start:
        # Ship halves drawn during setup are set aside, so only monsters fill the start rows.
        yield (
            ("tokens.monsters", "board.columns", "board.start_rows"),
            (
                f"the monsters ({monsters}) cannot fill the start rows "
                f"(board.columns x board.start_rows = {columns * start})"
            ),
        )
    if v["mine.enabled"]:
        yield from _mine_problems(v)


def _mine_problems(v: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    column, first, last = v["mine.column"], v["mine.first_row"], v["mine.last_row"]
    if column > v["board.columns"]:
        yield (
            ("mine.column", "board.columns"),
            (f"mine.column ({column}) must be at most board.columns ({v['board.columns']})"),
        )
    if first > last:
        yield (
            ("mine.first_row", "mine.last_row"),
            (f"mine.first_row ({first}) must be at most mine.last_row ({last})"),
        )
    free = v["board.rows"] - v["board.start_rows"]
    if last > free:
        # The mine spaces must lie below the invaders' start rows.
        yield (
            ("mine.last_row", "board.rows", "board.start_rows"),
            (f"mine.last_row ({last}) must be at most board.rows - board.start_rows ({free})"),
        )
