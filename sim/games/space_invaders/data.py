"""The data the rulebook does not print, read from YAML and validated as strictly as rulesets:
the invader card catalog, the board's measurements (geometry) and the dexterity presets.

Shipped files live in rulesets/ as catalog-<name>.yaml, geometry-<name>.yaml and
dexterity-presets.yaml; a ruleset names them (`catalog.file: default`) or gives a path to a
file of the same form. Every error names the file, the key (with its line) and a fix.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from sim.config import Field, coerce, nearest, read_yaml
from sim.errors import ConfigError
from sim.games.space_invaders.layout import (
    CARDS_PER_LEVEL,
    ICON_SHIELD,
    ICON_TWO_HIT,
    MAX_CARDS,
    POWER_LEVEL,
    POWER_NAMES,
)
from sim.games.space_invaders.schema import DEXTERITY_KEYS, GEOMETRY_SCHEMA, RULE_SCHEMA

ICONS = {"none": 0, "shield": ICON_SHIELD, "two_hit": ICON_TWO_HIT}
CARD_KEYS = ("count", "speed", "damage", "icon")
_CARD_FIELDS = {
    "count": Field("int", min=1, max=MAX_CARDS),
    "speed": Field("int", min=1, max=3),
    "damage": Field("int", min=1, max=20),
    "icon": Field("choice", choices=tuple(ICONS)),
}
META_KEYS = ("title", "assumption")


def data_dir() -> Path:
    return Path(__file__).resolve().parent / "rulesets"


def shipped(kind: str) -> tuple[str, ...]:
    """Names of the shipped files of a kind ('catalog', 'geometry')."""
    return tuple(sorted(p.stem[len(kind) + 1 :] for p in data_dir().glob(f"{kind}-*.yaml")))


def locate(kind: str, ref: str, *, source: Any, key: str) -> Path:
    """A shipped name or a path to a YAML file."""
    if ref in shipped(kind):
        return data_dir() / f"{kind}-{ref}.yaml"
    path = Path(ref)
    if path.suffix in (".yaml", ".yml") or "/" in ref:
        if not path.is_file():
            raise ConfigError(
                f"{kind} file not found: {ref}",
                file=source,
                key=key,
                hint="Give a path relative to the working directory.",
            )
        return path
    near = nearest(ref, shipped(kind))
    mean = f"Did you mean '{near}'? " if near else ""
    hint = f"{mean}Shipped: {', '.join(shipped(kind))}; or a .yaml path"
    raise ConfigError(f"unknown {kind} '{ref}'", file=source, key=key, hint=hint)


def _lines(path: Path) -> dict[tuple[Any, ...], int]:
    """Line of every mapping key and list item by its path (for error messages)."""
    out: dict[tuple[Any, ...], int] = {}
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, yaml.YAMLError):
        return out

    def walk(node: Any, prefix: tuple[Any, ...]) -> None:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                out.setdefault((*prefix, k.value), k.start_mark.line + 1)
                walk(v, (*prefix, k.value))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                out.setdefault((*prefix, i), item.start_mark.line + 1)
                walk(item, (*prefix, i))

    walk(root, ())
    return out


class _Reader:
    """Checks one data file; every error names the file, the key and its line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = read_yaml(path)
        self.lines = _lines(path)

    def fail(self, message: str, *where: Any, hint: str | None = None) -> ConfigError:
        key = "".join(f"[{w}]" if isinstance(w, int) else f".{w}" for w in where).lstrip(".")
        return ConfigError(
            message, file=self.path, key=key or None, line=self.lines.get(tuple(where)), hint=hint
        )

    def keys(self, mapping: Any, allowed: tuple[str, ...], *where: Any) -> None:
        if not isinstance(mapping, Mapping):
            raise self.fail("expected a mapping", *where)
        for key in mapping:
            if key not in allowed:
                near = nearest(str(key), allowed)
                hint = f"Did you mean '{near}'?" if near else f"Keys: {', '.join(allowed)}."
                raise self.fail("unknown key", *where, key, hint=hint)

    def value(self, field: Field, raw: Any, *where: Any) -> Any:
        try:
            return coerce(field, raw)
        except ConfigError as err:
            raise self.fail(err.message, *where, hint=err.hint) from None


# --- the card catalog -----------------------------------------------------------------------


@dataclass(frozen=True)
class Catalog:
    title: str
    speed: tuple[int, ...]  # one entry per card
    damage: tuple[int, ...]
    icon: tuple[int, ...]
    powers: tuple[tuple[int, ...], ...]  # per level, CARDS_PER_LEVEL power ids
    digest: str

    @property
    def size(self) -> int:
        return len(self.speed)


@functools.lru_cache(maxsize=32)
def _catalog_cached(path: str, mtime: float) -> Catalog:
    return _read_catalog(Path(path))


