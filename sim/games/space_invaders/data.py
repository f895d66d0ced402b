"""The data the rulebook does not print, read from YAML and validated as strictly as rulesets
(sim.config.files.DataFile: every error names the file, the key, its line and a fix): the invader
card catalog, the board's measurements (geometry) and the dexterity presets.

Shipped files live in rulesets/ as catalog-<name>.yaml, geometry-<name>.yaml and
dexterity-presets.yaml; a ruleset names them (`catalog.file: default`) or gives a path to a
file of the same form.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.config.fields import Field
from sim.config.files import DataFile
from sim.config.words import did_you_mean
from sim.errors import ConfigError
from sim.games.space_invaders import layout as L
from sim.games.space_invaders.schema import DEXTERITIES, DEXTERITY_SCHEMA, GEOMETRY_SCHEMA

ICONS = {"none": 0, "shield": L.ICON_SHIELD, "two_hit": L.ICON_TWO_HIT}
CARD_SCHEMA = {
    "count": Field("int", min=1, max=L.MAX_CARDS, doc="cards of this kind"),
    "speed": Field("int", min=1, max=3, doc="spaces a round (lines 250-252)"),
    "damage": Field("int", min=1, max=20, doc="damage to the planet (line 264)"),
    "icon": Field("choice", choices=tuple(ICONS), doc="lines 376-386"),
}
META = ("title", "assumption")  # what a data file may say besides its data
DECKS = ("level_1", "level_2", "level_3")


@functools.cache
def data_dir() -> Path:
    return Path(__file__).resolve().parent / "rulesets"


@functools.cache  # the package's own files: every ruleset load asks
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
            raise ConfigError(f"{kind} file not found: {ref}", file=source, key=key,
                              hint="Give a path relative to the working directory.")  # fmt: skip
        return path
    hint = did_you_mean(
        ref, shipped(kind), then=f"Shipped: {', '.join(shipped(kind))}; or a .yaml path"
    )
    raise ConfigError(f"unknown {kind} '{ref}'", file=source, key=key, hint=hint)


def _cached(read):
    """`read(path)` once per file content: cached by the resolved path and modification time."""
    cached = functools.lru_cache(maxsize=32)(lambda path, mtime: read(Path(path)))
    return lambda path: cached(str(Path(path).resolve()), Path(path).stat().st_mtime)


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


def _read_catalog(path: Path) -> Catalog:
    f = DataFile(path)
    f.keys(f.data, ("cards", "player_cards", *META))
    cards = f.data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise f.fail("expected a list of cards", "cards",
                     hint="For example cards: [{count: 12, speed: 1, damage: 1}].")  # fmt: skip
    speed, damage, icon = [], [], []
    for i, entry in enumerate(cards):
        card = f.values(entry, CARD_SCHEMA, f"cards[{i}].", required=("count", "speed", "damage"))
        count = card["count"]
        speed += [card["speed"]] * count
        damage += [card["damage"]] * count
        icon += [ICONS[card.get("icon", "none")]] * count
    if len(speed) > L.MAX_CARDS:
        raise f.fail(f"{len(speed)} cards; the engine holds at most {L.MAX_CARDS}", "cards")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    title = str(f.data.get("title", path.stem))
    return Catalog(title, tuple(speed), tuple(damage), tuple(icon), _player_cards(f), digest)


def _player_cards(f: DataFile) -> tuple[tuple[int, ...], ...]:
    decks = f.data.get("player_cards")
    if decks is None:
        raise f.fail("missing 'player_cards'", hint="List 4 powers for each of level_1..3.")
    f.keys(decks, DECKS, "player_cards.")
    out = []
    for level, name in enumerate(DECKS, start=1):
        deck = decks.get(name)
        where = f"player_cards.{name}"
        if not isinstance(deck, list) or len(deck) != L.CARDS_PER_LEVEL:
            raise f.fail(f"expected a list of {L.CARDS_PER_LEVEL} powers", where)
        out.append(tuple(_power(f, power, level, f"{where}[{i}]") for i, power in enumerate(deck)))
    return tuple(out)


def _power(f: DataFile, power: Any, level: int, where: str) -> int:
    """The id of a player card's power, which must be of the card's level (line 400)."""
    if power not in L.POWER_NAMES:
        raise f.fail(f"unknown power {power!r}", where,
                     hint=did_you_mean(str(power), L.POWER_NAMES))  # fmt: skip
    pid = L.POWER_NAMES.index(power)
    if pid != 0 and L.POWER_LEVEL[pid] != level:
        raise f.fail(f"{power} is a level-{L.POWER_LEVEL[pid]} power (line 400)", where)
    return pid


load_catalog = _cached(_read_catalog)


# --- geometry and dexterity presets ---------------------------------------------------------


def _read_geometry(path: Path) -> tuple[tuple[str, Any], ...]:
    f = DataFile(path)
    body = {k: v for k, v in f.data.items() if k not in META}
    f.keys(f.data, (*GEOMETRY_SCHEMA, *META))
    hint = "Copy rulesets/geometry-default.yaml and change what differs."
    values = f.values(body, GEOMETRY_SCHEMA, required=tuple(GEOMETRY_SCHEMA), hint=hint)
    return tuple((key, values[key]) for key in GEOMETRY_SCHEMA)


_geometry = _cached(_read_geometry)


def load_geometry(path: Path) -> dict[str, Any]:
    """The measurements of a geometry file, validated (keys without the `geometry.` prefix)."""
    return dict(_geometry(path))


def _read_presets(path: Path) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    f = DataFile(path)
    skills = [s for s in DEXTERITIES if s != "custom"]
    f.keys(f.data, (*skills, *META))
    out = []
    for skill in skills:
        if skill not in f.data:
            raise f.fail(f"missing preset '{skill}'")
        values = f.values(f.data[skill], DEXTERITY_SCHEMA, f"{skill}.",
                          required=tuple(DEXTERITY_SCHEMA))  # fmt: skip
        out.append((skill, tuple(values.items())))
    return tuple(out)


_presets = _cached(_read_presets)


def dexterity_presets() -> dict[str, dict[str, float]]:
    """{skill: {spread_mm: ..., ...}} from rulesets/dexterity-presets.yaml."""
    return {skill: dict(v) for skill, v in _presets(data_dir() / "dexterity-presets.yaml")}
