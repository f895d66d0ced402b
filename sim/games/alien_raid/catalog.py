"""The card catalog: every card of the game as YAML, checked as strictly as a ruleset.

A catalog file declares its vocabulary (``regions``, ``types``, ``classes``) and six sections of
cards by name: ``ships``, ``stations``, ``cities``, ``armies``, ``compensations``, ``tasks``
(their fields: `card_schemas`; the card texts use the language of traits.py). Its keys become
ruleset keys ``catalog.<section>.<card>.<field>`` (ruleset.py), so any field is set like a
rule: ``--set catalog.ships.cruiser.price=40000``. Every error names the key (the card's
name is in it) and, in a file, its line (sim.config.files.DataFile); a card naming an unknown class,
region, type, trait or effect is refused.

A card field the engine reads names its slot in the card's block of the params array
(params.py): a ship's or station's model block, a city's block, or, for armies, compensation
cards and tasks, the per-card arrays (the slot of the first card; the card's index added).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sim.config.fields import Field, Schema, coerce
from sim.config.files import DataFile
from sim.config.words import did_you_mean
from sim.errors import ConfigError
from sim.games.alien_raid import layout as L
from sim.games.alien_raid import traits as T

SECTIONS = ("ships", "stations", "cities", "armies", "compensations", "tasks")
VOCABULARY = ("regions", "types", "classes")
TAGS = ("none", "3+", "4+", "5+")  # rulebook line 44: cards set aside below that many players
PREFIX = "catalog."
HEADER_SCHEMA: Schema = {
    "assumed": Field("bool", doc="true: not the designer's card list"),
    "title": Field("str", doc="what the catalog is"),
    "note": Field("str", doc="what a reader should know about it"),
    "regions": Field("str_list", doc="the regions of the cities (line 164)"),
    "types": Field("str_list", doc="the city types (scientific, cultural, industrial)"),
    "classes": Field("str_list", doc="the ship classes (saucer, tripod, cruiser)"),
}
VOCABULARY_LIMITS = {"regions": L.MAX_REGIONS, "types": L.MAX_TYPES, "classes": L.MAX_CLASSES}
DEFAULTS = {"title": "", "traits": (), "tag": "none"}  # fields a card may leave out
LIMITS = {  # card models the engine holds per section
    "ships": L.MAX_MODELS,
    "cities": L.MAX_CITIES,
    "armies": L.MAX_ARMY_MODELS,
    "compensations": L.MAX_COMP_MODELS,
    "tasks": L.MAX_TASK_MODELS,
}

_TITLE = Field("str", doc="the printed name")


def _int(low: int, high: int, slot: int, doc: str) -> Field:
    return Field("int", min=low, max=high, slot=slot, doc=doc)


def _colour(slot: int) -> Field:
    """A blue or red deck, read by the engine as its L.DECK_NAMES index."""
    return Field("choice", choices=T.DECK_COLOURS, slot=slot, shift=1, doc="blue or red deck")


def _tag(slot: int) -> Field:
    """A player tag, read by the engine as the fewest players that keep the card."""
    return Field("choice", choices=TAGS, slot=slot, shift=2, doc="set aside below (line 44)")


def card_schemas(vocab: T.Vocabulary) -> dict[str, Schema]:
    """Every card field by section; classes, regions and types are the catalog's own words."""
    count = {"low": 0, "high": 100, "doc": "cards of this kind"}
    humans = {"low": 0, "high": 5_000_000}
    return {
        "ships": {
            "title": _TITLE,
            "class": Field("choice", choices=vocab.classes, slot=L.M_CLASS, doc="ship class"),
            "deck": Field(
                "choice",
                choices=L.DECK_NAMES,
                slot=L.M_DECK,
                doc="start (every captain's first ship), blue or red",
            ),
            "count": _int(**count, slot=L.M_COUNT),
            "price": _int(**humans, slot=L.M_PRICE, doc="humans paid"),
            "attack": _int(0, 99, L.M_ATTACK, "printed attack"),
            "fuel": _int(0, 20, L.M_FUEL, "fuel to send it"),
            "traits": Field("str_list", doc="texts in the traits language (traits.py)"),
        },
        "stations": {
            "title": _TITLE,
            "deck": _colour(L.M_DECK),
            "count": _int(**count, slot=L.M_COUNT),
            "price": _int(**humans, slot=L.M_PRICE, doc="humans paid"),
            "effect": Field("str", doc="a station effect (traits.py)"),
        },
        "cities": {
            "title": _TITLE,
            "region": Field("choice", choices=vocab.regions, slot=L.CT_REGION, doc="region"),
            "type": Field("choice", choices=vocab.types, slot=L.CT_TYPE, doc="city type"),
            "raid": _int(**humans, slot=L.CT_RAID, doc="humans of a raid"),
            "catch": _int(**humans, slot=L.CT_CATCH, doc="humans of a completed catch"),
            "armies": _int(1, L.MAX_CATCH, L.CT_ARMIES, "army cards drawn for a catch"),
            "tag": _tag(L.CT_MIN_PLAYERS),
            "deck": _colour(L.CT_DECK),
        },
        "armies": {
            "title": _TITLE,
            "count": _int(**count, slot=L.P_ARMY_COUNT),
            "attack": _int(0, 99, L.P_ARMY_ATTACK, "the army's attack"),
        },
        "compensations": {
            "title": _TITLE,
            "count": _int(**count, slot=L.P_COMP_COUNT),
            "effect": Field("str", doc="a compensation effect (traits.py)"),
        },
        "tasks": {
            "title": _TITLE,
            "counts": Field("str", doc="the city cards the task counts (traits.py)"),
            "tag": _tag(L.P_TASK_MIN_PLAYERS),
        },
    }


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
        head, _, rest = key.removeprefix(PREFIX).partition(".") if prefixed else key.partition(".")
        if head == section and rest:
            names[rest.partition(".")[0]] = None
    return list(names)


