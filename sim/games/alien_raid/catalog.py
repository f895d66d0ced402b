"""The card catalog: every card of the game as YAML, read with line numbers and checked strictly.

A catalog file declares its vocabulary (``regions``, ``types``, ``classes``) and six sections of
cards by name: ``ships``, ``stations``, ``cities``, ``armies``, ``compensations``, ``tasks``
(fields below; the card texts use the language of traits.py). It becomes flat ruleset keys
``catalog.<section>.<card>.<field>``, so any field can be overridden like a rule:
``--set catalog.ships.cruiser.price=40000``. A card naming an unknown class, region, type,
trait or effect is refused with the card's name, the file and the line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from sim.config import nearest, read_yaml
from sim.errors import ConfigError
from sim.games.alien_raid import layout as L
from sim.games.alien_raid import traits as T

SECTIONS = ("ships", "stations", "cities", "armies", "compensations", "tasks")
VOCABULARY = ("regions", "types", "classes")
HEADER = ("assumed", "title", "note", *VOCABULARY)
TAGS = ("none", "3+", "4+", "5+")  # rulebook line 44: cards set aside below that many players
PREFIX = "catalog."


@dataclass(frozen=True)
class Spec:
    kind: str  # int | text | class | region | type | deck | ship_deck | tag | traits | ...
    low: int = 0
    high: int = 10_000_000
    default: Any = None  # None: required


_COUNT = Spec("int", 0, 100)
_HUMANS = Spec("int", 0, 5_000_000)
_TITLE = Spec("text", default="")
FIELDS: dict[str, dict[str, Spec]] = {
    "ships": {
        "title": _TITLE,
        "class": Spec("class"),
        "deck": Spec("ship_deck"),
        "count": _COUNT,
        "price": _HUMANS,
        "attack": Spec("int", 0, 99),
        "fuel": Spec("int", 0, 20),
        "traits": Spec("traits", default=()),
    },
    "stations": {
        "title": _TITLE,
        "deck": Spec("deck"),
        "count": _COUNT,
        "price": _HUMANS,
        "effect": Spec("station"),
    },
    "cities": {
        "title": _TITLE,
        "region": Spec("region"),
        "type": Spec("type"),
        "raid": _HUMANS,
        "catch": _HUMANS,
        "armies": Spec("int", 1, L.MAX_CATCH),
        "tag": Spec("tag", default="none"),
        "deck": Spec("deck"),
    },
    "armies": {"title": _TITLE, "count": _COUNT, "attack": Spec("int", 0, 99)},
    "compensations": {"title": _TITLE, "count": _COUNT, "effect": Spec("compensation")},
    "tasks": {"title": _TITLE, "counts": Spec("task"), "tag": Spec("tag", default="none")},
}
LIMITS = {
    "ships": L.MAX_MODELS,
    "cities": L.MAX_CITIES,
    "armies": L.MAX_ARMY_MODELS,
    "compensations": L.MAX_COMP_MODELS,
    "tasks": L.MAX_TASK_MODELS,
}


class Where:
    """Where a catalog key came from: a file and its line numbers, or an override source."""

    def __init__(self, file: str | os.PathLike[str] | None, lines: Mapping[str, int] | None = None):
        self.file = os.fspath(file) if file is not None else None
        self.lines = dict(lines or {})

    def error(self, message: str, key: str, hint: str | None = None) -> ConfigError:
        line = None
        probe = key
        while probe and line is None:  # the field's line, else the card's
            line = self.lines.get(probe)
            probe = probe.rpartition(".")[0]
        return ConfigError(message, file=self.file, key=PREFIX + key, line=line, hint=hint)


# --- reading -------------------------------------------------------------------------------


def load_catalog(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The catalog file as flat checked keys ``catalog.<section>.<card>.<field>``."""
    data = read_yaml(path)  # a missing file or bad YAML is a ConfigError with the line
    lines = _line_numbers(Path(path).read_text(encoding="utf-8"))
    where = Where(path, lines)
    for key in data:
        if key not in HEADER and key not in SECTIONS:
            near = nearest(str(key), [*HEADER, *SECTIONS])
            hint = f"Did you mean '{near}'?" if near else f"Sections: {', '.join(SECTIONS)}."
            raise where.error("unknown catalog section", str(key), hint)
    flat: dict[str, Any] = {}
    flat["assumed"] = data.get("assumed", False)
    flat["title"] = data.get("title", Path(path).stem)
    flat["note"] = data.get("note", "")
    for word in VOCABULARY:
        flat[word] = data.get(word)
    for section in SECTIONS:
        cards = data.get(section) or {}
        if not isinstance(cards, Mapping):
            raise where.error("expected a mapping of card names to fields", section)
        for name, fields in cards.items():
            _check_name(section, name, where)
            if not isinstance(fields, Mapping):
                raise where.error(
                    f"card '{name}' ({section}): expected a mapping of fields", f"{section}.{name}"
                )
            for field, value in fields.items():
                if field not in FIELDS[section]:
                    near = nearest(str(field), list(FIELDS[section]))
                    hint = (
                        f"Did you mean '{near}'?"
                        if near
                        else f"Fields: {', '.join(FIELDS[section])}."
                    )
                    raise where.error(
                        f"card '{name}' ({section}): unknown field '{field}'",
                        f"{section}.{name}.{field}",
                        hint,
                    )
                flat[f"{section}.{name}.{field}"] = value
            for field, spec in FIELDS[section].items():
                key = f"{section}.{name}.{field}"
                if key not in flat:
                    if spec.default is None:
                        raise where.error(
                            f"card '{name}' ({section}): missing field '{field}'",
                            f"{section}.{name}",
                        )
                    flat[key] = spec.default
    check(flat, where)
    return {PREFIX + k: _freeze(v) for k, v in flat.items()}


