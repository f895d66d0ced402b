"""Alien-raid rulesets: the rule keys, the card catalog as keys, presets and overrides.

A ruleset file is a YAML mapping of rule sections (``fuel: {max: 12}``), the metadata keys
``name``, ``title``, ``extends`` and ``catalog_file`` (the card list, relative to the file),
and an optional ``catalog:`` section overriding single card fields. The effective values hold
every rule key and every card field as ``catalog.<section>.<card>.<field>``, so
``--set catalog.ships.cruiser.price=40000`` is an override like any other.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
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
    validate,
)
from sim.errors import ConfigError
from sim.games.alien_raid import catalog as C

PRESETS = ("alien-raid", "alien-raid-other-readings")
METADATA = ("name", "title", "extends", "catalog_file")
_HUMANS = {"min": 0, "max": 10_000_000}

SCHEMA: Schema = {
    "game.turns": Field("int", min=1, max=20, doc="turns of a game"),
    "game.start_humans": Field("int", **_HUMANS, doc="humans of every captain at the start"),
    "game.red_from_turn": Field("int", min=1, max=21, doc="first turn of the red decks"),
    "game.cities_per_turn": Field(
        "int_list", min=1, max=6, length=4, doc="cities dealt per turn for 2, 3, 4, 5 players"
    ),
    "game.tasks_per_players": Field(
        "int_list", min=0, max=6, length=4, doc="tasks in play for 2, 3, 4, 5 players"
    ),
    "fuel.start": Field("int", min=0, max=40, doc="fuel limit of the first turn"),
    "fuel.step": Field("int", min=0, max=10, doc="fuel added every turn"),
    "fuel.max": Field("int", min=0, max=60, doc="the fuel limit never exceeds this"),
    "hand.ships": Field("int", min=1, max=6, doc="ships a captain may hold"),
    "hand.stations": Field("int", min=0, max=3, doc="orbital stations a captain may hold"),
    "buy.max": Field("int", min=0, max=2, doc="cards bought per turn (of the two drawn)"),
    "buy.station_redraw": Field(
        "choice", choices=("once", "repeat", "off"), doc="two stations drawn: draw two more"
    ),
    "credit.amount": Field("int", **_HUMANS, doc="humans a credit gives"),
    "credit.repay": Field("int", **_HUMANS, doc="humans repaid per credit"),
    "credit.humans_below": Field("int", **_HUMANS, doc="a credit needs fewer humans than this"),
    "credit.ships_below": Field("int", min=0, max=7, doc="... and fewer ships than this"),
    "credit.condition": Field(
        "choice", choices=("less_than", "no_more_than"), doc="strict or inclusive thresholds"
    ),
    "credit.cards": Field("int", min=0, max=100, doc="credits in a game (0 = unlimited)"),
    "credit.repay_when": Field(
        "choice", choices=("end", "earliest"), doc="at the end, or as soon as humans allow"
    ),
    "compensation.keep": Field(
        "choice", choices=("forever", "next_turn"), doc="compensation cards expire or not"
    ),
    "tasks.first": Field("int", **_HUMANS, doc="reward of a task's first place"),
    "tasks.second": Field("int", **_HUMANS, doc="reward of a task's second place"),
    "tasks.first_tie": Field(
        "choice", choices=("split", "half_each"), doc="tied first places share both rewards"
    ),
    "tasks.zero_counts": Field("bool", doc="a captain without a city of the task may place"),
    "tasks.round_down_to": Field("int", min=1, max=100_000, doc="shares rounded down to this"),
    "end.tie": Field(
        "choice", choices=("share", "most_cities"), doc="equal humans: shared win or tie-break"
    ),
}


@dataclass(frozen=True)
class Ruleset:
    """An effective, validated ruleset: rule keys and ``catalog.*`` keys (the card list's
    content, so that two files with the same cards play the same game; ``catalog_path`` says
    which file they came from)."""

    name: str
    title: str
    values: Mapping[str, Any]
    overrides: tuple[tuple[str, Any], ...] = ()
    catalog_path: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        frozen = {key: _freeze(value) for key, value in self.values.items()}
        object.__setattr__(self, "values", MappingProxyType(frozen))

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def __hash__(self) -> int:
        return hash((self.name, self.fingerprint(), self.overrides))

    @property
    def assumed_catalog(self) -> bool:
        return bool(self.values["catalog.assumed"])

    def catalog(self) -> dict[str, Any]:
        return {k: v for k, v in self.values.items() if k.startswith(C.PREFIX)}

    def nested(self) -> dict[str, Any]:
        return unflatten({k: _thaw(v) for k, v in self.values.items()})

    def to_yaml(self) -> str:
        """The effective ruleset as a YAML file that loads back to the same values."""
        head = "".join(f"# override: {k}={json.dumps(_thaw(v))}\n" for k, v in self.overrides)
        body = {
            "name": self.name,
            "title": self.title,
            "catalog_file": self.catalog_path,
            **self.nested(),
        }
        return head + yaml.dump(body, Dumper=_Dumper, sort_keys=False, allow_unicode=True)

    def fingerprint(self) -> str:
        """A short hash of the values in their order (card ids follow the catalog's order)."""
        canonical = json.dumps(list(self.values.items()), separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def with_overrides(self, overrides: Overrides, *, source: str = "--set") -> Ruleset:
        pairs = override_pairs(overrides, source=source)
        if not pairs:
            return self
        values, path = dict(self.values), self.catalog_path
        for key, value in pairs:  # a new card list first: the card keys below refer to it
            if key == "catalog_file":
                values, path = _with_catalog(values, _text(value, source), Path.cwd(), source)
        rules = {k: v for k, v in pairs if k != "catalog_file" and not k.startswith(C.PREFIX)}
        values.update(validate(rules, SCHEMA, file=source))
        cards = [(k, v) for k, v in pairs if k.startswith(C.PREFIX)]
        values.update(_catalog_overrides(values, cards, C.Where(source)))
        check_cross_keys(values, source)
        applied = self.overrides + tuple((k, _freeze(_parsed(v))) for k, v in pairs)
        return Ruleset(self.name, self.title, values, applied, path)


class _Dumper(yaml.SafeDumper):
    """Lists inline, mappings as blocks."""


_Dumper.add_representer(
    list, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, True)
)


def _freeze(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _thaw(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _text(value: Any, source: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError("expected a catalog file path", file=source, key="catalog_file")
    return value


def _parsed(value: Any) -> Any:
    """A command-line string as YAML reads it (catalog values are compared as parsed)."""
    if isinstance(value, str):
        try:
            return yaml.safe_load(value) if value else value
        except yaml.YAMLError:
            return value
    return value


# --- loading ------------------------------------------------------------------------------


def load_ruleset(
    name_or_path: str | os.PathLike[str], overrides: Overrides = (), *, source: str = "--set"
) -> Ruleset:
    """A preset name or a YAML path, with ``extends`` resolved and overrides applied."""
    chain = _resolve_chain(os.fspath(name_or_path))
    values: dict[str, Any] = {}
    catalog_ref: tuple[str, Path, str] | None = None
    for file, data in chain:
        if "catalog_file" in data:
            catalog_ref = (_text(data["catalog_file"], file), Path(file).parent, file)
        body = {k: v for k, v in data.items() if k not in METADATA and k != "catalog"}
        values.update(validate(flatten(body, file=file), SCHEMA, file=file))
    root_file = chain[0][0]
    missing = [k for k in SCHEMA if k not in values]
    if missing:
        hint = "Start from a preset, e.g. 'extends: alien-raid', to inherit every other key"
        raise ConfigError(f"missing keys: {', '.join(missing[:5])}", file=root_file, hint=hint)
    if catalog_ref is None:
        raise ConfigError(
            "no card catalog",
            file=root_file,
            key="catalog_file",
            hint="Add catalog_file: assumed-catalog.yaml or extends: alien-raid.",
        )
    ref, base, ref_file = catalog_ref
    values, path = _with_catalog(values, ref, base, ref_file)
    for file, data in chain:
        section = data.get("catalog")
        if section is not None:
            if not isinstance(section, Mapping):
                raise ConfigError("expected card fields", file=file, key="catalog")
            pairs = [(C.PREFIX + k, v) for k, v in flatten(section, file=file).items()]
            values.update(_catalog_overrides(values, pairs, C.Where(file)))
    check_cross_keys(values, root_file)
    top_file, top = chain[-1]
    name = top.get("name", Path(top_file).stem)
    ruleset = Ruleset(name, top.get("title", name), values, (), path)
    return ruleset.with_overrides(overrides, source=source)


def _rulesets_dir() -> Path:
    return Path(__file__).resolve().parent / "rulesets"


def _with_catalog(values: dict[str, Any], ref: str, base: Path, source: Any):
    """values with every catalog key replaced by those of the file `ref` (relative to base)."""
    path = Path(ref) if Path(ref).is_absolute() else base / ref
    if not path.is_file():
        raise ConfigError(f"catalog file not found: {path}", file=source, key="catalog_file")
    kept = {k: v for k, v in values.items() if not k.startswith(C.PREFIX)}
    kept.update(C.load_catalog(path))
    return kept, str(path)


def _catalog_overrides(values: Mapping[str, Any], pairs, where: C.Where) -> dict[str, Any]:
    """Checked catalog overrides: the key must name a field of a card of the catalog."""
    if not pairs:
        return {}
    changed: dict[str, Any] = {}
    for key, raw in pairs:
        if key not in values:
            raise _unknown_card_key(key, values, where)
        changed[key] = _freeze(_parsed(raw) if not isinstance(values[key], str) else raw)
    merged = {**values, **changed}
    flat = {k[len(C.PREFIX) :]: v for k, v in merged.items() if k.startswith(C.PREFIX)}
    C.check(flat, where)
    return changed


def _unknown_card_key(key: str, values: Mapping[str, Any], where: C.Where) -> ConfigError:
    known = [k for k in values if k.startswith(C.PREFIX)]
    near = nearest(key, known)
    hint = f"Did you mean '{near}'?" if near else "Cards: `sim rules show` lists every key."
    return ConfigError("unknown card field", file=where.file, key=key, hint=hint)


def _resolve_chain(ref: str) -> list[tuple[str, dict[str, Any]]]:
    chain: list[tuple[str, dict[str, Any]]] = []
    seen: list[Path] = []
    path: Path | None = _locate(ref, None)
    while path is not None:
        if path.resolve() in seen:
            raise ConfigError("extends cycle", file=path, key="extends")
        seen.append(path.resolve())
        data = read_yaml(path)
        for key in ("name", "title", "extends"):
            if key in data and not isinstance(data[key], str):
                raise ConfigError("expected a string", file=path, key=key)
        chain.append((str(path), data))
        parent = data.get("extends")
        path = _locate(parent, path) if parent is not None else None
    return chain[::-1]


def _locate(ref: str, referrer: Path | None) -> Path:
    if ref in PRESETS:
        return _rulesets_dir() / f"{ref}.yaml"
    base = referrer.parent if referrer is not None else Path()
    path = base / ref
    if ref.endswith((".yaml", ".yml")) or "/" in ref or path.is_file():
        if not path.is_file():
            raise ConfigError(
                f"ruleset file not found: {path}",
                file=referrer,
                key="extends" if referrer else None,
            )
        return path
    raise _unknown_preset(ref, referrer)


def _unknown_preset(ref: str, referrer: Path | None) -> ConfigError:
    near = nearest(ref, PRESETS)
    mean = f"Did you mean '{near}'? " if near else ""
    hint = f"{mean}Presets: {', '.join(PRESETS)}; or give a path to a .yaml file"
    return ConfigError(
        f"unknown preset '{ref}'", file=referrer, key="extends" if referrer else None, hint=hint
    )


# --- checks across keys -------------------------------------------------------------------


def check_cross_keys(values: Mapping[str, Any], source: Any) -> None:
    if values["fuel.max"] < values["fuel.start"]:
        raise ConfigError(
            f"fuel.max ({values['fuel.max']}) is below fuel.start ({values['fuel.start']})",
            file=source,
            key="fuel.max",
        )
    if values["game.red_from_turn"] > values["game.turns"] + 1:
        raise ConfigError(
            "game.red_from_turn is after the last turn",
            file=source,
            key="game.red_from_turn",
            hint=f"At most game.turns + 1 "
            f"({values['game.turns'] + 1}), which never uses the red decks.",
        )


def check_players(ruleset: Ruleset, players: int) -> None:
    """Refuse a player count the catalog cannot deal 10 turns of cities for."""
    per_turn = ruleset["game.cities_per_turn"][players - 2]
    kept, needed = C.cities_needed(ruleset.values, players, per_turn, ruleset["game.turns"])
    if kept < needed:
        raise ConfigError(
            f"{players} players keep {kept} cities, but {ruleset['game.turns']} turns of "
            f"{per_turn} cities need {needed}",
            file=ruleset.catalog_path or None,
            key="cities",
            hint="Add cities to the catalog, or lower game.cities_per_turn.",
        )
