"""Space Invaders rulesets: the presets, and the keys filled from the data files.

A ruleset file is a YAML mapping of sections (``setup: {level: expert}``) plus ``name``,
``title`` and ``extends``; ``rulesets/space-invaders.yaml`` holds every rule key and the
other presets extend it. Loading, validation, overrides and the immutable Ruleset are the
toolkit's (sim/rulesets.py). The data keys are then filled (`fill_data_keys`): the geometry
file's measurements, the dexterity preset's numbers, the catalog's digest; a key a ruleset
sets itself wins over the file (a dexterity number only with ``dexterity.skill: custom``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sim.errors import ConfigError
from sim.games.space_invaders.data import (
    data_dir,
    dexterity_presets,
    load_catalog,
    load_geometry,
    locate,
)
from sim.games.space_invaders.schema import DEXTERITY_KEYS, FILLED, SCHEMA, cross_key_problems
from sim.rulesets import Ruleset, RulesetFamily

PRESETS = ("space-invaders", "space-invaders-no-relaunch", "space-invaders-three-rows")
DECK_KEYS = ("setup.deck_size", "chart.deck_2p", "chart.deck_3p", "chart.deck_4p")

Origin = Mapping[str, tuple[int, str]]


def fill_data_keys(given: Mapping[str, Any], origin: Origin) -> dict[str, Any]:
    """The given values completed with the data files' keys. `origin` maps a key to (rank,
    where it was set); errors name where the key at fault was set."""
    out = dict(given)
    where = _where(origin, "geometry.file")
    geometry = locate("geometry", out["geometry.file"], source=where, key="geometry.file")
    for key, value in load_geometry(geometry).items():
        out.setdefault(f"geometry.{key}", value)
    _fill_dexterity(out, origin)
    where = _where(origin, "catalog.file")
    catalog = load_catalog(locate("catalog", out["catalog.file"], source=where, key="catalog.file"))
    if "catalog.digest" in given and given["catalog.digest"] != catalog.digest:
        raise ConfigError(
            f"the catalog file's content changed (digest {catalog.digest}, the ruleset says "
            f"{given['catalog.digest']})",
            file=_where(origin, "catalog.digest"),
            key="catalog.digest",
            hint="Delete the catalog.digest key to use the file as it is.",
        )
    out["catalog.digest"] = catalog.digest
    _check_deck(out, origin, catalog.size, out["catalog.file"])
    return out


def _where(origin: Origin, key: str) -> Any:
    """The file (or --set) that set `key`, None for a key filled from a data file."""
    return origin.get(key, (-1, None))[1]


def _check_deck(values: Mapping[str, Any], origin: Origin, cards: int, catalog: str) -> None:
    """No deck can hold more cards than the catalog (named `catalog`) has (line 132)."""
    for key in DECK_KEYS:
        value = values[key]
        biggest = max(value) if isinstance(value, tuple | list) else value
        if biggest > cards:
            raise ConfigError(
                f"a deck of {biggest} cards, but the catalog {catalog} has {cards}",
                file=_where(origin, key) or _where(origin, "catalog.file"),
                key=key,
                hint="Use a smaller deck or a bigger catalog.",
            )


def _fill_dexterity(out: dict[str, Any], origin: Origin) -> None:
    skill = out["dexterity.skill"]
    keys = [f"dexterity.{k}" for k in DEXTERITY_KEYS]
    if skill == "custom":
        missing = [k for k in keys if k not in out]
        if missing:
            raise ConfigError(f"dexterity.skill is custom: give {', '.join(missing)}",
                              file=_where(origin, "dexterity.skill"), key=missing[0])  # fmt: skip
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


RULESETS = RulesetFamily(SCHEMA, PRESETS, data_dir(), cross_key_problems,
                         fill=fill_data_keys, filled=FILLED)  # fmt: skip
load_ruleset = RULESETS.load

__all__ = ["PRESETS", "RULESETS", "SCHEMA", "Ruleset", "load_ruleset"]
