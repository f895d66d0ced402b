"""Space Invaders rulesets: preset loading, overrides and the immutable Ruleset.

A ruleset file is a YAML mapping of sections (``setup: {level: expert}``) plus ``name``,
``title`` and ``extends``. ``rulesets/space-invaders.yaml`` holds every rule key; the other
presets extend it. The data keys are then filled (schema.py): the geometry file's
measurements, the dexterity preset's numbers, the catalog's digest; a key a ruleset sets
itself wins over the file (a dexterity number only with ``dexterity.skill: custom``).
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

from sim.config import Overrides, flatten, nearest, override_pairs, read_yaml, unflatten, validate
from sim.errors import ConfigError
from sim.games.space_invaders.data import (
    data_dir,
    dexterity_presets,
    load_catalog,
    load_geometry,
    locate,
)
from sim.games.space_invaders.schema import DEXTERITY_KEYS, SCHEMA, cross_key_problems

PRESETS = (
    "space-invaders",
    "space-invaders-no-relaunch",
    "space-invaders-three-rows",
)
METADATA = ("name", "title", "extends")
FILLED = (
    "catalog.digest",
    *(f"dexterity.{k}" for k in DEXTERITY_KEYS),
    *(k for k in SCHEMA if k.startswith("geometry.") and k != "geometry.file"),
)
_ORDER = {key: i for i, key in enumerate(SCHEMA)}


@dataclass(frozen=True)
class Ruleset:
    """An effective, validated ruleset. ``values`` maps every dotted key to its value."""

    name: str
    title: str
    values: Mapping[str, Any]
    overrides: tuple[tuple[str, Any], ...] = ()
    explicit: frozenset[str] = field(default=frozenset(), compare=False)

    def __post_init__(self) -> None:
        frozen = {k: tuple(v) if isinstance(v, list) else v for k, v in self.values.items()}
        object.__setattr__(self, "values", MappingProxyType(frozen))

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def __hash__(self) -> int:
        return hash((self.name, self.fingerprint(), self.overrides))

    def to_yaml(self) -> str:
        """The effective ruleset as YAML that loads back to the same values."""
        head = "".join(f"# override: {k}={json.dumps(_thaw(v))}\n" for k, v in self.overrides)
        ordered = sorted(self.values, key=lambda k: _ORDER.get(k, len(_ORDER)))
        body = {
            "name": self.name,
            "title": self.title,
            **unflatten({k: _thaw(self.values[k]) for k in ordered}),
        }
        return head + yaml.dump(body, Dumper=_Dumper, sort_keys=False, allow_unicode=True)

    def fingerprint(self) -> str:
        canonical = json.dumps(dict(self.values), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def with_overrides(self, overrides: Overrides, *, source: str = "--set") -> Ruleset:
        checked = validate(dict(override_pairs(overrides, source=source)), SCHEMA, file=source)
        if not checked:
            return self
        explicit = {k: v for k, v in self.values.items() if k in self.explicit}
        origin = dict.fromkeys(explicit, (0, f"ruleset {self.name}"))
        # a new data file or skill refills what came from the old one
        origin.update(dict.fromkeys(checked, (1, source)))
        values = _fill({**explicit, **checked}, origin)
        applied = self.overrides + tuple(checked.items())
        return Ruleset(self.name, self.title, values, applied, frozenset({*explicit, *checked}))


class _Dumper(yaml.SafeDumper):
    """Lists inline, mappings as blocks."""


_Dumper.add_representer(
    tuple, lambda d, data: d.represent_sequence("tag:yaml.org,2002:seq", data, True)
)
_Dumper.add_representer(
    list, lambda d, data: d.represent_sequence("tag:yaml.org,2002:seq", data, True)
)


def _thaw(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# --- filling the data keys -----------------------------------------------------------------


def _fill(values: dict[str, Any], origin: Mapping[str, Any]) -> dict[str, Any]:
    """Complete explicit values with the data files' keys, then check across keys. `origin`
    maps a key to (rank, where it was set); errors blame the latest set key."""
    out = dict(values)
    where = _where(origin, "geometry.file")
    geometry = load_geometry(
        locate("geometry", out["geometry.file"], source=where, key="geometry.file")
    )
    for key, value in geometry.items():
        out.setdefault(f"geometry.{key}", value)
    _fill_dexterity(out, origin)
    where = _where(origin, "catalog.file")
    catalog = load_catalog(locate("catalog", out["catalog.file"], source=where, key="catalog.file"))
    if "catalog.digest" in values and values["catalog.digest"] != catalog.digest:
        raise ConfigError(
            f"the catalog file's content changed (digest {catalog.digest}, the ruleset says "
            f"{values['catalog.digest']})",
            file=_where(origin, "catalog.digest"),
            key="catalog.digest",
            hint="Delete the catalog.digest key to use the file as it is.",
        )
    out["catalog.digest"] = catalog.digest
    _check_deck(out, origin, catalog.size)
    for keys, message in cross_key_problems(out):
        blamed = max(keys, key=lambda k: origin.get(k, (-1, None))[0])
        raise ConfigError(message, file=_where(origin, blamed), key=blamed)
    return out


def _where(origin: Mapping[str, Any], key: str) -> Any:
    """The file (or --set) that set `key`, None for a key filled from a data file."""
    return origin.get(key, (-1, None))[1]


def _check_deck(values: Mapping[str, Any], origin: Mapping[str, Any], cards: int) -> None:
    """No deck can hold more cards than the catalog has (line 132)."""
    for key in ("setup.deck_size", "chart.deck_2p", "chart.deck_3p", "chart.deck_4p"):
        value = values[key]
        biggest = max(value) if isinstance(value, tuple | list) else value
        if biggest > cards:
            raise ConfigError(
                f"a deck of {biggest} cards, but the catalog has {cards}",
                file=_where(origin, key) or _where(origin, "catalog.file"),
                key=key,
                hint="Use a smaller deck or a bigger catalog.",
            )


def _fill_dexterity(out: dict[str, Any], origin: Mapping[str, Any]) -> None:
    skill = out["dexterity.skill"]
    keys = [f"dexterity.{k}" for k in DEXTERITY_KEYS]
    if skill == "custom":
        missing = [k for k in keys if k not in out]
        if missing:
            raise ConfigError(
                f"dexterity.skill is custom: give {', '.join(missing)}",
                file=_where(origin, "dexterity.skill"),
                key=missing[0],
            )
        return
    preset = dexterity_presets()[skill]
    for key in DEXTERITY_KEYS:
        dotted = f"dexterity.{key}"
        if dotted in out and out[dotted] != preset[key]:
            raise ConfigError(
                f"dexterity.skill is {skill} (spread {preset['spread_mm']} mm); its numbers "
                "come from the preset",
                file=_where(origin, dotted),
                key=dotted,
                hint="Set dexterity.skill=custom to give your own numbers.",
            )
        out[dotted] = preset[key]


# --- loading -------------------------------------------------------------------------------


def load_ruleset(
    name_or_path: str | os.PathLike[str], overrides: Overrides = (), *, source: str = "--set"
) -> Ruleset:
    """A preset name or a YAML path, `extends` resolved, overrides applied; every error names
    its file (or `source` for the overrides) and key."""
    chain = _chain(os.fspath(name_or_path))
    values: dict[str, Any] = {}
    origin: dict[str, Any] = {}
    for rank, (file, data) in enumerate(chain):
        body = {k: v for k, v in data.items() if k not in METADATA}
        checked = validate(flatten(body, file=file), SCHEMA, file=file)
        values.update(checked)
        origin.update(dict.fromkeys(checked, (rank, file)))
    missing = [k for k in SCHEMA if k not in values and k not in FILLED]
    if missing:
        raise ConfigError(
            f"missing keys: {', '.join(missing[:5])}",
            file=chain[0][0],
            hint="Start from a preset: extends: space-invaders",
        )
    top_file, top = chain[-1]
    name = top.get("name", Path(top_file).stem)
    filled = _fill(values, origin)
    ruleset = Ruleset(name, top.get("title", name), filled, (), frozenset(values))
    return ruleset.with_overrides(overrides, source=source)


def _chain(ref: str) -> list[tuple[str, dict[str, Any]]]:
    chain: list[tuple[str, dict[str, Any]]] = []
    seen: set[Path] = set()
    path: Path | None = _locate(ref, None)
    while path is not None:
        if path.resolve() in seen:
            raise ConfigError("extends cycle", file=path, key="extends")
        seen.add(path.resolve())
        data = read_yaml(path)
        for key in METADATA:
            if key in data and not isinstance(data[key], str):
                raise ConfigError("expected a string", file=path, key=key)
        chain.append((str(path), data))
        parent = data.get("extends")
        path = _locate(parent, path) if parent is not None else None
    return chain[::-1]


def _locate(ref: str, referrer: Path | None) -> Path:
    if ref in PRESETS:
        return data_dir() / f"{ref}.yaml"
    path = (referrer.parent if referrer is not None else Path()) / ref
    if path.is_file():
        return path
    if ref.endswith((".yaml", ".yml")) or "/" in ref:
        raise ConfigError(
            f"ruleset file not found: {path}", file=referrer, key="extends" if referrer else None
        )
    near = nearest(ref, PRESETS)
    mean = f"Did you mean '{near}'? " if near else ""
    raise ConfigError(
        f"unknown preset '{ref}'",
        file=referrer,
        key="extends" if referrer else None,
        hint=f"{mean}Presets: {', '.join(PRESETS)}; or a .yaml path",
    )