def _check_name(section: str, name: Any, where: Where) -> None:
    if not isinstance(name, str) or not name or "." in name or " " in name:
        raise where.error(
            f"card name {name!r} ({section}): use letters, digits and dashes",
            f"{section}.{name}",
            "For example new-york or battle-cruiser.",
        )


def _line_numbers(text: str) -> dict[str, int]:
    """'ships.cruiser' -> line of the card, 'ships.cruiser.traits[0]' -> line of the item."""
    root = yaml.compose(text)
    out: dict[str, int] = {}
    if not isinstance(root, yaml.MappingNode):
        return out
    for key_node, section in root.value:
        out[str(key_node.value)] = key_node.start_mark.line + 1
        if not isinstance(section, yaml.MappingNode):
            continue
        for card_key, card in section.value:
            card_path = f"{key_node.value}.{card_key.value}"
            out[card_path] = card_key.start_mark.line + 1
            if not isinstance(card, yaml.MappingNode):
                continue
            for field_key, value in card.value:
                path = f"{card_path}.{field_key.value}"
                out[path] = field_key.start_mark.line + 1
                if isinstance(value, yaml.SequenceNode):
                    for i, item in enumerate(value.value):
                        out[f"{path}[{i}]"] = item.start_mark.line + 1
    return out


def _freeze(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


# --- checking ------------------------------------------------------------------------------


def vocabulary(flat: Mapping[str, Any]) -> T.Vocabulary:
    """The declared regions, types and classes (keys with or without the catalog. prefix)."""

    def words(name: str) -> tuple[str, ...]:
        return tuple(flat.get(name, flat.get(PREFIX + name)) or ())

    return T.Vocabulary(words("regions"), words("types"), words("classes"))


def cards(flat: Mapping[str, Any], section: str) -> list[str]:
    """Card names of a section in catalog order. `flat` is a catalog's own keys, or ruleset
    values where the catalog keys carry the prefix (and rule keys such as tasks.first do not)."""
    prefixed = any(key.startswith(PREFIX) for key in flat)
    names: dict[str, None] = {}
    for key in flat:
        if prefixed and not key.startswith(PREFIX):
            continue
        head, _, rest = key[len(PREFIX) :].partition(".") if prefixed else key.partition(".")
        if head == section and rest:
            names[rest.partition(".")[0]] = None
    return list(names)


def check(flat: Mapping[str, Any], where: Where) -> None:
    """Every field of every card, then the catalog as a whole (raises ConfigError)."""
    _check_header(flat, where)
    vocab = vocabulary(flat)
    for section in SECTIONS:
        names = cards(flat, section)
        if section in LIMITS and len(names) > LIMITS[section]:
            raise where.error(f"at most {LIMITS[section]} {section} models fit the engine", section)
        for name in names:
            for field, spec in FIELDS[section].items():
                key = f"{section}.{name}.{field}"
                check_field(spec, flat[key], vocab, where, key, name, section)
    _check_whole(flat, where)


def _check_header(flat: Mapping[str, Any], where: Where) -> None:
    if not isinstance(flat["assumed"], bool):
        raise where.error("expected true or false", "assumed")
    limits = {"regions": L.MAX_REGIONS, "types": L.MAX_TYPES, "classes": L.MAX_CLASSES}
    for word, limit in limits.items():
        value = flat[word]
        if (
            not isinstance(value, list | tuple)
            or not value
            or not all(isinstance(v, str) for v in value)
        ):
            raise where.error(
                f"expected a list of {word} (names)", word, f"For example {word}: [a, b]."
            )
        if len(value) > limit or len(set(value)) != len(value):
            raise where.error(f"expected at most {limit} distinct {word}", word)


def check_field(
    spec: Spec, value: Any, vocab: T.Vocabulary, where: Where, key: str, name: str, section: str
) -> None:
    """One field of one card; the error names the card, the key and the line."""

    def fail(problem: str, hint: str | None = None) -> ConfigError:
        return where.error(f"card '{name}' ({section}): {problem}", key, hint)

    kind = spec.kind
    if kind == "int":
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or not spec.low <= value <= spec.high
        ):
            raise fail(f"expected an integer in {spec.low}..{spec.high}, got {value!r}")
    elif kind == "text":
        if not isinstance(value, str):
            raise fail(f"expected a text, got {value!r}")
    elif kind in ("class", "region", "type", "deck", "ship_deck", "tag"):
        known = {
            "class": vocab.classes,
            "region": vocab.regions,
            "type": vocab.types,
            "deck": T.DECK_COLOURS,
            "ship_deck": L.DECK_NAMES,
            "tag": TAGS,
        }[kind]
        if value not in known:
            near = nearest(str(value), known)
            what = {"ship_deck": "deck", "class": "ship class", "type": "city type"}.get(kind, kind)
            hint = f"Did you mean '{near}'?" if near else f"Known: {', '.join(known)}."
            raise fail(f"unknown {what} {value!r}", hint)
    else:
        _check_text(kind, value, vocab, fail, where, key, name, section)