def min_players(tag: str) -> int:
    """The fewest players that keep a card tagged `tag` (rulebook line 44)."""
    return 2 + TAGS.index(tag)


def cities_needed(flat: Mapping[str, Any], players: int, per_turn: int, turns: int
                  ) -> tuple[int, int]:  # fmt: skip
    """(cities kept at this player count, cities the turns deal)."""
    tags = [flat[f"{PREFIX}cities.{name}.tag"] for name in cards(flat, "cities")]
    return sum(min_players(tag) <= players for tag in tags), per_turn * turns


def order_digest(flat: Mapping[str, Any]) -> str:
    """A short hash of the card names in catalog order: the engine numbers cards in it."""
    names = [f"{section}.{name}" for section in SECTIONS for name in cards(flat, section)]
    return hashlib.sha256(" ".join(names).encode()).hexdigest()[:16]


# --- reading a catalog file -----------------------------------------------------------------

# (message, key without the catalog. prefix, hint) -> the error to raise, located
Fail = Callable[..., ConfigError]


@functools.lru_cache(maxsize=16)
def _read(path: str, modified: int) -> tuple[tuple[str, Any], ...]:
    f = DataFile(path)
    f.keys(f.data, (*HEADER_SCHEMA, *SECTIONS))
    missing = [word for word in VOCABULARY if word not in f.data]
    if missing:
        raise f.fail(f"missing keys: {', '.join(missing)}",
                     hint="Declare the catalog's words, e.g. regions: [europe, asia].")  # fmt: skip
    flat: dict[str, Any] = {"assumed": False, "title": Path(path).stem, "note": ""}
    flat.update({key: f.data[key] for key in HEADER_SCHEMA if key in f.data})
    schemas = card_schemas(vocabulary(_header(flat, f.fail)))
    for section in SECTIONS:
        found = f.data.get(section) or {}
        f.keys(found, list(found), f"{section}.")  # a mapping of card names
        for name, fields in found.items():
            where = f"{section}.{name}"
            if not isinstance(name, str) or not name or not name.replace("-", "").isalnum():
                raise f.fail("a card name is letters, digits and dashes", where,
                             hint="For example new-york or battle-cruiser.")  # fmt: skip
            f.keys(fields, list(schemas[section]), f"{where}.")
            needed = [k for k in schemas[section] if k not in fields and k not in DEFAULTS]
            if needed:
                raise f.fail(f"missing fields: {', '.join(needed)}", where)
            for key in schemas[section]:
                flat[f"{where}.{key}"] = fields.get(key, DEFAULTS.get(key))
    return tuple(check(flat, f.fail).items())


def load_catalog(path: str | Path) -> dict[str, Any]:
    """A catalog file's checked keys (without the catalog. prefix), in the file's order; read
    again only when the file changes."""
    resolved = Path(path).resolve()
    return dict(_read(str(resolved), resolved.stat().st_mtime_ns))


# --- checking -------------------------------------------------------------------------------


def check(flat: Mapping[str, Any], fail: Fail) -> dict[str, Any]:
    """Every key of a catalog (without the prefix) checked and converted, then the card texts
    and the catalog as a whole; `fail` makes the error for a key."""
    out = _header(flat, fail)
    vocab = vocabulary(out)
    for section, schema in card_schemas(vocab).items():
        names = cards(flat, section)
        if section in LIMITS and len(names) > LIMITS[section]:
            raise fail(f"at most {LIMITS[section]} {section} fit the engine", section)
        for name in names:
            for field, spec in schema.items():
                key = f"{section}.{name}.{field}"
                out[key] = _coerce(spec, flat[key], key, fail)
            _check_texts(out, section, name, vocab, fail)
    _check_whole(out, fail)
    return out