def load_catalog(path: Path) -> Catalog:
    return _catalog_cached(str(path.resolve()), path.stat().st_mtime)


def _read_catalog(path: Path) -> Catalog:
    r = _Reader(path)
    r.keys(r.data, ("cards", "player_cards", *META_KEYS))
    cards = r.data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise r.fail(
            "expected a list of cards",
            "cards",
            hint="For example cards: [{count: 12, speed: 1, damage: 1}].",
        )
    speed, damage, icon = [], [], []
    for i, entry in enumerate(cards):
        r.keys(entry, CARD_KEYS, "cards", i)
        for key in ("count", "speed", "damage"):
            if key not in entry:
                raise r.fail(f"missing '{key}'", "cards", i)
        values = {
            k: r.value(_CARD_FIELDS[k], entry.get(k, "none"), "cards", i, k) for k in CARD_KEYS
        }
        speed += [values["speed"]] * values["count"]
        damage += [values["damage"]] * values["count"]
        icon += [ICONS[values["icon"]]] * values["count"]
    if len(speed) > MAX_CARDS:
        raise r.fail(f"{len(speed)} cards; the engine holds at most {MAX_CARDS}", "cards")
    powers = _player_cards(r)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    title = str(r.data.get("title", path.stem))
    return Catalog(title, tuple(speed), tuple(damage), tuple(icon), powers, digest)


def _player_cards(r: _Reader) -> tuple[tuple[int, ...], ...]:
    decks = r.data.get("player_cards")
    names = ("level_1", "level_2", "level_3")
    if decks is None:
        raise r.fail("missing 'player_cards'", hint="List 4 powers for each of level_1..3.")
    r.keys(decks, names, "player_cards")
    out = []
    for level, name in enumerate(names, start=1):
        deck = decks.get(name)
        if not isinstance(deck, list) or len(deck) != CARDS_PER_LEVEL:
            raise r.fail(f"expected a list of {CARDS_PER_LEVEL} powers", "player_cards", name)
        ids = []
        for i, power in enumerate(deck):
            if power not in POWER_NAMES:
                near = nearest(str(power), POWER_NAMES)
                raise r.fail(
                    f"unknown power {power!r}",
                    "player_cards",
                    name,
                    i,
                    hint=f"Did you mean '{near}'?" if near else None,
                )
            pid = POWER_NAMES.index(power)
            if pid != 0 and POWER_LEVEL[pid] != level:
                raise r.fail(
                    f"{power} is a level-{POWER_LEVEL[pid]} power (line 400)",
                    "player_cards",
                    name,
                    i,
                )
            ids.append(pid)
        out.append(tuple(ids))
    return tuple(out)


# --- geometry and dexterity presets ---------------------------------------------------------


@functools.lru_cache(maxsize=32)
def _geometry_cached(path: str, mtime: float) -> tuple[tuple[str, Any], ...]:
    r = _Reader(Path(path))
    r.keys(r.data, (*GEOMETRY_SCHEMA, *META_KEYS))
    missing = [k for k in GEOMETRY_SCHEMA if k not in r.data]
    if missing:
        hint = "Copy rulesets/geometry-default.yaml and change what differs."
        raise r.fail(f"missing keys: {', '.join(missing)}", hint=hint)
    return tuple((k, r.value(f, r.data[k], k)) for k, f in GEOMETRY_SCHEMA.items())


def load_geometry(path: Path) -> dict[str, Any]:
    """The measurements of a geometry file, validated (keys without the `geometry.` prefix)."""
    return dict(_geometry_cached(str(path.resolve()), path.stat().st_mtime))


@functools.lru_cache(maxsize=4)
def _presets_cached(path: str, mtime: float) -> tuple[tuple[str, tuple[tuple[str, Any], ...]]]:
    r = _Reader(Path(path))
    skills = [s for s in RULE_SCHEMA["dexterity.skill"].choices if s != "custom"]
    r.keys(r.data, (*skills, *META_KEYS))
    out = []
    for skill in skills:
        entry = r.data.get(skill)
        if entry is None:
            raise r.fail(f"missing preset '{skill}'")
        r.keys(entry, DEXTERITY_KEYS, skill)
        values = []
        for key in DEXTERITY_KEYS:
            if key not in entry:
                raise r.fail(f"missing '{key}'", skill)
            values.append((key, r.value(RULE_SCHEMA[f"dexterity.{key}"], entry[key], skill, key)))
        out.append((skill, tuple(values)))
    return tuple(out)


def dexterity_presets() -> dict[str, dict[str, float]]:
    """{skill: {spread_mm: ..., ...}} from rulesets/dexterity-presets.yaml."""
    path = data_dir() / "dexterity-presets.yaml"
    return {skill: dict(v) for skill, v in _presets_cached(str(path), path.stat().st_mtime)}