def _check_text(kind, value, vocab, fail, where, key, name, section) -> None:
    parsers = {
        "station": T.parse_station,
        "compensation": T.parse_compensation,
        "task": lambda t: T.parse_task(t, vocab),
    }
    if kind in parsers:
        try:
            parsers[kind](value)
        except T.LanguageError as err:
            raise fail(str(err), err.hint) from None
        return
    if not isinstance(value, list | tuple):
        raise fail(
            f"expected a list of traits, got {value!r}", "For example traits: [+3 attack if alone]."
        )
    attacks = 0
    for i, text in enumerate(value):
        try:
            trait = T.parse_trait(text, vocab)
        except T.LanguageError as err:
            raise where.error(
                f"card '{name}' ({section}): {err}", f"{key}[{i}]", err.hint
            ) from None
        attacks += trait.kind == "attack"
    if attacks > L.MAX_TRAITS:
        raise fail(f"at most {L.MAX_TRAITS} attack traits per ship, got {attacks}")


def _check_whole(flat: Mapping[str, Any], where: Where) -> None:
    def get(section: str, name: str, field: str) -> Any:
        return flat.get(f"{section}.{name}.{field}", flat.get(f"{PREFIX}{section}.{name}.{field}"))

    ships, stations = cards(flat, "ships"), cards(flat, "stations")
    if len(ships) + len(stations) > L.MAX_MODELS:
        raise where.error(f"at most {L.MAX_MODELS} ship and station models together", "stations")
    starting = [n for n in ships if get("ships", n, "deck") == "start" and get("ships", n, "count")]
    if not starting:
        raise where.error(
            "no starting ship (a ship with deck: start)",
            "ships",
            "Rulebook line 52: every captain starts with a training saucer.",
        )
    deck_cards = sum(
        get(s, n, "count")
        for s, names in (("ships", ships), ("stations", stations))
        for n in names
        if get(s, n, "deck") != "start"
    )
    if deck_cards > L.MAX_SHIP_CARDS:
        raise where.error(
            f"the ship decks hold at most {L.MAX_SHIP_CARDS} cards, got {deck_cards}", "ships"
        )
    for colour in T.DECK_COLOURS:
        if not any(get("ships", n, "deck") == colour and get("ships", n, "count") for n in ships):
            raise where.error(f"no ship in the {colour} deck", "ships")
    for section, limit in (("armies", L.MAX_ARMY_CARDS), ("compensations", L.MAX_COMP_CARDS)):
        total = sum(get(section, n, "count") for n in cards(flat, section))
        if not 1 <= total <= limit:
            raise where.error(f"expected 1..{limit} {section} cards, got {total}", section)
    if len(cards(flat, "cities")) > L.MAX_CITIES:
        raise where.error(f"at most {L.MAX_CITIES} cities", "cities")


def min_players(tag: str) -> int:
    """The fewest players that keep a card tagged `tag` (rulebook line 44)."""
    return 2 if tag == "none" else int(tag[0])


def cities_needed(
    flat: Mapping[str, Any], players: int, per_turn: int, turns: int
) -> tuple[int, int]:
    """(cities kept at this player count, cities the turns deal)."""
    kept = sum(
        1 for n in cards(flat, "cities") if min_players(flat[f"{PREFIX}cities.{n}.tag"]) <= players
    )
    return kept, per_turn * turns
