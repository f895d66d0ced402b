"""Every Space Invaders rule key: its type, range and meaning (docs/rules-space-invaders.md
gives the rulebook line and the reading behind each), and the checks across keys.

Three groups of keys are filled from data files unless a ruleset sets them: `geometry.*`
from the geometry file `geometry.file`, `dexterity.*` numbers from the skill preset
`dexterity.skill` (rulesets/dexterity-presets.yaml), `catalog.digest` from `catalog.file`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sim.config import Field, Schema
from sim.games.space_invaders.layout import POWER_NAMES

LEVELS = ("training", "standard", "expert", "elite")
SKILLS = ("child", "casual", "practised", "custom")
KNOBS = ("none", "deck", "planet", "ufo")

_CHART = {"min": 1, "max": 96, "length": 4}
_HEALTH = {"min": 1, "max": 20, "length": 4}

RULE_SCHEMA: Schema = {
    "setup.level": Field("choice", choices=LEVELS, doc="difficulty level (lines 134-167)"),
    "setup.deck_size": Field("int", min=0, max=96, doc="invader deck; 0 = the printed chart"),
    "setup.planet_health": Field("int", min=0, max=20, doc="0 = the chart (variant, line 469)"),
    "setup.ufo_health": Field("int", min=0, max=20, doc="0 = the chart (variant, line 469)"),
    "setup.rows": Field("int", min=3, max=4, doc="4, or 3: the top row removed (line 468)"),
    "setup.solo_hands": Field("int", min=2, max=4, doc="hands of a 1-player game (line 102)"),
    "chart.deck_2p": Field("int_list", **_CHART, doc="deck by level, 2 players (line 135)"),
    "chart.deck_3p": Field("int_list", **_CHART, doc="3 players (line 136)"),
    "chart.deck_4p": Field("int_list", **_CHART, doc="4 players (line 137)"),
    "chart.planet_health": Field("int_list", **_HEALTH, doc="by level (line 160)"),
    "chart.ufo_2p": Field("int_list", **_HEALTH, doc="UFO health by level, 2 players (165)"),
    "chart.ufo_3p": Field("int_list", **_HEALTH, doc="3 players (line 166)"),
    "chart.ufo_4p": Field("int_list", **_HEALTH, doc="4 players (line 167)"),
    "tokens.per_level": Field("int_list", min=0, max=7, length=3, doc="on the cards (114)"),
    "tokens.start_active": Field("int", min=1, max=7, doc="active level-1 tokens (line 116)"),
    "tokens.start_active_2p": Field("int", min=1, max=7, doc="in a 2-player game (line 122)"),
    "launch.planet_relaunch": Field("bool", doc="re-launch from the planet area (206, 467)"),
    "launch.planet_streak": Field("int", min=1, max=10, doc="planet landings in a row (206)"),
    "hit.rule": Field("choice", choices=("overlap", "center"), doc="on a card (line 218)"),
    "two_hit.second_hit": Field(
        "choice", choices=("any_token", "other_player"), doc="lines 223 and 386"
    ),
    "reinforcements.enabled": Field("bool", doc="explosion icons send tokens (line 288)"),
    "reinforcements.each_icon": Field(
        "choice", choices=("every_time", "once"), doc="an icon reached again after a heal"
    ),
    "last_round.at_most": Field("int", min=0, max=20, doc="invaders left (line 308)"),
    "last_round.damage_multiplier": Field("int", min=1, max=5, doc="line 310"),
    "last_round.crashed_score": Field("bool", doc="crashed icon invaders score (312, 369)"),
    "final_assault.tokens": Field(
        "choice", choices=("all_active", "unlaunched"), doc="after an early end (322, 330)"
    ),
    "final_assault.ufo_damage": Field("int", min=0, max=40, doc="line 333"),
    "powers.called_shot_success": Field(
        "choice", choices=("landed", "destroyed"), doc="lines 410 and 222"
    ),
    "powers.bonus_shot_hits_invaders": Field("bool", doc="bonus shots at the UFO (410, 419)"),
    "powers.ufo_relaunch": Field("choice", choices=("chain", "once"), doc="line 413"),
    "powers.long_wave": Field("choice", choices=("hit", "destroy"), doc="line 424"),
    "powers.heal_cap": Field("choice", choices=("track", "start"), doc="line 434"),
    "powers.dead_ufo_counts": Field("bool", doc="a destroyed UFO can be attacked (335, 368)"),
    "powers.plain": Field(
        "choice", choices=("none", *POWER_NAMES[1:]), doc="this power plays as a plain token"
    ),
    "dexterity.skill": Field("choice", choices=SKILLS, doc="preset of the numbers below"),
    "dexterity.spread_mm": Field("float", min=0, max=500, doc="sd across the shot at 300 mm"),
    "dexterity.length_ratio": Field("float", min=0.1, max=10, doc="sd along / sd across"),
    "dexterity.floor_mm": Field("float", min=0, max=100, doc="sd at zero distance"),
    "dexterity.bias_mm": Field("float", min=-300, max=300, doc="mean error along, at 300 mm"),
    "dexterity.wild_pct": Field("float", min=0, max=100, doc="chance of a wild shot (%)"),
    "catalog.file": Field("str", doc="invader deck: a shipped name (default, fast, ...) or path"),
    "catalog.digest": Field("str", doc="filled: content hash of the catalog file"),
    "geometry.file": Field("str", doc="measurements: a shipped name (default, ...) or a path"),
    "search.knob": Field("choice", choices=KNOBS, doc="chart number scaled by search.factor"),
    "search.factor": Field("float", min=0.05, max=10, doc="multiplies the chart's number"),
    "search.targets_pct": Field(
        "int_list", min=1, max=99, length=4, doc="report only: target win % by level"
    ),
    "end.round_cap": Field("int", min=10, max=10000, doc="safety net: outcome `cap`"),
}

_MM = {"min": -1000.0, "max": 5000.0}
GEOMETRY_SCHEMA: Schema = {
    "card_width_mm": Field("float", min=10, max=300, doc="invader card width"),
    "card_height_mm": Field("float", min=10, max=300, doc="invader card height"),
    "gap_x_mm": Field("float", min=0, max=200, doc="gap between spaces, across"),
    "gap_y_mm": Field("float", min=0, max=200, doc="gap between spaces, up"),
    "grid_left_mm": Field("float", min=0, max=1000, doc="board's left edge to column 1"),
    "board_width_mm": Field("float", min=50, max=3000, doc="board width"),
    "planet_depth_mm": Field("float", min=0, max=1000, doc="bottom edge to the dotted line"),
    "planet_gap_mm": Field("float", min=0, max=1000, doc="dotted line to the bottom row"),
    "top_margin_mm": Field("float", min=0, max=1000, doc="top row to the board's top edge"),
    "token_diameter_mm": Field("float", min=1, max=200, doc="blast token"),
    "ufo_width_mm": Field("float", min=1, max=1000, doc="UFO opening width"),
    "ufo_depth_mm": Field("float", min=1, max=1000, doc="UFO opening depth"),
    "ufo_gap_mm": Field("float", min=0, max=1000, doc="board's top edge to the opening"),
    "shooter_y_mm": Field("float", **_MM, doc="launch point, from the board's bottom edge"),
    "wave_short_mm": Field("float", min=0, max=1000, doc="short blast wave"),
    "wave_long_mm": Field("float", min=0, max=1000, doc="long blast wave"),
    "wild_margin_mm": Field("float", min=0, max=2000, doc="wild shots: margin around the board"),
    "explosions_2p": Field("int_list", min=1, max=20, doc="explosion icons, 2-player side"),
    "explosions_3_4p": Field("int_list", min=1, max=20, doc="explosion icons, 3-4 player side"),
}
DEXTERITY_KEYS = ("spread_mm", "length_ratio", "floor_mm", "bias_mm", "wild_pct")

SCHEMA: Schema = {
    **RULE_SCHEMA,
    **{f"geometry.{key}": field for key, field in GEOMETRY_SCHEMA.items()},
}


def cross_key_problems(v: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    """(keys involved, message) for every rule broken by a combination of keys."""
    width = v["geometry.grid_left_mm"] + 5 * v["geometry.card_width_mm"]
    width += 4 * v["geometry.gap_x_mm"]
    if width > v["geometry.board_width_mm"]:
        yield (
            ("geometry.board_width_mm", "geometry.card_width_mm", "geometry.grid_left_mm"),
            f"the five columns end at {width:g} mm, beyond geometry.board_width_mm "
            f"({v['geometry.board_width_mm']:g})",
        )
    if v["geometry.shooter_y_mm"] > v["geometry.planet_depth_mm"]:
        yield (
            ("geometry.shooter_y_mm", "geometry.planet_depth_mm"),
            "the shooter must stay below the planet area's top line (line 202)",
        )
    if v["search.knob"] == "none" and v["search.factor"] != 1.0:
        yield (("search.factor", "search.knob"), "search.factor needs a search.knob")
