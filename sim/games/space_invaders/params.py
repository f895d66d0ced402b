"""Turn a ruleset (plus its catalog and geometry) into the engine's float64 params array for
a table of `seats` players (the hands of a 1-player game count as players: line 102).

Keys whose Field names a params slot (schema.py) are stored by sim.rulesets.params_array;
this module adds what depends on the table or on the data files, and what the engine reads
in another unit."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.data import Catalog, load_catalog, locate
from sim.games.space_invaders.schema import LEVELS, SCHEMA
from sim.rulesets import params_array


def catalog_of(values: Mapping[str, Any]) -> Catalog:
    return load_catalog(
        Path(locate("catalog", values["catalog.file"], source=None, key="catalog.file"))
    )


def table_size(seats: int, values: Mapping[str, Any]) -> int:
    """The chart's player count for `seats` players: a 1-player game uses its hands."""
    return int(values["setup.solo_hands"]) if seats == 1 else seats


def setup_numbers(values: Mapping[str, Any], seats: int) -> dict[str, int]:
    """Deck size, planet and UFO health for this table: a setup key if set (variants), else
    the printed chart for the level and player count. The deck never exceeds the catalog;
    health stays on the track (1-20)."""
    size = table_size(seats, values)
    level = LEVELS.index(values["setup.level"])
    chart = {
        "deck": values[f"chart.deck_{size}p"][level],
        "planet": values["chart.planet_health"][level],
        "ufo": values[f"chart.ufo_{size}p"][level],
    }
    cards = catalog_of(values).size
    top = {"deck": cards, "planet": L.TRACK_MAX, "ufo": L.TRACK_MAX}
    out = {}
    for name, key in (
        ("deck", "setup.deck_size"),
        ("planet", "setup.planet_health"),
        ("ufo", "setup.ufo_health"),
    ):
        value = values[key] or chart[name]
        out[name] = max(1, min(top[name], int(value)))
    return out


def to_params(values: Mapping[str, Any], seats: int, *, scripted: bool = False) -> np.ndarray:
    """The params array for a ruleset's `values` and `seats` players (1-4)."""
    p = params_array(values, SCHEMA, out=np.zeros(L.N_PARAMS, np.float64))
    size = table_size(seats, values)
    numbers = setup_numbers(values, seats)
    p[L.P_DECK], p[L.P_PLANET_START], p[L.P_UFO_START] = (
        numbers["deck"],
        numbers["planet"],
        numbers["ufo"],
    )
    p[L.P_SEATS_SOLO] = size if seats == 1 else 0
    key = "tokens.start_active_2p" if size == 2 else "tokens.start_active"
    p[L.P_START_ACTIVE] = values[key]
    p[L.P_SCRIPTED] = scripted
    _geometry(p, values)
    _dexterity(p, values)
    side = "2p" if size == 2 else "3_4p"
    for h in values[f"geometry.explosions_{side}"]:
        p[L.P_EXPLOSION + h] = 1.0
    catalog = catalog_of(values)
    for level, deck in enumerate(catalog.powers):
        for j, power in enumerate(deck):
            p[L.P_POWER_DECK + level * L.CARDS_PER_LEVEL + j] = power
    p[L.P_N_CARDS] = catalog.size
    p[L.P_CARD_SPEED : L.P_CARD_SPEED + catalog.size] = catalog.speed
    p[L.P_CARD_DAMAGE : L.P_CARD_DAMAGE + catalog.size] = catalog.damage
    p[L.P_CARD_ICON : L.P_CARD_ICON + catalog.size] = catalog.icon
    return p


def _geometry(p: np.ndarray, v: Mapping[str, Any]) -> None:
    g = {k.removeprefix("geometry."): val for k, val in v.items() if k.startswith("geometry.")}
    w, h = g["card_width_mm"], g["card_height_mm"]
    p[L.P_PITCH_X] = w + g["gap_x_mm"]
    p[L.P_GRID_Y0] = g["planet_depth_mm"] + g["planet_gap_mm"]
    p[L.P_PITCH_Y] = h + g["gap_y_mm"]
    grid_top = p[L.P_GRID_Y0] + L.ROWS * h + (L.ROWS - 1) * g["gap_y_mm"]
    p[L.P_BOARD_H] = grid_top + g["top_margin_mm"]
    centre = g["board_width_mm"] / 2.0  # just above the top edge's centre (line 142)
    p[L.P_UFO_X0], p[L.P_UFO_X1] = centre - g["ufo_width_mm"] / 2, centre + g["ufo_width_mm"] / 2
    p[L.P_UFO_Y0] = p[L.P_BOARD_H] + g["ufo_gap_mm"]
    p[L.P_UFO_Y1] = p[L.P_UFO_Y0] + g["ufo_depth_mm"]
    p[L.P_TOKEN_R] = g["token_diameter_mm"] / 2.0


def _dexterity(p: np.ndarray, v: Mapping[str, Any]) -> None:
    p[L.P_SPREAD] = v["dexterity.spread_mm"] / L.DEX_REF_MM
    p[L.P_BIAS] = v["dexterity.bias_mm"] / L.DEX_REF_MM
    p[L.P_WILD] = v["dexterity.wild_pct"] / 100.0
