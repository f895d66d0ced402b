"""A validated ruleset (rules and card catalog) as the engine's int64 params array, and the
card names behind every id (models: ships then stations, in catalog order).

Every rule key and card field whose Field names a slot (schema.py, catalog.py) is stored by
sim.rulesets.params_array, a card's fields into that card's block; this module adds the
sizes and what the card texts say (traits.py)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.games.alien_raid import catalog as C
from sim.games.alien_raid import layout as L
from sim.games.alien_raid import traits as T
from sim.games.alien_raid.schema import SCHEMA
from sim.rulesets import params_array


@dataclass(frozen=True)
class Names:
    """Card names by id, and the catalog's vocabulary."""

    models: tuple[str, ...]  # ships, then stations
    cities: tuple[str, ...]
    city_titles: tuple[str, ...]
    armies: tuple[str, ...]
    comps: tuple[str, ...]
    tasks: tuple[str, ...]
    regions: tuple[str, ...]
    types: tuple[str, ...]
    classes: tuple[str, ...]

    def model(self, name: str) -> int:
        return self.models.index(name)


def names(values: Mapping[str, Any]) -> Names:
    vocab = C.vocabulary(values)
    cities = tuple(C.cards(values, "cities"))
    titles = tuple(values[f"{C.PREFIX}cities.{c}.title"] or c for c in cities)
    return Names(
        models=tuple(C.cards(values, "ships") + C.cards(values, "stations")),
        cities=cities,
        city_titles=titles,
        armies=tuple(C.cards(values, "armies")),
        comps=tuple(C.cards(values, "compensations")),
        tasks=tuple(C.cards(values, "tasks")),
        regions=vocab.regions,
        types=vocab.types,
        classes=vocab.classes,
    )


def to_params(values: Mapping[str, Any]) -> np.ndarray:
    """The params array of a ruleset's flat values (``Ruleset.values``). Card ids follow the
    catalog's order, so the values keep their order here."""
    return _cached(tuple(values.items())).copy()


@functools.lru_cache(maxsize=32)
def _cached(items: tuple[tuple[str, Any], ...]) -> np.ndarray:
    values = dict(items)
    p = params_array(values, SCHEMA, out=np.zeros(L.N_PARAMS, np.int64))
    vocab = C.vocabulary(values)
    p[L.P_N_REGIONS], p[L.P_N_TYPES] = len(vocab.regions), len(vocab.types)
    p[L.P_N_CLASSES] = len(vocab.classes)
    schemas = C.card_schemas(vocab)
    models = [(section, name) for section in ("ships", "stations")
              for name in C.cards(values, section)]  # fmt: skip
    p[L.P_N_MODELS] = len(models)
    for m, (section, name) in enumerate(models):
        block = p[L.P_MODELS + m * L.MODEL_SIZE : L.P_MODELS + (m + 1) * L.MODEL_SIZE]
        card = _card(values, section, name)
        params_array(card, schemas[section], out=block)
        if section == "ships":
            _ship_traits(block, card["traits"], vocab)
        else:
            block[L.M_KIND], block[L.M_CLASS] = L.STATION, -1
            block[L.M_EFFECT], block[L.M_EFFECT_VALUE] = T.parse_station(card["effect"])
    cities = C.cards(values, "cities")
    p[L.P_N_CITIES] = len(cities)
    for c, name in enumerate(cities):
        block = p[L.P_CITIES + c * L.CITY_SIZE : L.P_CITIES + (c + 1) * L.CITY_SIZE]
        params_array(_card(values, "cities", name), schemas["cities"], out=block)
    # armies, compensation cards and tasks: per-card arrays, card k at slot + k
    sizes = {"armies": L.P_N_ARMY_MODELS, "compensations": L.P_N_COMP_MODELS,
             "tasks": L.P_N_TASK_MODELS}  # fmt: skip
    for section, size in sizes.items():
        found = C.cards(values, section)
        p[size] = len(found)
        for k, name in enumerate(found):
            card = _card(values, section, name)
            params_array(card, schemas[section], out=p[k:])
            if section == "compensations":
                p[L.P_COMP_EFFECT + k], p[L.P_COMP_VALUE + k] = T.parse_compensation(card["effect"])
            elif section == "tasks":
                p[L.P_TASK_COND + k], p[L.P_TASK_ARG + k] = T.parse_task(card["counts"], vocab)
    return p


def _card(values: Mapping[str, Any], section: str, name: str) -> dict[str, Any]:
    """One card's fields, by field name."""
    head = f"{C.PREFIX}{section}.{name}."
    return {key.removeprefix(head): v for key, v in values.items() if key.startswith(head)}


def _ship_traits(block: np.ndarray, traits: Any, vocab: T.Vocabulary) -> None:
    """A ship's traits: the invulnerable and transfer flags, the attack traits in order."""
    block[L.M_KIND] = L.SHIP
    n = 0
    for text in traits:
        trait = T.parse_trait(text, vocab)
        if trait.kind == "invulnerable":
            block[L.M_INVULNERABLE] = 1
        elif trait.kind == "transfer":
            block[L.M_TRANSFER] = 1
        else:
            t = L.M_TRAITS + n * L.TRAIT_SIZE
            block[t] = trait.value
            for i, (cond, arg) in enumerate(trait.conditions):
                block[t + 1 + 2 * i], block[t + 2 + 2 * i] = cond, arg
            n += 1
    block[L.M_N_TRAITS] = n