def _header(flat: Mapping[str, Any], fail: Fail) -> dict[str, Any]:
    """The header keys checked and converted, the vocabulary among them: the card fields'
    choices are made of its words, so it is checked before any card."""
    out = {key: _coerce(field, flat[key], key, fail) for key, field in HEADER_SCHEMA.items()}
    for word in VOCABULARY:
        limit = VOCABULARY_LIMITS[word]
        if not out[word] or len(out[word]) > limit or len(set(out[word])) != len(out[word]):
            raise fail(f"expected 1 to {limit} distinct {word}", word)
    return out


def _coerce(field: Field, value: Any, key: str, fail: Fail) -> Any:
    try:
        return coerce(field, value, key=key)
    except ConfigError as err:
        raise fail(err.message, key, hint=err.hint) from None


_TEXTS = {
    ("stations", "effect"): lambda text, vocab: T.parse_station(text),
    ("compensations", "effect"): lambda text, vocab: T.parse_compensation(text),
    ("tasks", "counts"): T.parse_task,
}


def _check_texts(flat: Mapping[str, Any], section: str, name: str, vocab: T.Vocabulary,
                 fail: Fail) -> None:  # fmt: skip
    """A card's texts in the language of traits.py."""
    where = f"{section}.{name}"
    for (of, field), parse in _TEXTS.items():
        if of == section:
            try:
                parse(flat[f"{where}.{field}"], vocab)
            except T.LanguageError as err:
                raise fail(str(err), f"{where}.{field}", hint=err.hint) from None
    if section != "ships":
        return
    attacks = 0
    for i, text in enumerate(flat[f"{where}.traits"]):
        try:
            attacks += T.parse_trait(text, vocab).kind == "attack"
        except T.LanguageError as err:
            raise fail(str(err), f"{where}.traits[{i}]", hint=err.hint) from None
    if attacks > L.MAX_TRAITS:
        raise fail(f"at most {L.MAX_TRAITS} attack traits per ship, got {attacks}",
                   f"{where}.traits")  # fmt: skip


def _check_whole(flat: Mapping[str, Any], fail: Fail) -> None:
    """What the rules need of the catalog as a whole (the sizes the engine holds)."""

    def get(section: str, name: str, field: str) -> Any:
        return flat[f"{section}.{name}.{field}"]

    ships, stations = cards(flat, "ships"), cards(flat, "stations")
    if len(ships) + len(stations) > L.MAX_MODELS:
        raise fail(f"at most {L.MAX_MODELS} ship and station models together", "stations")
    if not any(get("ships", n, "deck") == "start" and get("ships", n, "count") for n in ships):
        raise fail(
            "no starting ship (a ship with deck: start)",
            "ships",
            hint="Rulebook line 52: every captain starts with a training saucer.",
        )
    in_decks = sum(get(section, n, "count") for section, names in
                   (("ships", ships), ("stations", stations))
                   for n in names if get(section, n, "deck") != "start")  # fmt: skip
    if in_decks > L.MAX_SHIP_CARDS:
        raise fail(f"the ship decks hold at most {L.MAX_SHIP_CARDS} cards, got {in_decks}",
                   "ships")  # fmt: skip
    for colour in T.DECK_COLOURS:
        if not any(get("ships", n, "deck") == colour and get("ships", n, "count") for n in ships):
            raise fail(f"no ship in the {colour} deck", "ships")
    for section, limit in (("armies", L.MAX_ARMY_CARDS), ("compensations", L.MAX_COMP_CARDS)):
        total = sum(get(section, n, "count") for n in cards(flat, section))
        if not 1 <= total <= limit:
            raise fail(f"expected 1 to {limit} {section} cards, got {total}", section)


# --- the catalog as ruleset keys --------------------------------------------------------------


def card_key_error(key: str, known: list[str], source: Any) -> ConfigError:
    """A catalog key that names no field of a card of the catalog."""
    hint = did_you_mean(key, known, otherwise="`sim rules show --game alien-raid` lists them.")
    return ConfigError("unknown card field", file=source, key=key, hint=hint)


@functools.cache  # the package's own files: every ruleset load asks
def shipped() -> tuple[str, ...]:
    """The names of the shipped catalogs (rulesets/catalog-<name>.yaml)."""
    folder = Path(__file__).resolve().parent / "rulesets"
    return tuple(sorted(p.stem.removeprefix("catalog-") for p in folder.glob("catalog-*.yaml")))


def catalog_path(ref: str, *, source: Any) -> Path:
    """A shipped catalog's name, or a YAML file's path (relative to the working directory)."""
    if ref in shipped():
        return Path(__file__).resolve().parent / "rulesets" / f"catalog-{ref}.yaml"
    path = Path(ref)
    if path.is_file():
        return path
    hint = did_you_mean(ref, shipped(), then=f"Shipped: {', '.join(shipped())}; or a path to a "
                        "YAML file relative to the working directory.")  # fmt: skip
    raise ConfigError(f"no catalog file {ref!r}", file=source, key="catalog.file", hint=hint)
