"""A validated ruleset (rules and card catalog) as the engine's int64 params array, and the
card names behind every id (models: ships then stations, in catalog order)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.games.alien_raid import catalog as C
from sim.games.alien_raid import layout as L
from sim.games.alien_raid import traits as T


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
    v = dict(items)
    p = np.zeros(L.N_PARAMS, np.int64)
    _rules(p, v)
    _catalog(p, v)
    return p


def _rules(p: np.ndarray, v: Mapping[str, Any]) -> None:
    p[L.P_TURNS] = v["game.turns"]
    p[L.P_START_HUMANS] = v["game.start_humans"]
    p[L.P_RED_FROM_TURN] = v["game.red_from_turn"]
    for k in range(4):  # 2..5 players
        p[L.P_CITIES_PER_TURN + 2 + k] = v["game.cities_per_turn"][k]
        p[L.P_TASKS_PER_PLAYERS + 2 + k] = v["game.tasks_per_players"][k]
    p[L.P_FUEL_START] = v["fuel.start"]
    p[L.P_FUEL_STEP] = v["fuel.step"]
    p[L.P_FUEL_MAX] = v["fuel.max"]
    p[L.P_HAND_SHIPS] = v["hand.ships"]
    p[L.P_HAND_STATIONS] = v["hand.stations"]
    p[L.P_BUY_MAX] = v["buy.max"]
    p[L.P_REDRAW] = ("off", "once", "repeat").index(v["buy.station_redraw"])
    p[L.P_CREDIT_AMOUNT] = v["credit.amount"]
    p[L.P_CREDIT_REPAY] = v["credit.repay"]
    p[L.P_CREDIT_HUMANS] = v["credit.humans_below"]
    p[L.P_CREDIT_SHIPS] = v["credit.ships_below"]
    p[L.P_CREDIT_INCLUSIVE] = v["credit.condition"] == "no_more_than"
    p[L.P_CREDIT_CARDS] = v["credit.cards"]
    p[L.P_CREDIT_REPAY_EARLY] = v["credit.repay_when"] == "earliest"
    p[L.P_COMP_NEXT_TURN_ONLY] = v["compensation.keep"] == "next_turn"
    p[L.P_TASK_FIRST] = v["tasks.first"]
    p[L.P_TASK_SECOND] = v["tasks.second"]
    p[L.P_TASK_HALF_EACH] = v["tasks.first_tie"] == "half_each"
    p[L.P_TASK_ZERO_COUNTS] = v["tasks.zero_counts"]
    p[L.P_ROUND_TO] = v["tasks.round_down_to"]
    p[L.P_TIE_MOST_CITIES] = v["end.tie"] == "most_cities"


def _field(v: Mapping[str, Any], section: str, name: str, field: str) -> Any:
    return v[f"{C.PREFIX}{section}.{name}.{field}"]


def _catalog(p: np.ndarray, v: Mapping[str, Any]) -> None:
    vocab = C.vocabulary(v)
    p[L.P_N_REGIONS], p[L.P_N_TYPES] = len(vocab.regions), len(vocab.types)
    p[L.P_N_CLASSES] = len(vocab.classes)
    ships, stations = C.cards(v, "ships"), C.cards(v, "stations")
    p[L.P_N_MODELS] = len(ships) + len(stations)
    for m, name in enumerate(ships):
        _ship(p, L.P_MODELS + m * L.MODEL_SIZE, v, name, vocab)
    for j, name in enumerate(stations):
        base = L.P_MODELS + (len(ships) + j) * L.MODEL_SIZE
        p[base + L.M_KIND] = L.STATION
        p[base + L.M_CLASS] = -1
        p[base + L.M_DECK] = L.DECK_NAMES.index(_field(v, "stations", name, "deck"))
        p[base + L.M_COUNT] = _field(v, "stations", name, "count")
        p[base + L.M_PRICE] = _field(v, "stations", name, "price")
        effect, value = T.parse_station(_field(v, "stations", name, "effect"))
        p[base + L.M_EFFECT], p[base + L.M_EFFECT_VALUE] = effect, value
    cities = C.cards(v, "cities")
    p[L.P_N_CITIES] = len(cities)
    for c, name in enumerate(cities):
        base = L.P_CITIES + c * L.CITY_SIZE
        p[base + L.CT_REGION] = vocab.regions.index(_field(v, "cities", name, "region"))
        p[base + L.CT_TYPE] = vocab.types.index(_field(v, "cities", name, "type"))
        p[base + L.CT_RAID] = _field(v, "cities", name, "raid")
        p[base + L.CT_CATCH] = _field(v, "cities", name, "catch")
        p[base + L.CT_ARMIES] = _field(v, "cities", name, "armies")
        p[base + L.CT_MIN_PLAYERS] = C.min_players(_field(v, "cities", name, "tag"))
        p[base + L.CT_DECK] = L.DECK_NAMES.index(_field(v, "cities", name, "deck"))
    armies = C.cards(v, "armies")
    p[L.P_N_ARMY_MODELS] = len(armies)
    for a, name in enumerate(armies):
        p[L.P_ARMY_COUNT + a] = _field(v, "armies", name, "count")
        p[L.P_ARMY_ATTACK + a] = _field(v, "armies", name, "attack")
    comps = C.cards(v, "compensations")
    p[L.P_N_COMP_MODELS] = len(comps)
    for k, name in enumerate(comps):
        p[L.P_COMP_COUNT + k] = _field(v, "compensations", name, "count")
        effect, value = T.parse_compensation(_field(v, "compensations", name, "effect"))
        p[L.P_COMP_EFFECT + k], p[L.P_COMP_VALUE + k] = effect, value
    tasks = C.cards(v, "tasks")
    p[L.P_N_TASK_MODELS] = len(tasks)
    for t, name in enumerate(tasks):
        cond, arg = T.parse_task(_field(v, "tasks", name, "counts"), vocab)
        p[L.P_TASK_COND + t], p[L.P_TASK_ARG + t] = cond, arg
        p[L.P_TASK_MIN_PLAYERS + t] = C.min_players(_field(v, "tasks", name, "tag"))


def _ship(p: np.ndarray, base: int, v: Mapping[str, Any], name: str, vocab: T.Vocabulary) -> None:
    p[base + L.M_KIND] = L.SHIP
    p[base + L.M_CLASS] = vocab.classes.index(_field(v, "ships", name, "class"))
    p[base + L.M_DECK] = L.DECK_NAMES.index(_field(v, "ships", name, "deck"))
    for field, offset in (
        ("count", L.M_COUNT),
        ("price", L.M_PRICE),
        ("attack", L.M_ATTACK),
        ("fuel", L.M_FUEL),
    ):
        p[base + offset] = _field(v, "ships", name, field)
    n = 0
    for text in _field(v, "ships", name, "traits"):
        trait = T.parse_trait(text, vocab)
        if trait.kind == "invulnerable":
            p[base + L.M_INVULNERABLE] = 1
        elif trait.kind == "transfer":
            p[base + L.M_TRANSFER] = 1
        else:
            t = base + L.M_TRAITS + n * L.TRAIT_SIZE
            p[t] = trait.value
            for i, (cond, arg) in enumerate(trait.conditions):
                p[t + 1 + 2 * i], p[t + 2 + 2 * i] = cond, arg
            n += 1
    p[base + L.M_N_TRAITS] = n
